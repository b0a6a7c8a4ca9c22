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

// TestPlaceLevels checks bestLevelSplit against the cost of the two sides
// computed afresh at every row (two columns of weighted noise, a step of 1
// in one), and placeLevels: a divergence change 9 rows after a step of 2
// moves onto it (within a row), a spread change and a divergence change
// where no level changes stay, and a neighbour bounds the move.
func TestPlaceLevels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 300
	newCol := func(step float64, at int) stepColumn {
		col := stepColumn{y: make([]float64, n), w: make([]float64, n), trend: make([]float64, n)}
		for r := range n {
			col.y[r] = rng.NormFloat64()
			col.w[r] = 0.5 + rng.Float64()
			if r >= at {
				col.y[r] += step
			}
		}
		return col
	}
	cols := []stepColumn{newCol(1, 150), newCol(0, 0)}
	cost := func(a, b int) float64 {
		total := 0.0
		for _, col := range cols {
			var s levelSums
			for r := a; r < b; r++ {
				s.add(col, r, 1)
			}
			total += s.cost()
		}
		return total
	}
	a, lo, hi, b := 20, 100, 200, 280
	at, gain := bestLevelSplit(cols, a, lo, hi, b)
	want, wantAt := math.Inf(1), 0
	for r := lo; r <= hi; r++ {
		if v := cost(a, r) + cost(r, b); v < want {
			want, wantAt = v, r
		}
	}
	if at != wantAt || math.Abs(gain-(cost(a, b)-want)) > 1e-9*cost(a, b) {
		t.Errorf("bestLevelSplit: row %d gain %g, want row %d gain %g", at, gain, wantAt, cost(a, b)-want)
	}

	cols = []stepColumn{newCol(2, 150)}
	penalty := stepsPenaltyPerParam * 2 * math.Log(n)
	keep := []Change{{Time: 60, Rule: RuleDivergence}, {Time: 159, Rule: RuleDivergence}, {Time: 230, Rule: RuleSpread}}
	if err := placeLevels(context.Background(), keep, nil, cols, n, 25, penalty); err != nil {
		t.Fatal(err)
	}
	if keep[0].Time != 60 || keep[2].Time != 230 || keep[1].Time < 149 || keep[1].Time > 151 {
		t.Errorf("placeLevels: %v, want 60, 150 ± 1, 230", keep)
	}
	// A change found 4 rows after the divergence change bounds it: it may
	// move only to 3 rows short of that one.
	keep = []Change{{Time: 159, Rule: RuleDivergence}}
	if err := placeLevels(context.Background(), keep, []Change{{Time: 155}}, cols, n, 25, penalty); err != nil {
		t.Fatal(err)
	}
	if keep[0].Time < 158 {
		t.Errorf("placeLevels moved the change to %d, before its neighbour at 155 + %d", keep[0].Time, stepsMinSeg)
	}
}
