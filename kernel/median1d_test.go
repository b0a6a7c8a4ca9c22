// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestMedianOneColumnSame checks the one-column path of MedianHeuristic
// (medianOneColumn) against the pairwise list, bit for bit: the same points
// with a zero second column take the general path, whose distances are the
// same numbers. Normal, rounded (ties), two-valued (the median of the
// pairs that differ), huge and constant columns.
func TestMedianOneColumnSame(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 2 + rnd.IntN(300)
		v := make([]float64, n)
		for i := range v {
			switch trial % 4 {
			case 0:
				v[i] = rnd.NormFloat64()
			case 1:
				v[i] = math.Round(rnd.NormFloat64())
			case 2:
				v[i] = float64(rnd.IntN(2))
			default:
				v[i] = rnd.NormFloat64() * 1e300
			}
		}
		if trial == 7 {
			for i := range v {
				v[i] = 1
			}
		}
		x := mat.NewDense(n, 1, v)
		// the general path: two columns, second zero
		x2 := mat.NewDense(n, 2, nil)
		for i := range v {
			x2.Set(i, 0, v[i])
		}
		a, ea := MedianHeuristic(x, 0, nil)
		b, eb := MedianHeuristic(x2, 0, nil)
		if a != b || (ea == nil) != (eb == nil) {
			t.Fatalf("trial %d n %d: %v %v vs %v %v", trial, n, a, ea, b, eb)
		}
	}
}
