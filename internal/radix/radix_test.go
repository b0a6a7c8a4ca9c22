// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package radix

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAgainstComparisonSorts checks Floats against slices.Sort and Order
// against a stable sort by cmp.Compare on columns of ties, both zeros,
// negative, subnormal and infinite values, with and without a NaN, at
// lengths on both sides of the comparison sort's threshold.
func TestAgainstComparisonSorts(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 1))
	draw := func() float64 {
		switch rnd.IntN(10) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return math.Round(rnd.NormFloat64() * 3) // ties
		case 3:
			return []float64{math.Inf(1), math.Inf(-1), 5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64}[rnd.IntN(6)]
		}
		return rnd.NormFloat64() * math.Exp(rnd.NormFloat64()*20)
	}
	for _, n := range []int{0, 1, 7, small - 1, small, 1000, 40_000} {
		for _, nan := range []bool{false, true} {
			v := make([]float64, n)
			for i := range v {
				v[i] = draw()
			}
			if nan && n > 0 {
				v[rnd.IntN(n)] = math.NaN()
			}
			want := slices.Clone(v)
			slices.Sort(want)
			got := slices.Clone(v)
			Floats(got)
			for i := range got {
				if !(got[i] == want[i] || math.IsNaN(got[i]) && math.IsNaN(want[i])) {
					t.Fatalf("n %d, NaN %v: Floats at %d: %v, slices.Sort %v", n, nan, i, got[i], want[i])
				}
			}
			wantOrder := make([]int, n)
			for i := range wantOrder {
				wantOrder[i] = i
			}
			slices.SortStableFunc(wantOrder, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
			if o := Order(v); !slices.Equal(o, wantOrder) {
				t.Fatalf("n %d, NaN %v: Order differs from a stable sort", n, nan)
			}
		}
	}
}
