// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/testtier"
)

// TestGroupSumsMoments checks the permutation moments that standardise the
// two-sample statistic's components against the values' mean and standard
// deviation over 20 000 random labellings: the means are exact (within
// four Monte Carlo standard errors), the standard deviations normal-theory
// approximations (within 10% at m = 300), for points with a row each and
// for the same points in bins.
func TestGroupSumsMoments(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	rnd := rand.New(rand.NewPCG(5, 5))
	const m, mp, w = 300, 100, 3
	psi := mat.NewDense(m, w, nil)
	for i := range m {
		for j := range w {
			psi.Set(i, j, rnd.ExpFloat64()+float64(j)*0.3)
		}
	}
	x := mat.NewDense(m, 1, nil)
	for i := range m {
		x.Set(i, 0, rnd.NormFloat64())
	}
	plain := &groupSums{mp: mp, mq: m - mp}
	plain.add(psi, true)
	if err := plain.addMean(x); err != nil {
		t.Fatal(err)
	}
	plain.finish()

	// The same points as 60 bins of 5 equal rows each.
	const bins = 60
	bpsi, bx := mat.NewDense(bins, w, nil), mat.NewDense(bins, 1, nil)
	binned := &groupSums{mp: mp, mq: m - mp, bin: make([]int32, m), weight: make([]float64, bins)}
	for b := range bins {
		bpsi.SetRow(b, psi.RawRowView(b))
		bx.Set(b, 0, x.At(b, 0))
	}
	for i := range m {
		b := (i * 7) % bins
		binned.bin[i] = int32(b)
		binned.weight[b]++
	}
	expanded := mat.NewDense(m, w, nil)
	ex := mat.NewDense(m, 1, nil)
	for i := range m {
		expanded.SetRow(i, bpsi.RawRowView(int(binned.bin[i])))
		ex.Set(i, 0, bx.At(int(binned.bin[i]), 0))
	}
	binned.add(bpsi, true)
	if err := binned.addMean(bx); err != nil {
		t.Fatal(err)
	}
	binned.finish()
	flat := &groupSums{mp: mp, mq: m - mp}
	flat.add(expanded, true)
	if err := flat.addMean(ex); err != nil {
		t.Fatal(err)
	}
	flat.finish()

	for _, c := range []struct {
		name  string
		g     *groupSums
		drawn bool
	}{{"rows", plain, false}, {"bins", binned, false}, {"bins drawn", binned, true}} {
		name, g := c.name, c.g
		n := g.count()
		mean, sd := make([]float64, n), make([]float64, n)
		g.moments(mean, sd)
		const draws = 20_000
		sum, ss := make([]float64, n), make([]float64, n)
		v, perm := make([]float64, n), make([]int, m)
		sc := g.newScratch()
		for range draws {
			if c.drawn {
				g.drawValues(rnd, sc, v)
			} else {
				copy(perm, indices.Range(m))
				drawGroups(rnd, perm, mp)
				g.values(perm, sc, v)
			}
			for j := range n {
				sum[j] += v[j]
				ss[j] += v[j] * v[j]
			}
		}
		for j := range n {
			mc := sum[j] / draws
			mcsd := math.Sqrt(ss[j]/draws - mc*mc)
			if se := mcsd / math.Sqrt(draws); math.Abs(mc-mean[j]) > 4*se {
				t.Errorf("%s, value %d: mean %.6g, over the labellings %.6g ± %.2g", name, j, mean[j], mc, se)
			}
			if math.Abs(sd[j]/mcsd-1) > 0.1 {
				t.Errorf("%s, value %d: sd %.6g, over the labellings %.6g", name, j, sd[j], mcsd)
			}
		}
	}
	// Bins and their points expanded to rows give the same values.
	got, want := make([]float64, binned.count()), make([]float64, flat.count())
	for range 5 {
		perm := rnd.Perm(m)
		binned.values(perm, binned.newScratch(), got)
		flat.values(perm, flat.newScratch(), want)
		for j := range got {
			if math.Abs(got[j]-want[j]) > 1e-9*(1+math.Abs(want[j])) {
				t.Errorf("value %d: bins %v, rows %v", j, got[j], want[j])
			}
		}
	}
}

// TestDrawnCounts checks the counts per bin that drawValues draws for a
// uniformly random group against the multivariate hypergeometric
// distribution that a shuffle of the points gives: a χ² test of each count
// vector's frequency over 40 000 draws (bins of 2, 3 and 5 points, groups of
// 4 of 10 with P's or Q's the smaller, and of 3), and of the first bins'
// marginal counts for 130 points in bins across 64-bit words (groups of 40,
// a share that takes several binary digits, and 65, an even split). A
// p-value below 10⁻⁴ fails.
func TestDrawnCounts(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(8, 8))
	for _, c := range []struct {
		weight []float64
		mp     int
		whole  bool // the whole vector (otherwise the first two bins' marginals)
	}{
		{[]float64{2, 3, 5}, 4, true},
		{[]float64{2, 3, 5}, 6, true},
		{[]float64{2, 3, 5}, 3, true},
		{[]float64{1, 64, 65}, 40, false},
		{[]float64{30, 40, 60}, 65, false},
		{[]float64{63, 2, 65}, 90, false},
		// Groups under m/directShare points, drawn point by point.
		{[]float64{10, 12, 14}, 1, true},
		{[]float64{1, 64, 65}, 5, false},
		{[]float64{30, 40, 60}, 125, false},
	} {
		m := int(floats.Sum(c.weight))
		g := &groupSums{mp: c.mp, mq: m - c.mp, weight: c.weight, bin: make([]int32, m)}
		g.add(mat.NewDense(len(c.weight), 1, slices.Repeat([]float64{1}, len(c.weight))), true)
		g.finish()
		size := min(c.mp, m-c.mp)
		sc := g.newScratch().(*groupScratch)
		dst := make([]float64, g.count())
		const draws = 40_000
		freq := map[string]float64{}
		margin := make([][]float64, 2)
		for b := range margin {
			margin[b] = make([]float64, size+1)
		}
		for range draws {
			g.drawValues(rnd, sc, dst)
			if floats.Sum(sc.counts) != float64(size) {
				t.Fatalf("weights %v, group %d: counts %v", c.weight, size, sc.counts)
			}
			freq[fmt.Sprint(sc.counts)]++
			for b := range margin {
				margin[b][int(sc.counts[b])]++
			}
		}
		lchoose := func(n, k float64) float64 {
			a, _ := math.Lgamma(n + 1)
			b, _ := math.Lgamma(k + 1)
			d, _ := math.Lgamma(n - k + 1)
			return a - b - d
		}
		total := lchoose(float64(m), float64(size))
		chi2 := func(observed, expected []float64) {
			x, cells := 0.0, 0
			for i, e := range expected {
				e *= draws
				if e < 5 {
					continue
				}
				x += (observed[i] - e) * (observed[i] - e) / e
				cells++
			}
			if p := 1 - (distuv.ChiSquared{K: float64(cells - 1)}).CDF(x); cells < 2 || p < 1e-4 {
				t.Errorf("weights %v, group %d: χ² %.1f on %d cells, p %.2g", c.weight, size, x, cells, p)
			}
		}
		if c.whole {
			var obs, exp []float64
			for a := 0; a <= size; a++ {
				for b := 0; a+b <= size; b++ {
					v := []float64{float64(a), float64(b), float64(size - a - b)}
					if v[0] > c.weight[0] || v[1] > c.weight[1] || v[2] > c.weight[2] {
						continue
					}
					lp := lchoose(c.weight[0], v[0]) + lchoose(c.weight[1], v[1]) + lchoose(c.weight[2], v[2]) - total
					obs, exp = append(obs, freq[fmt.Sprint(v)]), append(exp, math.Exp(lp))
				}
			}
			chi2(obs, exp)
			continue
		}
		for b := range margin {
			exp := make([]float64, size+1)
			for k := range exp {
				if float64(k) <= c.weight[b] && float64(size-k) <= float64(m)-c.weight[b] {
					exp[k] = math.Exp(lchoose(c.weight[b], float64(k)) + lchoose(float64(m)-c.weight[b], float64(size-k)) - total)
				}
			}
			chi2(margin[b], exp)
		}
	}
}

// TestBinValues checks the bins of one column: at most testBins, equal
// values in one bin, consecutive ranks, each bin's value its points' mean,
// and with fewer points than testBins one bin per distinct value.
func TestBinValues(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(6, 6))
	for _, m := range []int{50, 20_000} {
		x := mat.NewDense(m, 1, nil)
		for i := range m {
			v := rnd.NormFloat64()
			if i%3 == 0 {
				v = math.Round(v * 4) // heavy ties
			}
			x.Set(i, 0, v)
		}
		order := indices.Range(m)
		vals := x.RawMatrix().Data
		sortByValue(order, vals)
		var g groupSums
		reps := g.binValues(x, order)
		nb, _ := reps.Dims()
		if nb > testBins || nb < 2 {
			t.Fatalf("m = %d: %d bins", m, nb)
		}
		distinct := 1
		for i := 1; i < m; i++ {
			a, b := vals[order[i-1]], vals[order[i]]
			if a != b {
				distinct++
			}
			if a == b && g.bin[order[i-1]] != g.bin[order[i]] {
				t.Fatalf("m = %d: equal values %v in bins %d and %d", m, a, g.bin[order[i-1]], g.bin[order[i]])
			}
			if g.bin[order[i]] < g.bin[order[i-1]] {
				t.Fatalf("m = %d: bins out of order", m)
			}
		}
		if m <= testBins && nb != distinct {
			t.Errorf("m = %d: %d bins for %d distinct values", m, nb, distinct)
		}
		sums := make([]float64, nb)
		for i, b := range g.bin {
			sums[b] += vals[i]
		}
		for b := range nb {
			if want := sums[b] / g.weight[b]; math.Abs(reps.At(b, 0)-want) > 1e-12*(1+math.Abs(want)) {
				t.Errorf("m = %d, bin %d: value %v, mean of its points %v", m, b, reps.At(b, 0), want)
			}
		}
	}
}

func sortByValue(order []int, vals []float64) {
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && vals[order[j]] < vals[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}

// TestSequentialPValue checks Besag and Clifford's p-value against its
// definition and its validity: with exchangeable statistics (the observed
// one among uniform draws, as under the null hypothesis) P(p ≤ u) ≤ u,
// within binomial error over 20 000 trials, at u = 0.01, 0.05, 0.2, 0.5.
func TestSequentialPValue(t *testing.T) {
	t.Parallel()
	if p := sequentialPValue(1, []float64{0, 2, 0, 2}, 2); p != 0.5 {
		t.Errorf("2 exceedances in 4: p = %v, want 2/4", p)
	}
	if p := sequentialPValue(1, []float64{0, 2, 0, 0}, 2); p != 0.4 {
		t.Errorf("1 exceedance in all 4: p = %v, want 2/5", p)
	}
	rnd := rand.New(rand.NewPCG(7, 7))
	const trials, b, h = 20_000, 99, 5
	levels := []float64{0.01, 0.05, 0.2, 0.5}
	hits := make([]int, len(levels))
	for range trials {
		obs := rnd.Float64()
		var null []float64
		g := 0
		for len(null) < b && g < h {
			v := rnd.Float64()
			null = append(null, v)
			if v >= obs {
				g++
			}
		}
		p := sequentialPValue(obs, null, h)
		for i, u := range levels {
			if p <= u {
				hits[i]++
			}
		}
	}
	for i, u := range levels {
		rate := float64(hits[i]) / trials
		if bound := u + 3*math.Sqrt(u*(1-u)/trials); rate > bound {
			t.Errorf("P(p ≤ %v) = %.4f, beyond %.4f", u, rate, bound)
		}
	}
}

// TestSequentialTwoSampleTestLevel checks the sequential test end to end
// under the null hypothesis, one column of 150 rows per sample (binned
// design, every distinct value its own bin): p ≤ 0.05 in at most 5% of 300
// pairs (within three binomial standard errors), and pairs far from
// significance stop early.
func TestSequentialTwoSampleTestLevel(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	rnd := rand.New(rand.NewPCG(8, 8))
	const trials, n = 300, 150
	reject, perms := 0, 0
	for r := range trials {
		p, q := mat.NewDense(n, 1, nil), mat.NewDense(n, 1, nil)
		for i := range n {
			p.Set(i, 0, rnd.NormFloat64())
			q.Set(i, 0, rnd.NormFloat64())
		}
		s := &TwoSampleSettings{Permutations: 199}
		s.K, s.Src = 30, rand.NewPCG(uint64(r), 1)
		res, err := SequentialTwoSampleTest(context.Background(), p, q, DefaultAlpha, s, 10)
		if err != nil {
			t.Fatal(err)
		}
		if res.PValue <= 0.05 {
			reject++
		}
		perms += res.Permutations
	}
	rate := float64(reject) / trials
	t.Logf("p ≤ 0.05 in %d of %d; %.1f permutations on average of 199", reject, trials, float64(perms)/trials)
	if bound := 0.05 + 3*math.Sqrt(0.05*0.95/trials); rate > bound {
		t.Errorf("rejection rate %.3f beyond %.3f", rate, bound)
	}
	if avg := float64(perms) / trials; avg > 80 {
		t.Errorf("%.1f permutations on average under the null hypothesis; with 10 exceedances about 30 expected", avg)
	}
}

// TestExtendContinuesTheSequence checks that a sequential test that stopped
// early, extended to B permutations, is the test of B permutations without
// an early stop: the same null distribution and p-value; and that a test
// with α = 0 refuses to be extended.
func TestExtendContinuesTheSequence(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(10, 10))
	const n = 200
	p, q := mat.NewDense(n, 1, nil), mat.NewDense(n, 1, nil)
	for i := range n {
		p.Set(i, 0, rnd.NormFloat64())
		q.Set(i, 0, rnd.NormFloat64())
	}
	run := func(stop int) *TwoSampleResult {
		s := &TwoSampleSettings{Permutations: 300}
		s.K, s.Src, s.Workers = 30, rand.NewPCG(1, 2), 2
		res, err := SequentialTwoSampleTest(context.Background(), p, q, DefaultAlpha, s, stop)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	full, short := run(0), run(5)
	if short.Permutations >= 300 {
		t.Fatalf("equal samples: no early stop in %d permutations (p = %v)", short.Permutations, full.PValue)
	}
	if err := short.Extend(context.Background(), 300); err != nil {
		t.Fatal(err)
	}
	if short.Permutations != 300 || short.PValue != full.PValue || !slices.Equal(short.Null, full.Null) {
		t.Errorf("extended: %d permutations, p = %v; the full test: %d, p = %v", short.Permutations, short.PValue, full.Permutations, full.PValue)
	}
	s := &TwoSampleSettings{Permutations: 20}
	s.K, s.Src = 30, rand.NewPCG(1, 2)
	res, err := SequentialTwoSampleTest(context.Background(), p, q, 0, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Extend(context.Background(), 40); !errors.Is(err, ErrSettings) {
		t.Errorf("α = 0: Extend returned %v, want ErrSettings", err)
	}
}

// TestOneColumnWorkers checks that a one-column test, whose permutations
// draw the groups' counts per bin (drawValues) on workers with pooled
// scratch buffers, gives the same null distribution on one worker as on
// three, with an odd number of points (a partial last word of bits) and
// groups of unequal size (α = 0.3).
func TestOneColumnWorkers(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(11, 11))
	p, q := mat.NewDense(301, 1, nil), mat.NewDense(400, 1, nil)
	for i := range 301 {
		p.Set(i, 0, rnd.NormFloat64())
	}
	for i := range 400 {
		q.Set(i, 0, rnd.NormFloat64()+0.1)
	}
	var nulls [][]float64
	for _, workers := range []int{1, 3} {
		s := &TwoSampleSettings{Permutations: 200}
		s.K, s.Src, s.Workers = 30, rand.NewPCG(1, 2), workers
		res, err := TwoSampleTest(context.Background(), p, q, 0.3, s)
		if err != nil {
			t.Fatal(err)
		}
		nulls = append(nulls, res.Null)
	}
	if !slices.Equal(nulls[0], nulls[1]) {
		t.Error("the null distribution differs between one worker and three")
	}
}

// TestSequentialTwoSampleTestMisuse checks that bad input to
// SequentialTwoSampleTest is an error, not a panic: α out of range, too few
// rows, a NaN.
func TestSequentialTwoSampleTestMisuse(t *testing.T) {
	t.Parallel()
	ok := mat.NewDense(50, 1, nil)
	for i := range 50 {
		ok.Set(i, 0, float64(i))
	}
	nan := mat.DenseCopyOf(ok)
	nan.Set(3, 0, math.NaN())
	for _, tc := range []struct {
		name  string
		p, q  mat.Matrix
		alpha float64
		want  error
	}{
		{"alpha 1", ok, ok, 1, ErrSettings},
		{"alpha NaN", ok, ok, math.NaN(), ErrSettings},
		{"one row", mat.NewDense(1, 1, nil), ok, 0.5, ErrTooFew},
		{"NaN", nan, ok, 0.5, nil},
	} {
		_, err := SequentialTwoSampleTest(context.Background(), tc.p, tc.q, tc.alpha, nil, 10)
		if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
}
