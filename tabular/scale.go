// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package tabular

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/spread"
)

// Scaling is the transform of each column by its robust scale
// (x ↦ (x/Pow2 − median)/(1.4826·MAD), see Standardize); category columns
// are left as they are (rule SpreadCategory). A nil *Scaling leaves rows
// as they are.
type Scaling struct {
	// Cols is the scale of each column.
	Cols []spread.Scale
}

// SpreadCategory is the rule of a column of category codes: left as it is
// (the delta kernel has no scale).
const SpreadCategory spread.Rule = "category"

// ScaledByDefault reports whether a set of cols columns is standardised
// when the caller does not say: when there are several, so that no column
// dominates the kernel distances for being in larger units; a single
// column is left in its units.
func ScaledByDefault(cols int) bool { return cols > 1 }

// Apply transforms a row in place (spread.Scale.Apply: a value beyond
// ±spread.MaxMagnitude after the transform is held there).
func (a *Scaling) Apply(row []float64) {
	if a == nil {
		return
	}
	for j := range row {
		row[j] = a.Cols[j].Apply(row[j])
	}
}

// Spreads returns each column's spread in the units of the data, what a
// standardised unit is worth.
func (a *Scaling) Spreads() []float64 {
	out := make([]float64, len(a.Cols))
	for j, s := range a.Cols {
		out[j] = s.Units()
	}
	return out
}

// Describe says what was done, for an output's "scaled" key:
// "(x − median)/(1.4826·MAD) per column", naming the columns (names) that
// fell back on another spread or hold categories.
func (a *Scaling) Describe(names []string) string {
	return DescribeScales(names, a.Cols)
}

// DescribeScales is Describe of the scales of the columns names.
func DescribeScales(names []string, scales []spread.Scale) string {
	s := spread.Formula + " per column"
	for j, c := range scales {
		switch {
		case c.Rule == SpreadCategory:
			s += fmt.Sprintf("; %s: categories, not scaled", Quote(names[j]))
		case c.Rule.Fallback() != "":
			s += fmt.Sprintf("; %s: %s", Quote(names[j]), c.Rule.Fallback())
		}
	}
	return s
}

// Standardize scales each column of the matrices xs, in place, but for the
// columns cats (category codes, left as they are), by a robust centre and
// spread of their rows pooled (spread.Of), and returns the transform:
//
//	x ↦ (x − median) / (1.4826·MAD),
//
// the median absolute deviation from the median, which is the standard
// deviation for normal data and which neither one outlier nor a minority of
// repeated values can break, with spread.Of's fallbacks (IQR/1.349, the
// standard deviation, a constant column only centred). O(n log n) per
// column in the rows. The matrices must have the same columns.
func Standardize(cats []int, xs ...*mat.Dense) *Scaling {
	_, cols := xs[0].Dims()
	total := 0
	for _, x := range xs {
		r, _ := x.Dims()
		total += r
	}
	a := &Scaling{Cols: make([]spread.Scale, cols)}
	v := make([]float64, 0, total)
	for j := range cols {
		if slices.Contains(cats, j) {
			a.Cols[j] = spread.Identity
			a.Cols[j].Rule = SpreadCategory
			continue
		}
		v = v[:0]
		for _, x := range xs {
			r, _ := x.Dims()
			for i := range r {
				v = append(v, x.At(i, j))
			}
		}
		a.Cols[j] = spread.Of(v)
	}
	for _, x := range xs {
		r, _ := x.Dims()
		for i := range r {
			a.Apply(x.RawRowView(i))
		}
	}
	return a
}
