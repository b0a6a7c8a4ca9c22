// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sublinear/pearson/internal/testtier"
)

// TestTallyAgainstExact checks a Tally of 10⁵ values against the
// statistics of the values themselves: its moments against gonum's
// and its distances to the centre against gonum's (relative 1e-9: sums
// about the centre against two passes), its bucketed search of the
// cuts against sort's, its binned
// Kolmogorov–Smirnov distance against the exact D of the reference KS
// test (never above it, and below it by at most the largest bin's
// share, the grid's resolution), its p-value at or above the exact one
// (binning makes the test conservative), and Kolmogorov's tail at its
// tabulated 5% point, 1.3581 (Q = 0.0500).
func TestTallyAgainstExact(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 5))
	const n = 100_000
	ref, cur := make([]float64, n), make([]float64, n)
	for i := range ref {
		ref[i], cur[i] = rnd.NormFloat64(), rnd.NormFloat64()*1.01+0.01
	}
	sample := Column{Values: ref[:20_000]}
	tr, tc := NewTally(sample), NewTally(sample).Like()
	for i := range ref {
		tr.Add(ref[i])
		tc.Add(cur[i])
	}
	tr.Add(math.NaN())
	if r, m := tr.Rows(); r != n+1 || m != 1 {
		t.Errorf("rows %d, missing %d, want %d and 1", r, m, n+1)
	}
	mean, sd := stat.MeanStdDev(cur, nil)
	tm, tm2, tabs, tabsM2 := tc.moments()
	if math.Abs(tm-mean) > 1e-9*sd || math.Abs(math.Sqrt(tm2/(n-1))-sd) > 1e-9*sd {
		t.Errorf("tally mean %v sd %v, two passes %v %v", tm, math.Sqrt(tm2/(n-1)), mean, sd)
	}
	dist := make([]float64, len(cur))
	for i, x := range cur {
		dist[i] = math.Abs(x - tc.centre)
	}
	am, asd := stat.MeanStdDev(dist, nil)
	if math.Abs(tabs-am) > 1e-9*asd || math.Abs(math.Sqrt(tabsM2/(n-1))-asd) > 1e-9*asd {
		t.Errorf("tally mean distance %v sd %v, two passes %v %v", tabs, math.Sqrt(tabsM2/(n-1)), am, asd)
	}
	// The bucketed search against sort's, on this grid and on one of
	// heavy tails (Cauchy: most cuts in a few buckets), at the cuts, next
	// to them and at random values.
	cauchy := make([]float64, 20_000)
	for i := range cauchy {
		cauchy[i] = math.Tan(math.Pi * (rnd.Float64() - 0.5))
	}
	for _, tl := range []*Tally{tc, NewTally(Column{Values: cauchy})} {
		xs := []float64{math.Inf(-1), math.Inf(1)}
		for _, g := range tl.grid {
			xs = append(xs, g, math.Nextafter(g, math.Inf(-1)), math.Nextafter(g, math.Inf(1)))
		}
		xs = append(xs, cur[:2000]...)
		xs = append(xs, cauchy[:2000]...)
		for _, x := range xs {
			if got, want := tl.index.search(tl.grid, x), sort.SearchFloat64s(tl.grid, x); got != want {
				t.Fatalf("search(%v) = %d, sort.SearchFloat64s %d", x, got, want)
			}
		}
	}
	w := wholeTest(tr, tc)
	exactP := ksPValue(ref, cur)
	var exactD float64
	{
		a, b := slices.Sorted(slices.Values(ref)), slices.Sorted(slices.Values(cur))
		i := 0
		for j, v := range b {
			for i < len(a) && a[i] <= v {
				i++
			}
			exactD = math.Max(exactD, math.Abs(float64(i)/n-float64(j+1)/n))
			exactD = math.Max(exactD, math.Abs(float64(i)/n-float64(j)/n))
		}
	}
	maxBin := 0
	for _, c := range tr.bins {
		maxBin = max(maxBin, c)
	}
	if w.KS > exactD+1e-12 || w.KS < exactD-float64(maxBin)/n {
		t.Errorf("binned D %v, exact %v, largest bin share %v", w.KS, exactD, float64(maxBin)/n)
	}
	if w.DistributionP < exactP {
		t.Errorf("binned KS p %v below the exact %v", w.DistributionP, exactP)
	}
	if q := kolmogorovQ(1.3581); math.Abs(q-0.05) > 1e-4 {
		t.Errorf("Q(1.3581) = %v, want 0.0500", q)
	}
	t.Logf("binned D %.5f (p %.3g), exact D %.5f (p %.3g); mean p %.3g, scale p %.3g", w.KS, w.DistributionP, exactD, exactP, w.MeanP, w.ScaleP)
}

// wholeChange is a change of one column in the studies of the tests on
// every row: draw draws a value of the reference (ref) or the current
// table, changed by δ (nil: a categorical column whose current
// probabilities are cat(δ)).
type wholeChange struct {
	name string
	draw func(r *rand.Rand, ref bool, d float64) float64
	cat  func(d float64) []float64
}

// wholeChanges are the changes of the studies of the tests on every row,
// each of size δ: a column each, before two null columns of each type.
var wholeChanges = []wholeChange{
	{name: "mean +δ sd", draw: func(r *rand.Rand, ref bool, d float64) float64 { return r.NormFloat64() + b2f(!ref)*d }},
	{name: "sd ×(1+δ)", draw: func(r *rand.Rand, ref bool, d float64) float64 { return r.NormFloat64() * (1 + b2f(!ref)*d) }},
	{name: "Poisson(3) mean +δ·√3", draw: func(r *rand.Rand, ref bool, d float64) float64 {
		return distuv.Poisson{Lambda: 3 + b2f(!ref)*d*math.Sqrt(3), Src: r}.Rand()
	}},
	{name: "δ/2 of values at +3 sd", draw: func(r *rand.Rand, ref bool, d float64) float64 {
		if !ref && r.Float64() < d/2 {
			return 3 + 0.1*r.NormFloat64()
		}
		return r.NormFloat64()
	}},
	{name: "category 0.30 → 0.30 − δ/2", cat: func(d float64) []float64 {
		return []float64{0.30 - d/2, 0.70/3 + d/6, 0.70/3 + d/6, 0.70/3 + d/6}
	}},
}

// wholeTables returns the reference and current tables of n rows of the
// studies of the tests on every row: a column per wholeChange, of size d,
// then two null columns of each of nullTypes.
func wholeTables(n int, d float64, rnd *rand.Rand) (ref, cur []Column) {
	table := func(isRef bool) []Column {
		var out []Column
		for k, c := range wholeChanges {
			name := fmt.Sprintf("c%d", k)
			if c.cat != nil {
				p := []float64{0.30, 0.70 / 3, 0.70 / 3, 0.70 / 3}
				if !isRef {
					p = c.cat(d)
				}
				out = append(out, categoricalColumn(name, n, p, rnd))
				continue
			}
			v := make([]float64, n)
			for i := range v {
				v[i] = c.draw(rnd, isRef, d)
			}
			out = append(out, Column{Name: name, Values: v})
		}
		return append(out, nullColumns(n, 2, rnd)...)
	}
	return table(true), table(false)
}

// ksBH returns the p-values of KS (χ² for categories) on every row of the
// columns of ref and cur, and their Benjamini–Hochberg q-values.
func ksBH(ref, cur []Column) (p, q []float64) {
	p = make([]float64, len(ref))
	for j := range ref {
		if ref[j].Categories != nil {
			p[j] = chiSquarePValue(ref[j].Categories, cur[j].Categories)
		} else {
			p[j] = ksPValue(ref[j].Values, cur[j].Values)
		}
	}
	return p, bhReference(p)
}

// TestWholePower is the power and false-alarm check of the tests on every
// row (WholeTest) at 10⁵ rows, where the kernel test sees a sample of
// 20 000 values per column: at the library's defaults (the command's;
// the joint row off, which the column verdicts do not use), with every row
// in memory (the command reaches the same tallies by a second pass over
// the file), beside KS (χ² for categories) + Benjamini–Hochberg on every
// row. Each table has one column per change, of size δ = 6/√n, near KS's
// limit (a 20 000-row sample cannot see them), and two null columns of
// each type (normal, Poisson(3), gamma(2), normal rounded to 0.5,
// categorical). Asserted, paired on the same tables: pearson flags each
// changed column at least as often as KS + BH (McNemar, as in
// TestPowerStudy), and its p-values ≤ 0.05 on null columns, per type,
// stay below 0.05 + 2 SE. Long tier: about 15 s of CPU. The table at 10⁶
// rows, with smaller changes and the energy test beside, is
// BenchmarkWholePowerTable's (docs/RESULTS.md).
func TestWholePower(t *testing.T) {
	t.Parallel()
	testtier.Long(t, "the whole-data power study at 10⁵ rows")
	testtier.SkipUnderRace(t)
	const n, reps = 100_000, 6
	d := 6 / math.Sqrt(n)
	low := make([]int, len(nullTypes))
	lowKS := make([]int, len(nullTypes))
	power := make([]paired, len(wholeChanges))
	for rep := range reps {
		ref, cur := wholeTables(n, d, rand.New(rand.NewPCG(uint64(rep), uint64(n)+7)))
		s := &Settings{NoJoint: true}
		s.Src = rand.NewPCG(uint64(rep), 99)
		res, err := Compare(context.Background(), ref, cur, s)
		if err != nil {
			t.Fatal(err)
		}
		pKS, qKS := ksBH(ref, cur)
		for k := range wholeChanges {
			if res.Columns[k].Whole == nil {
				t.Fatalf("column %d has no whole-data test", k)
			}
			power[k].add(res.Columns[k].Drifted, qKS[k] < powerLevel)
		}
		for j := len(wholeChanges); j < len(ref); j++ {
			ty := (j - len(wholeChanges)) / 2
			if res.Columns[j].PValue <= powerLevel {
				low[ty]++
			}
			if pKS[j] <= powerLevel {
				lowKS[ty]++
			}
		}
	}
	var report strings.Builder
	fmt.Fprintf(&report, "| change | δ | pearson | KS + BH | pearson alone | KS alone |\n|---|---|---|---|---|---|\n")
	for k, c := range wholeChanges {
		p := power[k]
		fmt.Fprintf(&report, "| %s | %.4f | %.2f | %.2f | %d | %d |\n", c.name, d,
			float64(p.rate)/reps, float64(p.rate-p.onlyMethod+p.onlyKS)/reps, p.onlyMethod, p.onlyKS)
		if p.worse() || p.onlyKS > p.onlyMethod+1 {
			t.Errorf("%s: pearson flags it in %d of %d tables, KS + BH alone in %d, pearson alone in %d", c.name, p.rate, reps, p.onlyKS, p.onlyMethod)
		}
	}
	per := 2 * reps
	lim := powerLevel + 2*math.Sqrt(powerLevel*(1-powerLevel)/float64(per))
	for ty, nt := range nullTypes {
		rate := float64(low[ty]) / float64(per)
		fmt.Fprintf(&report, "| null %s: p ≤ 0.05 (%d columns) | | %.3f | %.3f | | |\n", nt.name, per, rate, float64(lowKS[ty])/float64(per))
		if rate > lim {
			t.Errorf("%s columns: %.3f of pearson's p-values ≤ %.2f over %d null columns, above %.3f", nt.name, rate, powerLevel, per, lim)
		}
	}
	t.Logf("%d tables of %d rows, changes of δ = 6/√n and null columns, pearson at its defaults (joint row off) against KS/χ² + BH on every row:\n%s", reps, n, report.String())
}

// TestWholeCombination checks the weighted Bonferroni combination of a
// column's every-row and sample tests through Compare, on 10 000 rows more
// than the sample keeps (so that the columns get a Whole test):
// a categorical column's p-value is its χ² over every row, computed here
// independently (chiSquarePValue), with no permutation run; a numeric
// column's p_all_rows is at most twice Welch's p computed here from the
// raw values, and its p-value is at most 3 × its sample's and 1.5 × its
// p_all_rows, and equal to the smaller.
func TestWholeCombination(t *testing.T) {
	s := &Settings{NoJoint: true}
	s.Src = rand.NewPCG(1, 2)
	n := s.SampleSize() + 10_000
	rnd := rand.New(rand.NewPCG(3, 5))
	base := []float64{0.3, 0.3, 0.4}
	moved := []float64{0.28, 0.3, 0.42}
	mk := func(shift float64, p []float64) []Column {
		v := make([]float64, n)
		for i := range v {
			v[i] = rnd.NormFloat64() + shift
		}
		return []Column{{Name: "x", Values: v}, categoricalColumn("c", n, p, rnd)}
	}
	ref, cur := mk(0, base), mk(0.03, moved)
	res, err := Compare(context.Background(), ref, cur, s)
	if err != nil {
		t.Fatal(err)
	}
	x, c := res.Columns[0], res.Columns[1]
	if x.Whole == nil || c.Whole == nil {
		t.Fatalf("no Whole test at %d rows: numeric %v, categorical %v", n, x.Whole != nil, c.Whole != nil)
	}
	if want := chiSquarePValue(ref[1].Categories, cur[1].Categories); math.Abs(c.PValue-want) > 1e-9*want || c.Permutations != 0 {
		t.Errorf("categorical: p-value %v after %d permutations, want the χ² test's %v and none", c.PValue, c.Permutations, want)
	}
	m0, s0 := stat.MeanStdDev(ref[0].Values, nil)
	m1, s1 := stat.MeanStdDev(cur[0].Values, nil)
	welch := math.Erfc(math.Abs(m1-m0) / math.Sqrt((s0*s0+s1*s1)/float64(n)) / math.Sqrt2)
	if x.Whole.PValue > 2*welch*(1+1e-9) {
		t.Errorf("numeric: p_all_rows %v above 2 × Welch's %v", x.Whole.PValue, welch)
	}
	want := math.Min(1, math.Min(1.5*x.Whole.PValue, 3*x.SamplePValue))
	if math.Abs(x.PValue-want) > 1e-9*want {
		t.Errorf("numeric: p-value %v, want min(1, 1.5 × %v, 3 × %v) = %v", x.PValue, x.Whole.PValue, x.SamplePValue, want)
	}
	t.Logf("categorical p %.3g (χ²); numeric p %.3g (all rows %.3g, Welch %.3g, sample %.3g after %d permutations)", c.PValue, x.PValue, x.Whole.PValue, welch, x.SamplePValue, x.Permutations)
}
