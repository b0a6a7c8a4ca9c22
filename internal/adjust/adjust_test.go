// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package adjust

import (
	"math"
	"testing"
)

// TestAgainstDefinitions checks both adjustments against their definitions
// evaluated term by term (every j, not a running extreme), on p-values with
// ties and a NaN.
func TestAgainstDefinitions(t *testing.T) {
	p := []float64{0.04, 0.001, math.NaN(), 0.03, 0.04, 0.5, 0.012}
	// The non-NaN values in increasing order, ties in index order.
	order := []int{1, 6, 3, 0, 4, 5}
	m := float64(len(order))
	bh, holm := BenjaminiHochberg(p), Holm(p)
	for i, at := range order {
		wantBH := math.Inf(1)
		for j := i; j < len(order); j++ {
			wantBH = math.Min(wantBH, math.Min(1, m*p[order[j]]/float64(j+1)))
		}
		wantHolm := 0.0
		for j := 0; j <= i; j++ {
			wantHolm = math.Max(wantHolm, math.Min(1, (m-float64(j))*p[order[j]]))
		}
		if math.Abs(bh[at]-wantBH) > 1e-15 || math.Abs(holm[at]-wantHolm) > 1e-15 {
			t.Errorf("p[%d] = %v: BH %v, want %v; Holm %v, want %v", at, p[at], bh[at], wantBH, holm[at], wantHolm)
		}
	}
	if !math.IsNaN(bh[2]) || !math.IsNaN(holm[2]) {
		t.Error("a NaN p-value was adjusted")
	}
	if math.IsNaN(p[0]) || p[1] != 0.001 {
		t.Error("the input changed")
	}
}
