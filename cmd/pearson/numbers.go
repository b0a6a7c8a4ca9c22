// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/spread"
)

// maxMagnitude bounds the values the estimators take: kernel widths reach
// 64 times the median distance (cross-validation widens its grid so far),
// and a distance is up to 2√d times the largest value, so that beyond about
// 1e300 a width, and the σ printed, would overflow to +Inf. It is the bound
// the robust column scale holds its values within (spread.MaxMagnitude).
const maxMagnitude = spread.MaxMagnitude

// checkMagnitude returns an error naming the first value of the samples
// beyond ±maxMagnitude, with the way out: --standardize, which scales the
// columns first, or rescaling the column.
func checkMagnitude(samples ...mat.Matrix) error {
	for s, x := range samples {
		r, c := x.Dims()
		for j := range c {
			for i := range r {
				if v := x.At(i, j); math.Abs(v) > maxMagnitude {
					return fmt.Errorf("sample %d, column %d holds %g: values beyond ±%g make the kernel widths overflow; use --standardize, or rescale the column", s+1, j+1, v, maxMagnitude)
				}
			}
		}
	}
	return nil
}

// noValue is a value that does not exist: "n/a" in text, null in JSON, an
// empty cell in CSV.
type noValue struct{}

// MarshalJSON writes null.
func (noValue) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

// notComputed is a number that was not computed (a p-value of a column
// not tested): "-" in text, null in JSON, an empty cell in CSV.
type notComputed struct{}

// MarshalJSON writes null.
func (notComputed) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

// oneDrawWarning is the warning of an estimate from one draw.
const oneDrawWarning = "one draw gives no standard error: use --draws 2 or more for one"

// withoutStdErr replaces the standard errors of res by noValue, with a
// warning: the spread of a single draw is unknown (0 as computed), and the
// standard error without it would understate the error.
func withoutStdErr(res result) {
	mark := func(r *record) {
		for i, k := range r.keys {
			switch k {
			case "stderr", "draw_stderr":
				r.vals[i] = noValue{}
			case "warnings":
				if w, ok := r.vals[i].([]string); ok {
					r.vals[i] = append(w, oneDrawWarning)
				}
			}
		}
	}
	switch r := res.(type) {
	case *record:
		mark(r)
	case *table:
		for _, row := range r.rows {
			mark(row)
		}
	}
}
