// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
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

// categoryColumns returns the indices, among names (columns of t), of the
// columns t read as text labels.
func categoryColumns(t *dataset.Table, names []string) []int {
	if t.Categories == nil {
		return nil
	}
	var cats []int
	for j, name := range names {
		for i, c := range t.Columns {
			if c == name {
				if t.Categories[i] != nil {
					cats = append(cats, j)
				}
				break
			}
		}
	}
	return cats
}

// namesOf returns the names of the columns cats of names.
func namesOf(names []string, cats []int) []string {
	out := make([]string, len(cats))
	for i, j := range cats {
		out[i] = names[j]
	}
	return out
}

// unifyCategories recodes the text columns of tq, the second file of a
// divergence or test, to the codes of the same labels in tp, the first (new
// labels after tp's), in tq's rows x, so that one label has one code in
// both samples. It returns the category columns, or an error when a column
// is text in one file and numeric in the other, or holds more than
// divergence.MaxCategories labels over both.
func unifyCategories(tp, tq *dataset.Table, xq *mat.Dense) ([]int, error) {
	if tp.Categories == nil && tq.Categories == nil {
		return nil, nil
	}
	var cats []int
	for j, name := range tp.Columns {
		var lp, lq []string
		if tp.Categories != nil {
			lp = tp.Categories[j]
		}
		if tq.Categories != nil {
			lq = tq.Categories[j]
		}
		switch {
		case lp == nil && lq == nil:
			continue
		case lp == nil || lq == nil:
			text, num := tp.Name, tq.Name
			if lp == nil {
				text, num = num, text
			}
			return nil, fmt.Errorf("column %q holds text in %s but numbers in %s: a column is numeric or categorical in both files", name, text, num)
		}
		code := make(map[string]int, len(lp))
		for c, l := range lp {
			code[l] = c
		}
		vocab := len(lp)
		to := make([]float64, len(lq))
		for c, l := range lq {
			n, ok := code[l]
			if !ok {
				n = vocab
				code[l] = n
				vocab++
			}
			to[c] = float64(n)
		}
		if vocab > divergence.MaxCategories {
			return nil, fmt.Errorf("column %q holds %d distinct labels over both files, more than the %d a category column may hold", name, vocab, divergence.MaxCategories)
		}
		r, _ := xq.Dims()
		for i := range r {
			xq.Set(i, j, to[int(xq.At(i, j))])
		}
		cats = append(cats, j)
	}
	return cats, nil
}

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

// categoryHint adds to err, a read's failure, what to do when a feature
// column (not one of targets) holds more labels than the read takes
// (featureLabels: bound). typeFlag names the flag of the targets' type
// ("target-type" for rank, "y-type" for mi; "" without targets), which the
// hint names the targets by.
func categoryHint(err error, bound int, typeFlag string, targets ...string) error {
	var pe *dataset.ParseError
	if errors.As(err, &pe) && errors.Is(err, dataset.ErrTooManyLabels) && !slices.Contains(targets, pe.Column) {
		why := ""
		if bound < divergence.MaxCategories {
			role := "the target"
			if typeFlag == "y-type" {
				role = "the --y column"
			}
			why = fmt.Sprintf(" while %s %s may hold text class labels (%d categories otherwise: give --%s numeric)", role, strings.Join(quoteAll(targets), ", "), divergence.MaxCategories, typeFlag)
		}
		return fmt.Errorf("%w: column %q is read as categories (its cells are text), and a category column holds at most %d distinct labels%s: leave it out, or recode it", err, pe.Column, bound, why)
	}
	return err
}

// The default selection (no --columns, no --features) takes the columns
// of text or booleans as categories too, as a named one is: readDefault
// reads the default selection and, when it left out columns of text,
// reads again taking them as labels (readText), leaving out with a warning
// a column with too many labels for a category column, and idText one
// whose labels nearly tell the rows apart (an identifier, a name): neither
// is taken silently. Data without text columns is read once, as before.

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
	var text []string
	for _, s := range t.Skipped {
		// Not text: a column with no name, one empty in every row (CSV:
		// no line, no value). A Parquet column (no line, its type as
		// value) of another type than text or booleans stays left out
		// by the second read.
		if s.Column == "" || s.Line == 0 && s.Value == "" || slices.Contains(exclude, s.Column) {
			continue
		}
		text = append(text, s.Column)
	}
	if len(text) == 0 {
		t, err = r.noted(path, t, nil)
		return t, nil, nil, err
	}
	// A column readText leaves out gets its warning, not also the note
	// of a column that is not numeric.
	t, warnings, err := readText(text, flag, bound, func(cur []string) (*dataset.Table, error) {
		r.told = slices.DeleteFunc(slices.Clone(text), func(s string) bool { return slices.Contains(cur, s) })
		defer func() { r.told = nil }()
		return read(cur)
	})
	return t, text, warnings, err
}

// readText reads with read, which takes the columns text as categories,
// and, when a column of text holds more distinct labels than the read
// takes (bound), reads again without it, with a warning: the default
// selection does not stop on a column the user did not name.
//
// Each such column costs a read: after maxTextRereads of them, the
// remaining text columns are left out together, with one warning.
func readText(text []string, flag string, bound int, read func(text []string) (*dataset.Table, error)) (*dataset.Table, []string, error) {
	var warnings []string
	for {
		if len(warnings) == maxTextRereads && len(text) > 0 {
			warnings = append(warnings, fmt.Sprintf("columns %s left out: after %d text columns with too many labels, the others are not tried; name the columns to read with --%s", strings.Join(quoteAll(text), ", "), maxTextRereads, flag))
			text = nil
		}
		t, err := read(text)
		var pe *dataset.ParseError
		if err == nil || !errors.As(err, &pe) || !errors.Is(err, dataset.ErrTooManyLabels) || !slices.Contains(text, pe.Column) {
			return t, warnings, err
		}
		text = slices.DeleteFunc(slices.Clone(text), func(s string) bool { return s == pe.Column })
		warnings = append(warnings, fmt.Sprintf("column %s left out: its cells are text with more than %d distinct labels, too many for a category column (an identifier or free text?); name the columns to read with --%s, or leave it out with --exclude %s", quoteShort(pe.Column), bound, flag, pe.Column))
	}
}

// maxTextRereads is how many text columns with too many labels the
// default selection leaves out one by one, each by a read again.
const maxTextRereads = 4

// idText returns the columns of text, among text, that t read as
// categories with distinct labels on more than half its rows (an
// identifier, a name: as a category it tells the rows apart and measures
// nothing), and a warning for each that says it is left out.
func idText(t *dataset.Table, text []string, flag string) (ids, warnings []string) {
	rows := 0
	for _, g := range t.Groups {
		rows += g.Len()
	}
	for i, name := range t.Columns {
		if t.Categories == nil || t.Categories[i] == nil || !slices.Contains(text, name) {
			continue
		}
		if n := len(t.Categories[i]); n > 1 && 2*n > rows {
			ids = append(ids, name)
			warnings = append(warnings, fmt.Sprintf("column %s left out: its %d text labels over %d rows nearly tell the rows apart, like an identifier; name the columns to read with --%s, or leave it out with --exclude %s", quoteShort(name), n, rows, flag, name))
		}
	}
	return ids, warnings
}
