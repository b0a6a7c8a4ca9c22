// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package summary summarises repeated estimates by their mean and the
// standard error of the mean, without overflow whatever their magnitude.
//
// gonum's stat.MeanStdDev computes the same statistics, but squares the
// values as they are (so values near 1e300, which qmin's rescaling by n²/k²
// can produce, overflow to +Inf) and rounds differently (its compensated
// variance differs in the last bits for most inputs), which would change
// every reported standard error.
package summary

import "math"

// MeanStdErr returns the mean of v and its standard error s/√n, s the
// sample standard deviation (zero for fewer than two values). The values
// are scaled by their largest magnitude before squaring, so that values
// near ±1e300 give finite results; non-finite values give NaN.
func MeanStdErr(v []float64) (mean, stderr float64) {
	n := float64(len(v))
	if len(v) == 0 {
		return math.NaN(), math.NaN()
	}
	scale := 0.0
	for _, x := range v {
		scale = math.Max(scale, math.Abs(x))
	}
	if scale == 0 || math.IsInf(scale, 0) || math.IsNaN(scale) {
		if scale == 0 {
			return 0, 0
		}
		return math.NaN(), math.NaN()
	}
	m := 0.0
	for _, x := range v {
		m += x / scale
	}
	m /= n
	if len(v) < 2 {
		return m * scale, 0
	}
	ss := 0.0
	for _, x := range v {
		d := x/scale - m
		ss += d * d
	}
	return m * scale, scale * math.Sqrt(ss/(n-1)/n)
}
