// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"errors"

	"github.com/sublinear/pearson/errs"
)

// Errors, wrapped with details; test for them with errors.Is.
var (
	// ErrNoColumns means a table has no columns, or no column of the
	// current table is in the reference.
	ErrNoColumns = errors.New("drift: no columns")
	// ErrColumn means a column is malformed: numeric and categorical at
	// once, missing counts that do not add up, or a table whose columns
	// hold different numbers of sampled rows.
	ErrColumn = errors.New("drift: bad column")
	// ErrMismatch means a current column differs from the reference column
	// of the same name in type.
	ErrMismatch = errors.New("drift: column does not match the reference")
	// ErrFormat means a saved reference is corrupt or truncated, or is not
	// a reference at all.
	ErrFormat = errors.New("drift: not a valid reference file")
	// ErrTooFew means a table without rows, or a reference without a
	// single present value: nothing to compare. (A current table whose
	// values are all missing is compared: its missing share drifts.)
	ErrTooFew = errs.Kind("drift: too few rows", errs.ErrTooFew)
	// ErrVersion means a saved reference was written in a newer version of
	// the format than this package reads.
	ErrVersion = errors.New("drift: reference file format too new")
)
