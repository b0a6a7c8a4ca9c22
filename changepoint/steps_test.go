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

// TestAlternateFlatStart checks the shortcut of stepSegment against the
// alternation it skips: where the alternation from the trend fits degree 0
// in every column at its first round, the one from the levels, run here
// anyway, ends on the same changes, gains, cost and trends, bit for bit.
// The series: noise and a short bump (flat starts), levels with noise and
// levels on a parabola (a trend at the first fit, which the shortcut must
// not take), on one and two columns.
func TestAlternateFlatStart(t *testing.T) {
	ctx := context.Background()
	flatStarts, flatFound, trendStarts := 0, 0, 0
	for seed := range uint64(6) {
		rnd := rand.New(rand.NewPCG(seed, 36))
		n := 600 + 200*int(seed)
		for kind := range 4 {
			for _, d := range []int{1, 2} {
				cols := make([]stepColumn, d)
				for j := range cols {
					y := make([]float64, n)
					for i := range y {
						y[i] = rnd.NormFloat64()
						if kind == 1 || kind == 2 {
							if (i/(n/6))%2 == 1 {
								y[i] += 2
							}
						}
						if kind == 3 && i >= n/3 && i < n/3+25 {
							y[i] += 3
						}
						if kind == 2 {
							x := 2*float64(i)/float64(n) - 1
							y[i] += 6 * x * x
						}
					}
					w, ok := stepWeights(y)
					if !ok {
						t.Fatalf("seed %d: no weights", seed)
					}
					cols[j] = stepColumn{y: y, w: w, trend: make([]float64, n)}
				}
				grams := make([][]float64, d)
				for j, col := range cols {
					grams[j] = trendGram(col.w)
				}
				penalty := stepsPenaltyPerParam * float64(d+1) * math.Log(float64(n))
				run := func(levelsFirst bool) ([]Change, float64, bool, [][]float64) {
					var flat peltFit
					found, cost, flatStart, err := alternate(ctx, cols, grams, &flat, 0, n, penalty, levelsFirst)
					if err != nil {
						t.Fatal(err)
					}
					trends := make([][]float64, d)
					for j, col := range cols {
						trends[j] = slices.Clone(col.trend)
					}
					return found, cost, flatStart, trends
				}
				found, cost, flatStart, trends := run(false)
				if !flatStart {
					trendStarts++
					continue
				}
				flatStarts++
				if len(found) > 0 {
					flatFound++
				}
				found2, cost2, _, trends2 := run(true)
				if math.Float64bits(cost) != math.Float64bits(cost2) || !slices.EqualFunc(found, found2, func(a, b Change) bool {
					return a.Time == b.Time && math.Float64bits(a.Calibrated) == math.Float64bits(b.Calibrated) && a.Rule == b.Rule
				}) {
					t.Errorf("seed %d kind %d d %d: from the trend %v (cost %v), from the levels %v (cost %v)", seed, kind, d, found, cost, found2, cost2)
				}
				for j := range trends {
					if !slices.EqualFunc(trends[j], trends2[j], func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
						t.Errorf("seed %d kind %d d %d column %d: the trends differ", seed, kind, d, j)
					}
				}
			}
		}
	}
	if flatFound == 0 || trendStarts == 0 {
		t.Errorf("%d flat starts (%d with changes) and %d trended ones: both, with changes, must be exercised", flatStarts, flatFound, trendStarts)
	}
	t.Logf("%d flat starts (%d with changes), %d trended", flatStarts, flatFound, trendStarts)
}
