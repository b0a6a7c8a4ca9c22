// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"math"
	"testing"
)

// TestLegendreRows checks the blocked basis of the trend fit against the
// recurrence evaluated one row at a time, written here (the form it
// replaced): the same bits at every row and degree, on lengths that end
// inside a block and on a block's edge, every degree count, and a break
// out of the loop; and the closed forms P₂ = (3t² − 1)/2 and
// P₃ = (5t³ − 3t)/2 to within a few rounding errors.
func TestLegendreRows(t *testing.T) {
	rowByRow := func(i, n, k int) []float64 {
		basis := make([]float64, k)
		x := 2*float64(i)/float64(n-1) - 1
		basis[0] = 1
		if k > 1 {
			basis[1] = x
		}
		for j := 2; j < k; j++ {
			basis[j] = (float64(2*j-1)*x*basis[j-1] - float64(j-1)*basis[j-2]) / float64(j)
		}
		return basis
	}
	for _, n := range []int{2, 10, legendreBlock, legendreBlock + 1, 3*legendreBlock - 5, 1001} {
		for k := 1; k <= stepsMaxDegree+1; k++ {
			seen := 0
			for i, basis := range legendreRows(n, k) {
				if i != seen {
					t.Fatalf("n=%d k=%d: row %d yielded as %d", n, k, seen, i)
				}
				seen++
				want := rowByRow(i, n, k)
				if len(basis) != k {
					t.Fatalf("n=%d k=%d row %d: %d terms", n, k, i, len(basis))
				}
				for j := range k {
					if math.Float64bits(basis[j]) != math.Float64bits(want[j]) {
						t.Fatalf("n=%d k=%d row %d degree %d: %v, row by row %v", n, k, i, j, basis[j], want[j])
					}
				}
				if k > 3 {
					x := basis[1]
					if p2 := (3*x*x - 1) / 2; math.Abs(basis[2]-p2) > 4e-16 {
						t.Errorf("n=%d row %d: P₂ %v, closed form %v", n, i, basis[2], p2)
					}
					if p3 := (5*x*x*x - 3*x) / 2; math.Abs(basis[3]-p3) > 8e-16 {
						t.Errorf("n=%d row %d: P₃ %v, closed form %v", n, i, basis[3], p3)
					}
				}
			}
			if seen != n {
				t.Fatalf("n=%d k=%d: %d rows", n, k, seen)
			}
		}
	}
	count := 0
	for i := range legendreRows(1000, 5) {
		count++
		if i == 100 {
			break
		}
	}
	if count != 101 {
		t.Errorf("break at row 100: %d rows yielded", count)
	}
}
