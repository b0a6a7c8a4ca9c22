// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package errs is the error vocabulary shared by pearson's library
// packages: the kinds of failure every estimator can report, and the one
// error type of a setting out of range. The packages re-export these under
// their own names (divergence.ErrSettings, changepoint.ErrSettings, …),
// which are the same values, so that
//
//	errors.Is(err, divergence.ErrSettings)
//
// holds for a bad setting of changepoint, drift or qmin too, and a caller
// tests for a kind of failure once, whichever package reported it.
//
// The library's packages answer misuse alike (internal/misuse tests every
// exported entry point so):
//
//   - data and sizes are errors, never panics: nil or typed-nil matrices
//     and readers, no rows, NaN, sizes beyond a package's bounds (which
//     wrap ErrTooLarge before anything that large is allocated);
//   - a nil context.Context is a programmer's error and panics, as the
//     context package does, but always in the caller's goroutine, at the
//     entry point, never in a worker goroutine that no recover can guard;
//   - the methods of the handles a package returns (changepoint.Detector,
//     drift.Reference, dataset's sources, objstore's Store and Object)
//     called on a nil pointer return an error, or the zero value for a
//     getter; those of plain data types (settings, results, columns) panic
//     as any Go method does, except Validate and Memory of settings, for
//     which nil means the defaults;
//   - the few documented panics of programmer's arguments (kernel's
//     functions on mismatched dimensions, crossval.LogGrid's bounds) stay.
package errs

import (
	"errors"
	"fmt"
)

// Kinds of failure, wrapped with details; test for them with errors.Is.
var (
	// ErrSettings means a setting, or an argument such as α, is out of
	// range.
	ErrSettings = errors.New("bad settings")
	// ErrNonFinite means a value of the data, or one computed from them,
	// is NaN or infinite.
	ErrNonFinite = errors.New("non-finite value")
	// ErrDimension means data that must share a dimension do not.
	ErrDimension = errors.New("mismatched dimensions")
	// ErrTooFew means a sample has too few points for the method.
	ErrTooFew = errors.New("too few points")
	// ErrTooLarge means a request that would not fit the bounds a package
	// sets itself (of time or memory).
	ErrTooLarge = errors.New("too large")
)

// Kind returns an error with its own text that errors.Is reports as kind:
// a package's sentinel worded for its data ("too few rows") that is still
// one of the shared kinds.
func Kind(text string, kind error) error { return &kindError{text: text, kind: kind} }

type kindError struct {
	text string
	kind error
}

func (e *kindError) Error() string { return e.text }

// Is reports whether target is the error's kind.
func (e *kindError) Is(target error) bool { return target == e.kind }

// SettingsError reports a setting, or an argument such as α, out of range.
// It unwraps to ErrSettings. Its message reads
//
//	divergence: bad settings: K = -1: need 1 to 10000 centres (0: DefaultK)
//
// A program that takes the settings from its own options (a command line)
// names the option by Field and says "(0: the default)" when Default is not
// empty, without reading the message.
type SettingsError struct {
	// Package names the package whose settings these are ("divergence",
	// "changepoint", …); the message starts with it.
	Package string
	// Field is the Go name of the field ("K", "Sigma", "Permutations", …),
	// or the name of the argument ("alpha").
	Field string
	// Value is the value given.
	Value any
	// Allowed says what the field accepts, and what a zero means when that
	// is not a default.
	Allowed string
	// Default names the default a zero value of the field asks for
	// ("DefaultK"), or is empty when zero does not ask for a default.
	Default string
}

func (e *SettingsError) Error() string {
	allowed := e.Allowed
	if e.Default != "" {
		allowed += " (0: " + e.Default + ")"
	}
	if e.Package == "" {
		return fmt.Sprintf("%v: %s = %v: %s", ErrSettings, e.Field, e.Value, allowed)
	}
	return fmt.Sprintf("%s: %v: %s = %v: %s", e.Package, ErrSettings, e.Field, e.Value, allowed)
}

// Unwrap returns ErrSettings.
func (e *SettingsError) Unwrap() error { return ErrSettings }
