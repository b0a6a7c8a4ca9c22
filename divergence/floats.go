// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Column returns the 1-D sample v as an n×1 matrix, one value per row,
// without copying, for the estimators' samples:
//
//	divergence.RelativePE(ctx, divergence.Column(p), divergence.Column(q), divergence.DefaultAlpha, nil)
//
// An empty v gives an empty matrix, which the estimators refuse with
// ErrTooFew.
func Column(v []float64) mat.Matrix {
	if len(v) == 0 {
		return &mat.Dense{}
	}
	return mat.NewVecDense(len(v), v)
}

// Rows returns the points as an n×d matrix, one point per row, copying
// them. No points, or points of no values, give an empty matrix, which the
// estimators refuse with ErrTooFew. Points of different lengths are data
// gone wrong, not a misuse: they give an empty matrix that the estimators
// refuse with an error wrapping ErrDimension, naming the first point whose
// length differs from the first point's.
func Rows(points [][]float64) mat.Matrix {
	if len(points) == 0 || len(points[0]) == 0 {
		return &mat.Dense{}
	}
	d := len(points[0])
	for i, p := range points {
		if len(p) != d {
			return &raggedRows{Dense: &mat.Dense{}, msg: fmt.Sprintf("point %d has %d values, point 0 has %d", i, len(p), d)}
		}
	}
	m := mat.NewDense(len(points), d, nil)
	for i, p := range points {
		m.SetRow(i, p)
	}
	return m
}

// raggedRows is what Rows returns for points of different lengths: an
// empty matrix carrying the reason, which newPoints turns into an error.
type raggedRows struct {
	*mat.Dense
	msg string
}
