// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package tabular

import "errors"

// Kinds of failure of a selection, wrapped by a *SelectionError; test for
// them with errors.Is.
var (
	// ErrNoColumn means an exclusion leaves no column to use.
	ErrNoColumn = errors.New("table: exclusion leaves no column")
	// ErrNotListed means an excluded column is not among the named
	// columns, or not among the columns of the table.
	ErrNotListed = errors.New("table: excluded column not found")
	// ErrGroupExcluded means an excluded column is the column that splits
	// the rows into samples, which is never used as a feature.
	ErrGroupExcluded = errors.New("table: excluded column is the group column")
)

// SelectionError reports a selection that cannot be made. Its message
// starts with the file when one is known, and names the flags a user of
// the command line gave.
type SelectionError struct {
	File string // the table's name; empty when the selection was checked before any read
	Msg  string // what was wrong, naming the flags
	Kind error  // ErrNoColumn, ErrNotListed or ErrGroupExcluded
}

func (e *SelectionError) Error() string {
	if e.File == "" {
		return e.Msg
	}
	return e.File + ": " + e.Msg
}

// Unwrap returns the kind of failure.
func (e *SelectionError) Unwrap() error { return e.Kind }
