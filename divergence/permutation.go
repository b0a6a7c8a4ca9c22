// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/parallel"
)

// permStat is a test statistic at one kernel width: its value for a
// permutation of the design's points, with a worker's scratch buffers.
type permStat interface {
	newScratch() any
	value(perm []int, scratch any) float64
}

// permStats are several statistics computed together for a permutation
// (such as the kernel widths of one pass over precomputed kernel rows):
// values writes the count() of them into dst.
type permStats interface {
	newScratch() any
	count() int
	values(perm []int, scratch any, dst []float64)
}

// oneStat adapts a permStat to permStats.
type oneStat struct{ permStat }

func (o oneStat) count() int { return 1 }

func (o oneStat) values(perm []int, scratch any, dst []float64) {
	dst[0] = o.value(perm, scratch)
}

// singles adapts statistics computed one at a time.
func singles(stats []permStat) []permStats {
	out := make([]permStats, len(stats))
	for i, st := range stats {
		out[i] = oneStat{st}
	}
	return out
}

// drawnStats are statistics that draw a uniformly random labelling from a
// generator themselves, more cheaply than a shuffle of the points: a
// permutation test of one such statistic and no shuffle uses drawValues.
type drawnStats interface {
	drawValues(prnd *rand.Rand, scratch any, dst []float64)
}

// nullMoments is implemented by statistics whose mean and standard
// deviation over the uniformly random labellings are known in closed form,
// functions of the pooled sample alone (groupSums): moments writes them,
// one per value, into mean and sd.
type nullMoments interface {
	moments(mean, sd []float64)
}

// permutationTest computes the statistics at every width for the observed
// labelling (the identity on n points) and for up to b permutations made by
// shuffle (nil: drawn by the one statistic, a drawnStats) (on s.Workers,
// reporting to s.Progress), combines them and returns
// the combined statistic, its null distribution and the observed values.
//
// When every statistic knows its permutation moments (nullMoments), the
// combined statistic is max_j (t_j − μ_j)/σ_j over the components with
// σ_j > 0 (0 when there is none): a fixed function of the pooled sample and
// the labels. Then stop > 0 ends the permutations at the stop-th one whose
// statistic reaches the observed (Besag and Clifford 1991, see
// sequentialPValue): null holds the permutations run, and more computes the
// statistic under the permutations from, …, to−1 of the same sequence (to
// extend it). Otherwise the components are standardised by the other
// labellings' values (combine), all b permutations run, and more is nil.
func permutationTest(ctx context.Context, b int, s *Settings, rnd *rand.Rand, stats []permStats, n int, stop int, shuffle func(prnd *rand.Rand, perm []int)) (statistic float64, null []float64, observed []float64, more func(ctx context.Context, from, to int) ([]float64, error), err error) {
	size := 0
	fixed := true
	for _, st := range stats {
		size += st.count()
		_, ok := st.(nullMoments)
		fixed = fixed && ok
	}
	if shuffle == nil {
		if _, ok := stats[0].(drawnStats); len(stats) != 1 || !ok {
			panic("divergence: permutationTest: a nil shuffle needs one statistic that draws its own labellings (drawnStats)")
		}
	}
	var mean, sd []float64
	if fixed {
		mean, sd = make([]float64, size), make([]float64, size)
		at := 0
		for _, st := range stats {
			st.(nullMoments).moments(mean[at:at+st.count()], sd[at:at+st.count()])
			at += st.count()
		}
	}
	// A worker's scratch: each statistic's, and a labelling reset to the
	// identity before each shuffle (so that a permutation depends on its
	// generator alone, not on the worker's previous one).
	type scratch struct {
		stats []any
		perm  []int
	}
	values := func(perm []int, sc *scratch) []float64 {
		t := make([]float64, size)
		at := 0
		for j, st := range stats {
			st.values(perm, sc.stats[j], t[at:at+st.count()])
			at += st.count()
		}
		return t
	}
	newScratch := func() any {
		sc := &scratch{stats: make([]any, len(stats)), perm: make([]int, n)}
		for j, st := range stats {
			sc.stats[j] = st.newScratch()
		}
		return sc
	}
	identity := indices.Range(n)
	observed = values(identity, newScratch().(*scratch))
	stat := func(prnd *rand.Rand, sc any) []float64 {
		w := sc.(*scratch)
		if shuffle == nil {
			t := make([]float64, size)
			stats[0].(drawnStats).drawValues(prnd, w.stats[0], t)
			return t
		}
		copy(w.perm, identity)
		shuffle(prnd, w.perm)
		return values(w.perm, w)
	}
	seed := rnd.Uint64()
	if !fixed {
		perms, err := permutations(ctx, 0, b, b, seed, s, stat, newScratch)
		if err != nil {
			return 0, nil, nil, nil, err
		}
		statistic, null = combine(observed, perms)
		return statistic, null, observed, nil, nil
	}
	statistic = standardised(observed, mean, sd)
	z := func(prnd *rand.Rand, sc any) []float64 {
		return []float64{standardised(stat(prnd, sc), mean, sd)}
	}
	more = func(ctx context.Context, from, to int) ([]float64, error) {
		perms, err := permutations(ctx, from, to, to, seed, s, z, newScratch)
		if err != nil {
			return nil, err
		}
		out := make([]float64, len(perms))
		for i, t := range perms {
			out[i] = t[0]
		}
		return out, nil
	}
	// In batches, doubling from 2·stop (at least 8 per worker), until the
	// stop-th exceedance in permutation order: which permutations run
	// depends on their order alone, not on the workers.
	from, batch := 0, b
	if stop > 0 {
		batch = max(2*stop, 8*parallel.Workers(s.Workers))
	}
	exceed := 0
	for from < b {
		to := min(b, from+batch)
		perms, err := more(ctx, from, to)
		if err != nil {
			return 0, nil, nil, nil, err
		}
		for _, t := range perms {
			null = append(null, t)
			if t >= statistic {
				exceed++
				if stop > 0 && exceed == stop {
					return statistic, null, observed, more, nil
				}
			}
		}
		from, batch = to, 2*batch
	}
	return statistic, null, observed, more, nil
}

// standardised returns max_j (t_j − μ_j)/σ_j over the j with σ_j > 0, or 0
// when there is none.
func standardised(t, mean, sd []float64) float64 {
	z := math.Inf(-1)
	for j, v := range t {
		if sd[j] > 0 {
			z = math.Max(z, (v-mean[j])/sd[j])
		}
	}
	if math.IsInf(z, -1) {
		return 0
	}
	return z
}

// permutations computes the statistics under the permutations from, …,
// to−1 of b on the workers, the i-th with its own generator seeded from
// (seed, i), so that the null distribution does not depend on scheduling.
// newScratch makes a worker's buffers. It reports progress (out of b) and
// stops when ctx is cancelled.
func permutations(ctx context.Context, from, to, b int, seed uint64, s *Settings, stat func(*rand.Rand, any) []float64, newScratch func() any) ([][]float64, error) {
	null := make([][]float64, to-from)
	pool := sync.Pool{New: newScratch}
	var done atomic.Int64
	done.Store(int64(from))
	var mu sync.Mutex
	reported := from // the largest count reported, under mu: never backwards
	step := max(1, b/200)
	parallel.ForContext(ctx, to-from, parallel.Workers(s.Workers), func(i int) {
		if ctx.Err() != nil {
			return
		}
		sc := pool.Get()
		null[i] = stat(rand.New(rand.NewPCG(seed, uint64(from+i))), sc)
		pool.Put(sc)
		if d := done.Add(1); s.Progress != nil && (d%int64(step) == 0 || d == int64(to)) {
			mu.Lock()
			if int(d) > reported {
				reported = int(d)
				s.Progress(reported, b)
			}
			mu.Unlock()
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return null, nil
}

// combine turns the statistics at several kernel widths into one: for each
// width, each labelling's T is standardised by the mean and standard
// deviation of the other B values (leave one out), and the statistic is the
// largest standardised value. Computed alike for the observed and every
// permuted labelling, a function of its own value and of the others as a
// set, it keeps the test exact, while letting the width that sees the
// difference best decide; leaving the labelling's own value out keeps the
// observed statistic from being bounded by √B, so that it converges as B
// grows instead of growing with it (docs/DESIGN.md §5). With one width it
// is T itself; when no width's statistic varies over the labellings, it is
// 0 for all of them.
func combine(observed []float64, null [][]float64) (float64, []float64) {
	if len(observed) == 1 {
		out := make([]float64, len(null))
		for b, t := range null {
			out[b] = t[0]
		}
		return observed[0], out
	}
	all := append([][]float64{observed}, null...)
	n := float64(len(all))
	z := make([]float64, len(all))
	for i := range z {
		z[i] = math.Inf(-1)
	}
	for j := range observed {
		mean, ss := 0.0, 0.0
		for _, t := range all {
			mean += t[j] / n
		}
		for _, t := range all {
			ss += (t[j] - mean) * (t[j] - mean)
		}
		if !(ss > 0) {
			continue // a width whose statistic never changes says nothing
		}
		for b, t := range all {
			// With d the deviation from the mean of all, the others have
			// mean −d/(n−1) and sum of squares ss − d² about the mean.
			d := t[j] - mean
			m := -d / (n - 1)
			// When the others all equal, v is 0 (or rounding): the floor,
			// 10⁻¹² of the variance of all, keeps z finite and largest for
			// the one labelling that differs, the same rule for every
			// labelling.
			v := math.Max((ss-d*d)/(n-1)-m*m, 1e-12*ss/(n-1))
			z[b] = math.Max(z[b], (d-m)/math.Sqrt(v))
		}
	}
	for b := range z {
		if math.IsInf(z[b], -1) {
			z[b] = 0 // no width's statistic varies: no evidence either way
		}
	}
	return z[0], z[1:]
}

// pValueInterval returns the 95% Clopper–Pearson interval for the
// exceedance probability P(T_b ≥ T) that the permutation p-value estimates,
// from the count of the B permuted statistics at or above the observed one:
// the Monte Carlo uncertainty of the p-value, which shrinks as B grows.
func pValueInterval(stat float64, null []float64) (lo, hi float64) {
	c, b := 0, len(null)
	for _, t := range null {
		if t >= stat {
			c++
		}
	}
	lo, hi = 0, 1
	if c > 0 {
		lo = distuv.Beta{Alpha: float64(c), Beta: float64(b - c + 1)}.Quantile(0.025)
	}
	if c < b {
		hi = distuv.Beta{Alpha: float64(c + 1), Beta: float64(b - c)}.Quantile(0.975)
	}
	return lo, hi
}

// pValue returns (1 + #{t ∈ null : t ≥ stat}) / (1 + len(null)).
func pValue(stat float64, null []float64) float64 {
	count := 0
	for _, t := range null {
		if t >= stat {
			count++
		}
	}
	return float64(1+count) / float64(1+len(null))
}

// sequentialPValue returns Besag and Clifford's (1991) sequential Monte
// Carlo p-value of permutations that stop at the h-th exceedance (h > 0)
// or after b: h/L when the h-th of the L permutations run reaches stat,
// otherwise (1 + g)/(1 + b) for g < h exceedances in all b. It is valid as
// the fixed-b p-value is, P(p ≤ u) ≤ u under the null hypothesis, and a
// column far from significance stops after about h/p permutations. With
// h = 0 it is pValue.
func sequentialPValue(stat float64, null []float64, h int) float64 {
	g := 0
	for _, t := range null {
		if t >= stat {
			g++
		}
	}
	if h > 0 && g >= h {
		return float64(h) / float64(len(null))
	}
	return float64(1+g) / float64(1+len(null))
}

// testRidge returns the tests' kλ/n: from the all-centre λ when fixed
// (non-zero), otherwise PermutationLambdaScale.
func testRidge(lambda float64, k, n int) float64 {
	if lambda != 0 {
		return float64(k) * lambda / float64(n)
	}
	return PermutationLambdaScale
}
