// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPeltCoarse checks PELT on blocks (peltCoarse, from peltCoarseRows
// rows on) against PELT over every row (peltSearch, the capped search of
// shorter segments) on 120 000 rows of unit noise: with changes of 0.5,
// −0.3 and 1 standard deviations, a bump of 2 over 30 rows, and none; the
// same changes at the same rows, and the same penalised cost to rounding.
func TestPeltCoarse(t *testing.T) {
	const n = 120000
	penalty := stepsPenaltyPerParam * 2 * math.Log(n)
	for _, tc := range []struct {
		name  string
		steps [][2]float64 // from row, add
	}{
		{"changes", [][2]float64{{20000, 0.5}, {50000, -0.3}, {80000, 2}, {80030, -2}, {100005, 1}}},
		{"none", nil},
	} {
		rng := rand.New(rand.NewPCG(5, 6))
		col := stepColumn{y: make([]float64, n), w: make([]float64, n), trend: make([]float64, n)}
		level := 0.0
		k := 0
		for r := range n {
			for k < len(tc.steps) && int(tc.steps[k][0]) == r {
				level += tc.steps[k][1]
				k++
			}
			col.y[r], col.w[r] = level+rng.NormFloat64(), 1
		}
		cols := []stepColumn{col}
		got, _, gotCost, err := pelt(context.Background(), cols, 0, n, penalty)
		if err != nil {
			t.Fatal(err)
		}
		pw, pz, pq := make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)
		for i := range n {
			pw[i+1], pz[i+1], pq[i+1] = pw[i]+1, pz[i]+col.y[i], pq[i]+col.y[i]*col.y[i]
		}
		F, last := make([]float64, n+1), make([]int, n+1)
		F[0] = -penalty
		if err := peltSearch(context.Background(), [][]float64{pw}, [][]float64{pz}, [][]float64{pq}, F, last, penalty, stepsMinSeg); err != nil {
			t.Fatal(err)
		}
		var want []int
		for r := last[n]; r > 0; r = last[r] {
			want = append(want, r)
		}
		slices.Reverse(want)
		if !slices.Equal(got, want) || math.Abs(gotCost-F[n]) > 1e-9*math.Abs(F[n]) {
			t.Errorf("%s: on blocks %v (cost %.6f), over every row %v (cost %.6f)", tc.name, got, gotCost, want, F[n])
		}
		if tc.name == "changes" && len(want) != len(tc.steps) {
			t.Errorf("%s: over every row %v: the case does not hold %d changes", tc.name, want, len(tc.steps))
		}
	}
}

// TestSegmentMemory checks the model of Segment's memory: nil settings
// are the defaults', it grows with the rows and the columns, by the
// measured floats per row (8·(4.5·d + 4.5) bytes at d columns).
func TestSegmentMemory(t *testing.T) {
	var none *SegmentSettings
	if a, b := none.Memory(1000, 1), (&SegmentSettings{}).Memory(1000, 1); a != b || !(a > 0) {
		t.Fatalf("nil settings %g, zero settings %g", a, b)
	}
	for _, d := range []int{1, 3} {
		per := 8 * (segmentValueFloats*float64(d) + segmentRowFloats)
		got := none.Memory(2_000_000, d) - none.Memory(1_000_000, d)
		if math.Abs(got-1e6*per) > 1e-9*got {
			t.Errorf("%d columns: 10⁶ more rows add %g bytes, want %g", d, got, 1e6*per)
		}
	}
	if !(none.Memory(1000, 3) > none.Memory(1000, 1)) {
		t.Error("three columns need no more than one")
	}
}
