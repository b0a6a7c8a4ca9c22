// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package tabular

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
)

// MinIDRows is the fewest rows on which a column of distinct integers is
// taken for an identifier.
const MinIDRows = 20

// FeatureWhy is what a column like a row identifier does as a feature of
// an estimate, for IDWarning.
const FeatureWhy = "as a feature it tells every row apart and measures nothing"

// IDLike reports whether the values v of a column look like a row
// identifier: distinct integers on every row, at least MinIDRows of them,
// and either increasing in the order kept or spanning less than twice the
// rows of the data set (pop): numbers that label rows rather than measure
// anything, and that tell every row apart in the kernel. A missing value
// (NaN) is not an integer: such a column is not taken for one.
func IDLike(v []float64, pop int) bool {
	r := len(v)
	if r < MinIDRows {
		return false
	}
	increasing := true
	for i, u := range v {
		if u != math.Trunc(u) || math.IsInf(u, 0) {
			return false
		}
		if i > 0 && u <= v[i-1] {
			increasing = false
		}
	}
	s := slices.Clone(v)
	slices.Sort(s)
	for i := 1; i < r; i++ {
		if s[i] == s[i-1] {
			return false
		}
	}
	return increasing || s[r-1]-s[0] < 2*float64(max(pop, r))
}

// IDWarning is the warning about a column (name) that looks like a row
// identifier: what it does where it is used (why), and what to do.
func IDWarning(name, why string) string {
	return fmt.Sprintf("column %s holds distinct integers on every row, like a row identifier: %s; leave it out with --exclude %s", Quote(name), why, name)
}

// IDWarnings returns a warning for each column (names) that looks like a
// row identifier (IDLike) in one of the samples xs, whose data sets have
// pops[i] rows.
func IDWarnings(names []string, xs []*mat.Dense, pops []int) []string {
	var w []string
	for j, name := range names {
		for i, x := range xs {
			if IDLike(mat.Col(nil, j, x), pops[i]) {
				w = append(w, IDWarning(name, FeatureWhy))
				break
			}
		}
	}
	return w
}

// TextIDs returns the columns of text, among text, that t read as
// categories with distinct labels on more than half its rows (an
// identifier, a name: as a category it tells the rows apart and measures
// nothing), and a warning for each that says it is left out; list is the
// flag that names columns (Selection.List).
func TextIDs(t *dataset.Table, text []string, list string) (ids, warnings []string) {
	rows := 0
	for _, g := range t.Groups {
		rows += g.Len()
	}
	for i, name := range t.Columns {
		if t.Categories == nil || t.Categories[i] == nil || !slices.Contains(text, name) {
			continue
		}
		if n := len(t.Categories[i]); TextLikeID(n, rows) {
			ids = append(ids, name)
			warnings = append(warnings, fmt.Sprintf("column %s left out: its %d text labels over %d rows nearly tell the rows apart, like an identifier; name the columns to read with --%s, or leave it out with --exclude %s", Quote(name), n, rows, list, name))
		}
	}
	return ids, warnings
}

// TextLikeID reports whether a text column with labels distinct labels
// over rows rows is taken for an identifier (TextIDs' rule).
func TextLikeID(labels, rows int) bool { return labels > 1 && 2*labels > rows }
