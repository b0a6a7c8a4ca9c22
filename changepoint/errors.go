// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"errors"
	"fmt"
)

// Errors, wrapped with details; test for them with errors.Is. Errors of the
// estimator come wrapped as they are, so that divergence's sentinels can be
// tested for too.
var (
	// ErrSettings means a field of Settings is out of range.
	ErrSettings = errors.New("bad settings")
	// ErrTooFew means a series has too few rows for two windows.
	ErrTooFew = errors.New("too few rows")
	// ErrDimension means a row has the wrong number of columns.
	ErrDimension = errors.New("mismatched dimensions")
	// ErrNonFinite means a value of the series is NaN or infinite.
	ErrNonFinite = errors.New("non-finite value")
	// ErrTimes means a time column that does not increase strictly.
	ErrTimes = errors.New("times not increasing")
)

// SettingsError reports a field of Settings out of range. It unwraps to
// ErrSettings.
type SettingsError struct {
	// Field is the Go name of the field ("Window", "Step", …), or "alpha"
	// for the argument α.
	Field string
	// Value is the value given.
	Value any
	// Allowed says what the field accepts.
	Allowed string
}

func (e *SettingsError) Error() string {
	return fmt.Sprintf("changepoint: %v: %s = %v: %s", ErrSettings, e.Field, e.Value, e.Allowed)
}

// Unwrap returns ErrSettings.
func (e *SettingsError) Unwrap() error { return ErrSettings }

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
