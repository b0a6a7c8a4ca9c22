// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// MaxCategories is the most distinct categories a column marked by
// Categorical may hold: its codes are the integers 0, …, MaxCategories−1.
const MaxCategories = 100

// Categorical marks the columns of a matrix that hold category codes (the
// integers 0, …, MaxCategories−1, as ClassCodes numbers class labels)
// rather than numbers, for every estimator: RelativePE, TwoSampleTest,
// LSMI, IndependenceTest and Rank, on either argument. A Subsample may wrap
// a Categorical, or the other way round. The kernel is then the product of
// the Gaussian on the numeric columns u and the delta kernel on the
// categories c,
//
//	k((u, c), (u', c')) = exp(−‖u − u'‖²/(2σ²)) · 1[c = c'],
//
// so that, for example, with P and Q mixtures over the categories,
//
//	PE_α(P‖Q) = ½ Σ_c ∫ q_α(u, c) (p(u, c)/q_α(u, c) − 1)² du.
//
// The delta kernel is the one a class-label target has (ClassSigma): the
// Gaussian on codes far apart. A category coordinate is read as its code
// times categorySpacing in internal units, where the widths the
// cross-validation tries are at most 256 (or a fixed width, 1): the
// Gaussian between two different categories is then exp(−s²/(2σ²)) with
// s/σ ≥ 64, which is 0 in floating point, and 1 between equal ones.
// Category columns are left out of the median heuristic (a matrix of
// categories only has scale 1) and of the per-column width factors.
type Categorical struct {
	mat.Matrix
	// Columns are the indices of the category columns, each once.
	Columns []int
}

// categorySpacing is the distance, in internal units, between the
// coordinates of consecutive category codes: a power of two, so that codes
// times it are exact, and 64 times the widest width the cross-validation
// tries (256 internal units), so that the Gaussian between two categories
// underflows to 0 (exp(−2048)).
const categorySpacing = 1 << 14

// unwrapCategorical returns the matrix inside a Categorical and its
// category columns as a mask (nil when x is not a Categorical), after
// checking them against the dim columns.
func unwrapCategorical(name string, x mat.Matrix) (mat.Matrix, []bool, error) {
	c, ok := x.(Categorical)
	if !ok {
		return x, nil, nil
	}
	if c.Matrix == nil {
		return nil, nil, fmt.Errorf("divergence: %w: %s is nil", ErrTooFew, name)
	}
	_, dim := c.Matrix.Dims()
	if s, ok := c.Matrix.(Subsample); ok && s.Matrix != nil {
		_, dim = s.Matrix.Dims()
	}
	mask := make([]bool, dim)
	for _, j := range c.Columns {
		if j < 0 || j >= dim || mask[j] {
			return nil, nil, fmt.Errorf("divergence: %w: %s: category column %d: want distinct columns from 0 to %d", ErrSettings, name, j, dim-1)
		}
		mask[j] = true
	}
	return c.Matrix, mask, nil
}

// categoryCoordinate returns the internal coordinate of the category code v
// in row, column of the sample name, or an error when v is not a code.
func categoryCoordinate(name string, row, column int, v float64) (float64, error) {
	if v != math.Trunc(v) || v < 0 || v >= MaxCategories {
		return 0, fmt.Errorf("divergence: %w: %s: row %d, column %d is %v, not a category code (an integer from 0 to %d)", ErrSettings, name, row, column, v, MaxCategories-1)
	}
	return v * categorySpacing, nil
}

// withoutCategories returns the view of the same rows with category
// columns read as 0, for the median heuristic of the numeric columns.
func (p *points) withoutCategories() *points {
	c := *p
	c.numericOnly = true
	return &c
}

// allCategorical reports whether every column of p is a category.
func (p *points) allCategorical() bool {
	return p.cats != nil && !slices.Contains(p.cats, false)
}

// isCategory reports whether column j of p is a category.
func (p *points) isCategory(j int) bool { return p.cats != nil && p.cats[j] }

// columnCategorical marks column j of features, extracted as col, as a
// category when features marks it so.
func columnCategorical(features mat.Matrix, j int, col mat.Matrix) mat.Matrix {
	if s, ok := features.(Subsample); ok {
		features = s.Matrix
	}
	if c, ok := features.(Categorical); ok && slices.Contains(c.Columns, j) {
		return Categorical{Matrix: col, Columns: []int{0}}
	}
	return col
}

// withoutCategorical returns features without its Categorical mark (keeping
// a Subsample around it).
func withoutCategorical(features mat.Matrix) mat.Matrix {
	if s, ok := features.(Subsample); ok {
		if c, ok := s.Matrix.(Categorical); ok {
			s.Matrix = c.Matrix
		}
		return s
	}
	if c, ok := features.(Categorical); ok {
		return c.Matrix
	}
	return features
}
