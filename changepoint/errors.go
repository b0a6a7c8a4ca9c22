// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"errors"
	"fmt"

	"github.com/sublinear/pearson/errs"
)

// Errors, wrapped with details; test for them with errors.Is. ErrSettings,
// ErrNonFinite and ErrDimension are the shared values of package errs, and
// ErrTooFew is errs.ErrTooFew too, so that divergence's names test for
// them as well; errors of the estimator come wrapped as they are.
var (
	// ErrSettings means a field of Settings is out of range.
	ErrSettings = errs.ErrSettings
	// ErrTooFew means a series has too few rows for two windows.
	ErrTooFew = errs.Kind("too few rows", errs.ErrTooFew)
	// ErrDimension means a row has the wrong number of columns.
	ErrDimension = errs.ErrDimension
	// ErrNonFinite means a value of the series is NaN or infinite.
	ErrNonFinite = errs.ErrNonFinite
	// ErrTimes means a time column that does not increase strictly.
	ErrTimes = errors.New("times not increasing")
	// ErrTooLarge means a series too wide for the memory a Detector may
	// hold (see MaxDetectorValues).
	ErrTooLarge = errs.ErrTooLarge
	// errNilDetector is the error of a method called on a nil *Detector.
	errNilDetector = errors.New("changepoint: nil *Detector")
)

// SettingsError reports a field of Settings, or the argument α, out of
// range; its Package is "changepoint". It unwraps to ErrSettings.
type SettingsError = errs.SettingsError

// DataError reports a value of the series that is NaN or infinite. It
// unwraps to ErrNonFinite.
type DataError struct {
	// Row and Column locate the value, counted from 0 in the order the rows
	// arrived.
	Row, Column int
	// Value is the value.
	Value float64
}

func (e *DataError) Error() string {
	return fmt.Sprintf("changepoint: row %d, column %d is %v", e.Row, e.Column, e.Value)
}

// Unwrap returns ErrNonFinite.
func (e *DataError) Unwrap() error { return ErrNonFinite }
