// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"

	"github.com/sublinear/pearson/errs"
	"github.com/sublinear/pearson/kernel"
)

// Errors, wrapped with details; test for them with errors.Is. They are the
// shared values of package errs, which changepoint, drift and qmin report
// too.
var (
	// ErrTooFew means a sample has too few points: fewer than 2, or fewer
	// than the cross-validation folds need.
	ErrTooFew = errs.ErrTooFew
	// ErrDimension means samples that must share a dimension do not, or
	// samples that must be paired have different numbers of rows.
	ErrDimension = errs.ErrDimension
	// ErrNonFinite means a value of the data is NaN or infinite.
	ErrNonFinite = errs.ErrNonFinite
	// ErrSettings means a field of Settings is out of range.
	ErrSettings = errs.ErrSettings
	// ErrConstant means a variable is constant, so that no kernel width can
	// be derived from it: drop it, or give the width explicitly.
	ErrConstant = kernel.ErrConstant
	// ErrTooLarge means Settings.Exact was asked of a sample larger than
	// MaxExact.
	ErrTooLarge = errs.Kind("too large for the exact solution", errs.ErrTooLarge)
)

// SettingsError reports a setting, or the argument α, out of range; its
// Package is "divergence". It unwraps to ErrSettings.
type SettingsError = errs.SettingsError

// DataError reports a value of the data that the estimators cannot use.
type DataError struct {
	// Sample names the sample: "P" or "Q" for the numerator and denominator
	// samples, "x" or "y" for paired variables.
	Sample string
	// Row and Column locate the value, counted from 0.
	Row, Column int
	// Value is the value.
	Value float64
}

func (e *DataError) Error() string {
	return fmt.Sprintf("divergence: %s: row %d, column %d is %v", e.Sample, e.Row, e.Column, e.Value)
}

// Unwrap returns ErrNonFinite.
func (e *DataError) Unwrap() error { return ErrNonFinite }
