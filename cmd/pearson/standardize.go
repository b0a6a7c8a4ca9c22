// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/internal/spread"
)

// affine is the transform of each column by its robust scale
// (spread.Scale: x ↦ (x/Pow2 − median)/(1.4826·MAD), see standardize);
// category columns are left as they are (rule spreadCategory).
type affine struct {
	cols []spread.Scale
}

// spreadCategory is the rule of a column of category codes: left as it is
// (the delta kernel has no scale).
const spreadCategory spread.Rule = "category"

// apply transforms a row in place (spread.Scale.Apply: a value beyond
// ±maxMagnitude after the transform is held there).
func (a *affine) apply(row []float64) {
	if a == nil {
		return
	}
	for j := range row {
		row[j] = a.cols[j].Apply(row[j])
	}
}

// spreads returns each column's spread in the units of the data, what a
// standardised unit is worth.
func (a *affine) spreads() []float64 {
	out := make([]float64, len(a.cols))
	for j, s := range a.cols {
		out[j] = s.Units()
	}
	return out
}

// describe says what was done, for the output's "scaled" key:
// "(x − median)/(1.4826·MAD) per column", naming the columns that fell
// back on another spread (names are the columns' names).
func (a *affine) describe(names []string) string {
	return describeScales(names, a.cols)
}

// describeScales is describe of the scales of the columns names.
func describeScales(names []string, scales []spread.Scale) string {
	s := spread.Formula + " per column"
	for j, c := range scales {
		switch {
		case c.Rule == spreadCategory:
			s += fmt.Sprintf("; %s: categories, not scaled", quoteShort(names[j]))
		case c.Rule.Fallback() != "":
			s += fmt.Sprintf("; %s: %s", quoteShort(names[j]), c.Rule.Fallback())
		}
	}
	return s
}

// standardize scales each column of the matrices, in place, by a robust
// centre and spread of their rows pooled (spread.Of), and returns the
// transform:
//
//	x ↦ (x − median) / (1.4826·MAD),
//
// the median absolute deviation from the median, which is the standard
// deviation for normal data and which neither one outlier nor a minority of
// repeated values can break, with spread.Of's fallbacks (IQR/1.349, the
// standard deviation, a constant column only centred). O(n log n) per
// column in the rows kept, which are at most the reservoir unless every
// row is asked for.
func standardize(xs ...*mat.Dense) *affine { return standardizeExcept(nil, xs...) }

// standardizeExcept is standardize but for the columns cats, which hold
// category codes and are left as they are (the delta kernel has no scale).
func standardizeExcept(cats []int, xs ...*mat.Dense) *affine {
	_, cols := xs[0].Dims()
	total := 0
	for _, x := range xs {
		r, _ := x.Dims()
		total += r
	}
	a := &affine{cols: make([]spread.Scale, cols)}
	v := make([]float64, 0, total)
	for j := range cols {
		if slices.Contains(cats, j) {
			a.cols[j] = spread.Identity
			a.cols[j].Rule = spreadCategory
			continue
		}
		v = v[:0]
		for _, x := range xs {
			r, _ := x.Dims()
			for i := range r {
				v = append(v, x.At(i, j))
			}
		}
		a.cols[j] = spread.Of(v)
	}
	for _, x := range xs {
		r, _ := x.Dims()
		for i := range r {
			a.apply(x.RawRowView(i))
		}
	}
	return a
}

// standardizeFlag is --standardize: on by default, for the estimates that
// take several columns at once.
func standardizeFlag() cli.Flag {
	return &cli.BoolFlag{Name: "standardize", Value: true, Usage: "scale each column by its median and median absolute deviation (pooled over both samples) before estimating, so that no column dominates the kernel distances for being in larger units; on by default where an estimate takes several columns at once (a single column is left as it is unless --standardize is given, and a fixed --sigma is then in standardised units); --standardize=false turns it off"}
}

// standardizes reports whether a set of cols columns is standardised:
// always with --standardize given, never with --standardize=false, and by
// default when there are several.
func standardizes(c *cli.Context, cols int) bool {
	if c.IsSet("standardize") {
		return c.Bool("standardize")
	}
	return cols > 1
}

// minIDRows is the fewest rows on which a column of distinct integers is
// taken for an identifier.
const minIDRows = 20

// idLike reports whether column j of x looks like a row identifier
// (idLikeValues of its values).
func idLike(x *mat.Dense, j, pop int) bool {
	return idLikeValues(mat.Col(nil, j, x), pop)
}

// idLikeValues reports whether the values v of a column look like a row
// identifier: distinct integers on every row, at least minIDRows of them,
// and either increasing in the order kept or spanning less than twice the
// rows of the data set (pop): numbers that label rows rather than measure
// anything, and that tell every row apart in the kernel. A missing value
// (NaN) is not an integer: such a column is not taken for one.
func idLikeValues(v []float64, pop int) bool {
	r := len(v)
	if r < minIDRows {
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

// idWarning is the warning about a column (name) that looks like a row
// identifier: what it does where it is used (why), and what to do.
func idWarning(name, why string) string {
	return fmt.Sprintf("column %s holds distinct integers on every row, like a row identifier: %s; leave it out with --exclude %s", quoteShort(name), why, name)
}

// idWarnings returns a warning for each column (names) that looks like a
// row identifier (idLike) in one of the samples, with what to do.
func idWarnings(names []string, samples ...sample) []string {
	var w []string
	for j, name := range names {
		for _, s := range samples {
			if idLike(s.x, j, s.rows) {
				w = append(w, idWarning(name, "as a feature it tells every row apart and measures nothing"))
				break
			}
		}
	}
	return w
}

// excludeFlag is --exclude, beside --columns (or --features).
func excludeFlag(of string) cli.Flag {
	return &cli.StringFlag{Name: "exclude", Usage: fmt.Sprintf("comma-separated `COLS` to leave out of %s (an identifier, say)", of)}
}

// excludeListed returns the columns named less those excluded; each
// excluded column must be among them.
func excludeListed(c *cli.Context, columns, exclude []string, flag string) ([]string, error) {
	for _, e := range exclude {
		if !slices.Contains(columns, e) {
			return nil, usagef(c, "--exclude %s: not among the columns of --%s", quoteShort(e), flag)
		}
	}
	return slices.DeleteFunc(slices.Clone(columns), func(s string) bool { return slices.Contains(exclude, s) }), nil
}

// keptColumns returns the columns (names, the default selection read) less
// those excluded, and an error naming an excluded column that is neither
// among them nor among the columns the default selection left out
// (skipped).
func keptColumns(file string, names, exclude []string, skipped []dataset.Skipped) ([]string, error) {
	others := make([]string, len(skipped))
	for i, s := range skipped {
		others[i] = s.Column
	}
	for _, e := range exclude {
		if !slices.Contains(names, e) && !slices.Contains(others, e) {
			return nil, fmt.Errorf("%s: --exclude %s: no such column (its columns: %s)", file, quoteShort(e), strings.Join(quoteAll(append(slices.Clone(names), others...)), ", "))
		}
	}
	keep := slices.DeleteFunc(slices.Clone(names), func(s string) bool { return slices.Contains(exclude, s) })
	if len(keep) == 0 {
		return nil, fmt.Errorf("%s: --exclude leaves no column", file)
	}
	return keep, nil
}
