// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"slices"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/tabular"
)

// Feature columns of text or booleans are categories: the reader reads the
// named feature columns as labels (dataset.Query.Labels: a CSV column whose
// first non-empty cell is not a number, a Parquet string or boolean
// column), holding codes of their labels, and the estimators score them with
// the delta kernel (divergence.Categorical), times the Gaussian on the
// numeric columns. A category column holds at most divergence.MaxCategories
// distinct labels, refused at the first beyond.

// categoryUsage is what the flags that name feature columns say of text
// columns, and defaultTextUsage what they say of the default selection's.
var (
	categoryUsage    = fmt.Sprintf("; a column of text or booleans is read as categories, scored with the delta kernel, at most %d of them", divergence.MaxCategories)
	defaultTextUsage = "; a CSV column is text when its first non-empty cell is not a number; a text column whose labels nearly tell the rows apart (an identifier) or that holds too many labels is left out with a warning; from standard input, numeric columns only; the columns left out are named on standard error"
)

// featureLabels is the most distinct labels a read of feature columns
// takes in a text column (dataset.Query.MaxLabels, one bound for every
// text column of a read): divergence.MaxCategories, or, when the read also
// takes the target column label as possible class labels, the target's
// bound maxLabels (divergence.MaxClasses under auto), which split then
// checks against divergence.MaxCategories for the features.
func featureLabels(label string, maxLabels int) int {
	if label != "" {
		return maxLabels
	}
	return divergence.MaxCategories
}

// categoryHint is tabular.CategoryHint.
func categoryHint(err error, bound int, typeFlag string, targets ...string) error {
	return tabular.CategoryHint(err, bound, typeFlag, targets...)
}

// The default selection (no --columns, no --features) takes the columns
// of text or booleans as categories too, as a named one is, by table's
// rules (tabular.TextColumns, tabular.ReadText, tabular.TextIDs).

// readDefault reads the table at path with read(nil), the default
// selection, and, when that left out columns of text (or, in Parquet, of
// another type than numbers) not excluded, reads it again with read(text),
// which takes them as categories (readText). It returns the table, the
// columns of text it took, and the warnings of those it left out. The
// notes of the first read are printed only when it is the last.
func (r *reader) readDefault(path string, exclude []string, flag string, bound int, read func(text []string) (*dataset.Table, error)) (*dataset.Table, []string, []string, error) {
	r.quiet = true
	t, err := read(nil)
	r.quiet = false
	if err != nil {
		return nil, nil, nil, err
	}
	text := tabular.TextColumns(t.Skipped, exclude)
	if len(text) == 0 {
		t, err = r.noted(path, t, nil)
		return t, nil, nil, err
	}
	// A column ReadText leaves out gets its warning, not also the note
	// of a column that is not numeric.
	t, warnings, err := tabular.ReadText(text, flag, bound, func(cur []string) (*dataset.Table, error) {
		r.told = slices.DeleteFunc(slices.Clone(text), func(s string) bool { return slices.Contains(cur, s) })
		defer func() { r.told = nil }()
		return read(cur)
	})
	return t, text, warnings, err
}

// idText is tabular.TextIDs.
func idText(t *dataset.Table, text []string, flag string) (ids, warnings []string) {
	return tabular.TextIDs(t, text, flag)
}
