// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// affine is the transform x ↦ (x/scale − mean)/sd of each column; scale
// is a power of two, 1 unless the column holds values beyond ±hugeValue,
// so that x/scale is exact and x/scale − mean cannot overflow.
type affine struct{ scale, mean, sd []float64 }

// hugeValue is the magnitude from which standardize first divides a
// column by a power of two: a difference of two values then overflows.
const hugeValue = 0x1p1000

// apply transforms a row in place.
func (a *affine) apply(row []float64) {
	if a == nil {
		return
	}
	for j := range row {
		row[j] = (row[j]/a.scale[j] - a.mean[j]) / a.sd[j]
	}
}

// standardize scales each column of the matrices, in place, to zero mean
// and unit variance, with the mean and variance of their rows pooled, and
// returns the transform; a constant column is only centred. Two passes, the
// second scaled by the largest deviation, so that values near ±1e300
// neither overflow nor lose the variance.
func standardize(xs ...*mat.Dense) *affine {
	_, cols := xs[0].Dims()
	a := &affine{scale: make([]float64, cols), mean: make([]float64, cols), sd: make([]float64, cols)}
	scale := 1.0
	each := func(j int, f func(v float64)) {
		for _, x := range xs {
			r, _ := x.Dims()
			for i := range r {
				f(x.At(i, j) / scale)
			}
		}
	}
	for j := range cols {
		scale = 1
		var top float64
		each(j, func(v float64) { top = math.Max(top, math.Abs(v)) })
		if top > hugeValue {
			_, e := math.Frexp(top)
			scale = math.Ldexp(1, e-1) // |x|/scale < 2
		}
		a.scale[j] = scale
		var n, mean, big float64
		each(j, func(v float64) { n++; mean += (v - mean) / n })
		each(j, func(v float64) { big = math.Max(big, math.Abs(v-mean)) })
		sd := 1.0
		if big > 0 {
			ss := 0.0
			each(j, func(v float64) { d := (v - mean) / big; ss += d * d })
			sd = big * math.Sqrt(ss/n)
		}
		a.mean[j], a.sd[j] = mean, sd
	}
	for _, x := range xs {
		r, _ := x.Dims()
		for i := range r {
			a.apply(x.RawRowView(i))
		}
	}
	return a
}
