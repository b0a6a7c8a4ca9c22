// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package tabular

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
)

// Feature columns of text or booleans are categories: the reader reads the
// named feature columns as labels (dataset.Query.Labels: a CSV column whose
// first non-empty cell is not a number, a Parquet string or boolean
// column), holding codes of their labels, and the estimators score them
// with the delta kernel (divergence.Categorical), times the Gaussian on the
// numeric columns. A category column holds at most
// divergence.MaxCategories distinct labels, refused at the first beyond.

// CategoryColumns returns the indices, among names (columns of t), of the
// columns t read as text labels.
func CategoryColumns(t *dataset.Table, names []string) []int {
	if t.Categories == nil {
		return nil
	}
	var cats []int
	for j, name := range names {
		if i := slices.Index(t.Columns, name); i >= 0 && t.Categories[i] != nil {
			cats = append(cats, j)
		}
	}
	return cats
}

// Unify recodes the text columns of tq, the second table of a comparison,
// to the codes of the same labels in tp, the first (new labels after
// tp's), in tq's rows xq, so that one label has one code in both samples.
// It returns the category columns, or an error when a column is text in
// one table and numeric in the other, or holds more than
// divergence.MaxCategories labels over both.
func Unify(tp, tq *dataset.Table, xq *mat.Dense) ([]int, error) {
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
			if v := xq.At(i, j); !math.IsNaN(v) { // NaN: a missing label stays missing
				xq.Set(i, j, to[int(v)])
			}
		}
		cats = append(cats, j)
	}
	return cats, nil
}

// CategoryHint adds to err, a read's failure, what to do when a feature
// column (not one of targets) holds more labels than the read takes
// (bound). typeFlag names the flag of the targets' type ("target-type"
// for rank, "y-type" for mi; "" without targets), which the hint names
// the targets by.
func CategoryHint(err error, bound int, typeFlag string, targets ...string) error {
	var pe *dataset.ParseError
	if errors.As(err, &pe) && errors.Is(err, dataset.ErrTooManyLabels) && !slices.Contains(targets, pe.Column) {
		why := ""
		if bound < divergence.MaxCategories {
			role := "the target"
			if typeFlag == "y-type" {
				role = "the --y column"
			}
			why = fmt.Sprintf(" while %s %s may hold text class labels (%d categories otherwise: give --%s numeric)", role, strings.Join(QuoteAll(targets), ", "), divergence.MaxCategories, typeFlag)
		}
		return fmt.Errorf("%w: column %q is read as categories (its cells are text), and a category column holds at most %d distinct labels%s: leave it out, or recode it", err, pe.Column, bound, why)
	}
	return err
}

// The default selection (no named columns) takes the columns of text or
// booleans as categories too, as a named one is: a caller reads the
// default selection, finds the columns it left out for holding text
// (TextColumns) and, when there are some, reads again taking them as
// labels (ReadText), which leaves out with a warning a column with too many
// labels for a category column; TextIDs leaves out one whose labels nearly
// tell the rows apart (an identifier, a name): neither is taken silently.
// Data without text columns is read once.

// TextColumns returns the columns the default selection left out
// (skipped) that may be read as categories: those of text (or, in
// Parquet, of another type than numbers), less those excluded. A column
// with no name, or empty in every row, is not text.
func TextColumns(skipped []dataset.Skipped, exclude []string) []string {
	var text []string
	for _, s := range skipped {
		// Not text: a column with no name, one empty in every row (CSV:
		// no line, no value). A Parquet column (no line, its type as
		// value) of another type than text or booleans stays left out
		// by the second read.
		if s.Column == "" || s.Line == 0 && s.Value == "" || slices.Contains(exclude, s.Column) {
			continue
		}
		text = append(text, s.Column)
	}
	return text
}

// MaxTextRereads is how many text columns with too many labels ReadText
// leaves out one by one, each by a read again.
const MaxTextRereads = 4

// ReadText reads with read, which takes the columns text as categories,
// and, when a column of text holds more distinct labels than the read
// takes (bound), reads again without it, with a warning: the default
// selection does not stop on a column the user did not name; list is the
// flag that names columns (Selection.List).
//
// Each such column costs a read: after MaxTextRereads of them, the
// remaining text columns are left out together, with one warning.
func ReadText(text []string, list string, bound int, read func(text []string) (*dataset.Table, error)) (*dataset.Table, []string, error) {
	var warnings []string
	for {
		if len(warnings) == MaxTextRereads && len(text) > 0 {
			warnings = append(warnings, fmt.Sprintf("columns %s left out: after %d text columns with too many labels, the others are not tried; name the columns to read with --%s", strings.Join(QuoteAll(text), ", "), MaxTextRereads, list))
			text = nil
		}
		t, err := read(text)
		var pe *dataset.ParseError
		if err == nil || !errors.As(err, &pe) || !errors.Is(err, dataset.ErrTooManyLabels) || !slices.Contains(text, pe.Column) {
			return t, warnings, err
		}
		text = slices.DeleteFunc(slices.Clone(text), func(s string) bool { return s == pe.Column })
		warnings = append(warnings, fmt.Sprintf("column %s left out: its cells are text with more than %d distinct labels, too many for a category column (an identifier or free text?); name the columns to read with --%s, or leave it out with --exclude %s", Quote(pe.Column), bound, list, pe.Column))
	}
}
