// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/isnil"
	"github.com/sublinear/pearson/internal/radix"
	"github.com/sublinear/pearson/kernel"
)

// TwoSampleResult is the outcome of a two-sample test.
type TwoSampleResult struct {
	// PE is the estimate of PE_α(P‖Q): RelativePE's result on the same
	// samples and settings. Its cross-validated σ and λ are not the test's
	// (see Sigmas and Lambda).
	PE *PEResult
	// Statistic is the test statistic on the observed labels. With one
	// kernel width it is the PE of a model with K centres drawn from the
	// pooled sample, averaged over M points; with several (the default) it
	// is the largest of their components, each standardised by its mean
	// and standard deviation over the uniformly random labellings (in
	// closed form with α > 0, over the permuted labellings with α = 0): a
	// z-score against the permutation null (see WidthPE for the
	// divergences themselves).
	Statistic float64
	// Sigmas are the kernel widths of the statistic, Lambda its all-centre
	// regularisation.
	Sigmas []float64
	Lambda float64
	// PValue is (1 + #{b : Null[b] ≥ Statistic}) / (1 + Permutations).
	PValue float64
	// PValueLow and PValueHigh are the 95% Clopper–Pearson interval, from
	// the number of exceedances, for the p-value that infinitely many
	// permutations would give: PValue's Monte Carlo uncertainty.
	PValueLow, PValueHigh float64
	// WidthPE holds the statistic's T at each kernel width on the observed
	// labels: the PE of the test's model at that width, an effect size on
	// the scale of the divergence that does not depend on Permutations.
	WidthPE []float64
	// MeanShift is the distance between the means of the two samples'
	// averaging points in units of their pooled spread,
	// √((x̄_P − x̄_Q)ᵀ S⁻¹ (x̄_P − x̄_Q)) with S the covariance of all the
	// averaging points: for one column, the shift in standard deviations.
	// Its square is the statistic's mean component.
	MeanShift float64
	// Null holds the statistic under each permutation of the labels.
	Null []float64
	// Permutations is the number of permutations.
	Permutations int
	// K and M are the centres and averaging points of the statistic.
	K, M int
	// Warnings note conditions that weaken the test, such as an averaging
	// budget cut down by unbalanced samples.
	Warnings []string

	// more computes the statistic under further permutations of the same
	// sequence (see Extend); nil when the statistic is not a fixed
	// function of the data and the labels (α = 0).
	more func(ctx context.Context, from, to int) ([]float64, error)
}

// Extend runs more permutations of the test, continuing its sequence, until
// b have run in all (nothing when as many have): Null, Permutations,
// PValue, now (1 + #{T_b ≥ T})/(1 + b), and its interval PValueLow,
// PValueHigh are those of the same test run with b permutations and no
// early stop. It serves a caller that wants a p-value known more precisely,
// for example one whose interval straddles a decision's cut. When b is
// chosen after looking at the p-value, the new p-value is valid up to the
// Monte Carlo risk of that choice: a decision taken on it agrees with that
// of the p-value of infinitely many permutations (which is exact) except
// with the probability that the interval misses it. A test with α = 0,
// whose statistic is standardised by the permutations drawn, or a result
// this package did not make, cannot be extended: an error wrapping
// ErrSettings.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func (r *TwoSampleResult) Extend(ctx context.Context, b int) error {
	isnil.Context(ctx, "divergence.TwoSampleResult.Extend")
	if r == nil || r.more == nil {
		return fmt.Errorf("divergence: %w: only a two-sample test with α > 0 made by this package can be extended", ErrSettings)
	}
	if b > MaxPermutations {
		return fmt.Errorf("divergence: %w: %d permutations, at most %d", ErrSettings, b, MaxPermutations)
	}
	if b <= len(r.Null) {
		return nil
	}
	more, err := r.more(ctx, len(r.Null), b)
	if err != nil {
		return err
	}
	r.Null = append(r.Null, more...)
	r.Permutations = len(r.Null)
	r.PValue = pValue(r.Statistic, r.Null)
	r.PValueLow, r.PValueHigh = pValueInterval(r.Statistic, r.Null)
	return nil
}

// TwoSampleTest tests whether the rows of p and q come from the same
// distribution, by a permutation test on a relative Pearson divergence
// statistic.
//
// It first runs RelativePE for the estimate (the same result as RelativePE
// with the same settings), with cross-validation. The statistic
// T = ½hᵀ(H + (kλ/n)I)⁻¹h − ½ has its own kernel widths and
// regularisation, which must not depend on the labels: Sigma and Lambda
// when fixed, otherwise PermutationSigmaScales times the median heuristic of the
// pooled sample and kλ/n = PermutationLambdaScale. Beside the widths' T, a mean
// component D² = (x̄_P − x̄_Q)ᵀS⁻¹(x̄_P − x̄_Q), S the covariance of all the
// averaging points, gives a pure shift the power of Hotelling's test (see
// MeanShift), and each width's T with the roles of the groups exchanged
// (h the mean over Q's points: the relative divergence is not symmetric,
// and a normal P against a peaked Q is seen far better one way than the
// other). Each component is standardised, and the statistic is the
// largest of them: with α > 0 by its exact mean and normal-theory standard
// deviation over the uniformly random labellings, computed in closed form
// from the pooled averaging points (groupSums), so that the statistic is a
// fixed function of the data and the labels, whatever the permutations
// (which lets SequentialTwoSampleTest stop early and Extend add more); with
// α = 0 by the mean and standard deviation of its values over the other
// labellings (the permuted ones, for the observed labels). It
// uses k centres drawn from the pooled sample and held fixed, and averages
// over M points of the pooled sample (TwoSamplePoints: every row up to
// TwoSamplePointsCap unless TwoSampleSettings.Points is set), M_P of them labelled P and M_Q
// labelled Q in the proportion α : 1−α, so that H = αG_P/M_P +
// (1−α)G_Q/M_Q = G/M is the same for every labelling: it is computed once,
// from up to 4000 of the averaging points drawn whatever their labels,
// and a permutation only sums the whitened kernel rows of one group (see
// groupSums; for α = 0, H is rebuilt for each labelling). For one column
// the features are computed on at most testBins bins of the averaging
// points' values (runs of consecutive ranks; H from every point), and a
// permutation counts the group's points per bin. A permutation
// reassigns the labels of those points at random, keeping M_P and M_Q.
// Under the null hypothesis the pooled points are exchangeable, so the
// observed T is one draw from the permutation distribution of a fixed
// function of the pooled sample and the labels. The centres, the median
// heuristic's rows (up to 1000) and H's rows are drawn uniformly from the
// pooled sample, whatever their labels, so relabelling the averaging
// points acts as a permutation of the data among them that leaves the
// distribution of data, centres and those rows unchanged: the p-value
// (1 + #{T_b ≥ T})/(1 + B) is exact. When α > 0 and the samples are
// unbalanced, keeping the proportion α : 1−α limits M to about n_P/α: a
// warning says so, and α = 0 uses the whole budget. With α > 0 a
// permutation costs O(min(M_P, M_Q)·(w·r + d)) for w widths of at most
// r = 32 whitened directions and d columns (in one dimension, a count per
// point and testBins rows of a few dozen values); with α = 0, O(M·k) and a
// factorisation. Neither grows
// with the number of rows beyond the cap.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func TwoSampleTest(ctx context.Context, p, q mat.Matrix, alpha float64, s *TwoSampleSettings) (*TwoSampleResult, error) {
	isnil.Context(ctx, "divergence.TwoSampleTest")
	if s == nil {
		s = &TwoSampleSettings{}
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	if err := checkAlpha(alpha); err != nil {
		return nil, err
	}
	pp, qq, err := newTwoSamples(p, q)
	if err != nil {
		return nil, err
	}
	s = s.resolved()
	// The estimate is RelativePE's own, on the same samples, settings and
	// source, checked and resolved once above; the test draws from a
	// generator seeded after it.
	sPE := s.PESettings
	sPE.Progress = nil
	pe, err := relativePE(ctx, p, q, pp, qq, alpha, &sPE)
	if err != nil {
		return nil, err
	}
	rnd := rand.New(sPE.Src)
	res, err := twoSample(ctx, pp, qq, pe.Alpha, s, 0, rand.New(rand.NewPCG(rnd.Uint64(), rnd.Uint64())))
	if err != nil {
		return nil, err
	}
	res.PE = pe
	return res, nil
}

// SequentialTwoSampleTest is the permutation test of TwoSampleTest without
// the estimate (the result's PE is nil), whose permutations, with α > 0,
// stop at the exceedances-th one whose statistic reaches the observed
// (exceedances > 0): Besag and Clifford's (1991) sequential p-value, h/L
// when the h-th exceedance comes at the L-th permutation, otherwise
// (1 + g)/(1 + B) for g < h exceedances in all B. It is as valid as the
// p-value of B permutations, and a sample pair far from significance stops
// after about h/p permutations: Permutations and Null report those run.
// With exceedances ≤ 0, or α = 0, all B permutations run. The statistic,
// the design and the permutations are TwoSampleTest's for the same source.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func SequentialTwoSampleTest(ctx context.Context, p, q mat.Matrix, alpha float64, s *TwoSampleSettings, exceedances int) (*TwoSampleResult, error) {
	isnil.Context(ctx, "divergence.SequentialTwoSampleTest")
	if s == nil {
		s = &TwoSampleSettings{}
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	if err := checkAlpha(alpha); err != nil {
		return nil, err
	}
	s = s.resolved()
	pp, qq, err := newTwoSamples(p, q)
	if err != nil {
		return nil, err
	}
	return twoSample(ctx, pp, qq, alpha, s, max(exceedances, 0), rand.New(s.Src))
}

// twoSample is the permutation test of TwoSampleTest on validated samples
// and resolved settings, without the estimate, averaging over
// TwoSamplePoints(s.Points, …) points; stop is the
// exceedances at which the permutations end (0: never early).
func twoSample(ctx context.Context, pp, qq *points, alpha float64, s *TwoSampleSettings, stop int, rnd *rand.Rand) (*TwoSampleResult, error) {
	// Internal units: the data divided by the median heuristic (or the
	// fixed σ, the only width then).
	widths := PermutationSigmaScales()
	scale := s.Sigma
	np, nq := pp.n, qq.n
	mp, mq := testBudget(TwoSamplePoints(s.Points, np, nq), np, nq, alpha)
	pick, order, err := pooledPicker(pp, qq, mp, mq, rnd)
	if err != nil {
		return nil, err
	}
	if scale == 0 {
		sc, err := pooledMedianScale(rnd, pick, pp, qq)
		if err != nil {
			return nil, err
		}
		scale = sc
	} else {
		widths = []float64{1}
	}
	pp, qq = pp.withScale(scale), qq.withScale(scale)

	// The design, fixed across permutations: centres from the pooled sample
	// (rows n_P… are Q's) and averaging points of each sample. A centre may
	// also be an averaging point: the statistic stays a fixed function of
	// the pooled sample and the labels.
	k := min(s.K, (np+nq)/2)
	centres := pick(k)
	c := mat.NewDense(k, pp.dim, nil)
	if err := pooledRows(c, pp, qq, centres); err != nil {
		return nil, err
	}
	ep, eq := indices.AllOrSample(np, mp, rnd), indices.AllOrSample(nq, mq, rnd)
	xe, err := pp.rows(ep)
	if err != nil {
		return nil, err
	}
	ye, err := qq.rows(eq)
	if err != nil {
		return nil, err
	}
	m := len(ep) + len(eq)
	ridge := testRidge(s.Lambda, k, pp.pop)
	res := &TwoSampleResult{Lambda: ridge * float64(pp.pop) / float64(k), Permutations: s.Permutations, K: k, M: m}
	if avail := min(TwoSamplePoints(s.Points, np, nq), np+nq); alpha > 0 && 2*m < avail {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the test averages over %d of the %d points its budget allows: with α = %g and samples of %d and %d rows, the proportion α : 1−α caps it; α = 0 uses every point", m, avail, alpha, np, nq))
	}
	// With α > 0 every component depends on the labels only through the
	// sums of the P-labelled points' rows of one matrix: the kernel values
	// at every width, then the centred data (groupSums). With α = 0 each
	// width is its own statistic, with the mean component beside them.
	sums := &groupSums{mp: len(ep), mq: len(eq)}
	var stats []permStats
	x := mat.NewDense(m, pp.dim, nil)
	x.Slice(0, len(ep), 0, pp.dim).(*mat.Dense).Copy(xe)
	x.Slice(len(ep), m, 0, pp.dim).(*mat.Dense).Copy(ye)
	x, gramRows := featurePoints(x, order, sums, alpha, rnd)
	dist := new(mat.Dense)
	if alpha > 0 {
		kernel.SqDistTo(dist, x, c)
	}
	for _, w := range widths {
		g := kernel.Gaussian{Sigma: w}
		res.Sigmas = append(res.Sigmas, w*scale)
		if alpha == 0 {
			stats = append(stats, oneStat{widthStat(g, c, xe, ye, len(ep), len(eq), alpha, ridge)})
			continue
		}
		if err := addWhitenedWidth(sums, g, dist, gramRows, ridge); err != nil {
			return nil, err
		}
	}
	if err := sums.addMean(x); err != nil {
		return nil, err
	}
	sums.finish()
	stats = append(stats, sums)
	var observed []float64
	shuffle := func(prnd *rand.Rand, perm []int) { drawGroups(prnd, perm, len(ep)) }
	if sums.bin != nil {
		shuffle = nil // one column: the groups' counts per bin are drawn
	}
	res.Statistic, res.Null, observed, res.more, err = permutationTest(ctx, s.Permutations, &s.Settings, rnd, stats, m, stop, shuffle)
	if err != nil {
		return nil, err
	}
	res.WidthPE = observed[:len(widths)]
	res.MeanShift = math.Sqrt(max(0, observed[len(widths)]))
	res.Permutations = len(res.Null)
	res.PValue = sequentialPValue(res.Statistic, res.Null, stop)
	res.PValueLow, res.PValueHigh = pValueInterval(res.Statistic, res.Null)
	return res, nil
}

// pooledPicker returns twoSample's way of picking rows of the pooled sample
// (rows n_P… are Q's) whatever their labels, given the averaging budgets
// mp and mq: pick(cnt) draws cnt of them at random from rnd, or, for one
// column averaged over every row, takes them at evenly spaced ranks of the
// pooled values (sorted design), a function of the pooled sample as a set
// that no seed moves, so that a rerun gives the same design. order is then
// the pooled rows in increasing order (nil otherwise).
func pooledPicker(pp, qq *points, mp, mq int, rnd *rand.Rand) (pick func(cnt int) []int, order []int, err error) {
	np, nq := pp.n, qq.n
	pick = func(cnt int) []int { return indices.Sample(np+nq, cnt, false, rnd) }
	if pp.dim == 1 && mp == np && mq == nq {
		if order, err = pooledOrder(pp, qq); err != nil {
			return nil, nil, err
		}
		pick = func(cnt int) []int { return evenlyRanked(order, cnt) }
	}
	return pick, order, nil
}

// pooledMedianScale is the median heuristic's width for twoSample: its
// rows are picked from the pooled sample, whatever their labels, as the
// centres are (see TwoSampleTest).
func pooledMedianScale(rnd *rand.Rand, pick func(cnt int) []int, pp, qq *points) (float64, error) {
	pooled := pick(min(pp.n+qq.n, testMedianPoints))
	var pr, qr []int
	for _, r := range pooled {
		if r < pp.n {
			pr = append(pr, r)
		} else {
			qr = append(qr, r-pp.n)
		}
	}
	return medianScaleOf(rnd, []*points{pp, qq}, [][]int{pr, qr})
}

// featurePoints returns the points twoSample's features are computed at,
// from x, the averaging points (P's first): with one column and α > 0, the
// bins (testBins) of their values, whose points share one row of features
// (sums learns the bins); otherwise x itself. With several columns and
// α > 0, gramRows are H's points: up to testGramPoints of the averaging
// points drawn from rnd whatever their labels, so that H is the same for
// every labelling. order is the pooled rows in increasing order when every
// row is averaged over, nil otherwise.
func featurePoints(x *mat.Dense, order []int, sums *groupSums, alpha float64, rnd *rand.Rand) (*mat.Dense, []int) {
	m, dim := x.Dims()
	var gramRows []int
	if alpha > 0 && dim == 1 {
		// The bins of the averaging points' values: with every row, order
		// is theirs already.
		if order == nil {
			order = sortedOrder(x.RawMatrix().Data[:m])
		}
		x = sums.binValues(x, order)
	} else if alpha > 0 {
		gramRows = indices.AllOrSample(m, testGramPoints, rnd)
	}
	return x, gramRows
}

// widthStat is twoSample's statistic at one width for α = 0, from the
// kernel values at the centres c of every averaging point, a column per
// point: P's mp first (xe), then Q's mq (ye).
func widthStat(g kernel.Gaussian, c, xe, ye *mat.Dense, mp, mq int, alpha, ridge float64) *twoSampleStat {
	k, _ := c.Dims()
	m := mp + mq
	phiT := mat.NewDense(k, m, nil)
	g.MatrixTo(phiT.Slice(0, k, 0, mp).(*mat.Dense), c, xe)
	g.MatrixTo(phiT.Slice(0, k, mp, m).(*mat.Dense), c, ye)
	gTot := mat.NewSymDense(k, nil)
	kernel.AddGram(gTot, phiT)
	return &twoSampleStat{phi: mat.DenseCopyOf(phiT.T()), phiT: phiT, gTot: gTot, mp: mp, mq: mq, alpha: alpha, ridge: ridge}
}

// addWhitenedWidth adds to sums twoSample's whitened features at one width
// for α > 0, from dist, the squared distances of the feature points to the
// centres. With m_P : m_Q = α : 1−α, H = αG_P/m_P + (1−α)G_Q/m_Q = G/m
// for every labelling, from every point (bins weighted by their points)
// or from the rows gramRows: decompose it once and whiten (groupSums).
// (With rounding, the statistic is that of α′ = m_P/m.)
func addWhitenedWidth(sums *groupSums, g kernel.Gaussian, dist *mat.Dense, gramRows []int, ridge float64) error {
	rows, k := dist.Dims()
	phi := mat.NewDense(rows, k, nil)
	g.FromSqDistTo(phi, dist)
	var h *mat.SymDense
	if gramRows == nil {
		h = weightedCov(phi, sums.weights(rows))
	} else {
		sub := mat.NewDense(len(gramRows), k, nil)
		for i, r := range gramRows {
			copy(sub.RawRowView(i), phi.RawRowView(r))
		}
		h = mat.NewSymDense(k, nil)
		h.SymRankK(h, 1/float64(len(gramRows)), sub.T())
	}
	psi, ok := whitened(phi, h, ridge, whitenFloor, whitenDirections)
	if !ok {
		return fmt.Errorf("divergence: %w: the test's regularised matrix is not positive definite (kλ/n = %g)", ErrNonFinite, ridge)
	}
	sums.add(psi, true)
	return nil
}

// pooledOrder returns the rows of the pooled one-column sample (P's, then
// Q's) in increasing order of value, ties by row.
func pooledOrder(pp, qq *points) ([]int, error) {
	x, err := pp.rows(indices.Range(pp.n))
	if err != nil {
		return nil, err
	}
	y, err := qq.rows(indices.Range(qq.n))
	if err != nil {
		return nil, err
	}
	vals := append(slices.Clone(x.RawMatrix().Data[:pp.n]), y.RawMatrix().Data[:qq.n]...)
	return sortedOrder(vals), nil
}

// sortedOrder returns the rows 0…n−1 of vals in increasing order of their
// values, ties in increasing order of rows: the order of a stable sort
// (radix.Order).
func sortedOrder(vals []float64) []int { return radix.Order(vals) }

// evenlyRanked returns cnt rows of order at the evenly spaced ranks
// ⌊(2i+1)·n/(2·cnt)⌋, i < cnt: the pooled sample's quantiles.
func evenlyRanked(order []int, cnt int) []int {
	n := len(order)
	cnt = min(cnt, n)
	out := make([]int, cnt)
	for i := range out {
		out[i] = order[(2*i+1)*n/(2*cnt)]
	}
	return out
}

// testMedianPoints is the number of pooled rows whose pairwise distances
// give the two-sample test's median heuristic: the width only sets the
// scale of the statistic's widths (×1, ×2, ×4), 400 rows give 79 800
// distances (in one column at evenly spaced ranks of the pooled values),
// and kernel.DefaultMedianPoints' 1000 cost 11% of drift's CPU on 10⁵ rows
// × 100 columns.
const testMedianPoints = 400

// testGramPoints bounds the averaging points from which the two-sample
// test's fixed H (α > 0) is computed: enough for H to vary by about 1/√4000
// relative, and the Gram matrix costs O(K²·testGramPoints) whatever M.
const testGramPoints = 4000

// drawGroups relabels the points: it makes perm[:mp] a uniformly random
// subset of the points, as a shuffle of perm would, by a partial
// Fisher–Yates shuffle of the smaller group's positions alone (the last
// m − mp when they are fewer). Only the two groups as sets matter to the
// statistics.
func drawGroups(rnd *rand.Rand, perm []int, mp int) {
	m := len(perm)
	if mp <= m-mp {
		for i := range mp {
			j := i + rnd.IntN(m-i)
			perm[i], perm[j] = perm[j], perm[i]
		}
		return
	}
	for i := m - 1; i >= mp; i-- {
		j := rnd.IntN(i + 1)
		perm[i], perm[j] = perm[j], perm[i]
	}
}

// testBudget divides the averaging budget of the two-sample test between
// the samples in the proportion α : 1−α (for α > 0), as many as the budget
// and the samples allow, so that H does not depend on the labels; for α = 0,
// as splitBudget.
func testBudget(m, np, nq int, alpha float64) (mp, mq int) {
	if alpha == 0 {
		return splitBudget(m, np, nq)
	}
	total := min(float64(m), float64(np)/alpha, float64(nq)/(1-alpha), float64(np+nq))
	mp = max(1, min(np, int(alpha*total+0.5)))
	mq = max(1, min(nq, int(total)-mp))
	return mp, mq
}

// pooledRows copies rows of the pooled sample (P's rows, then Q's) into dst.
func pooledRows(dst *mat.Dense, p, q *points, rows []int) error {
	for i, r := range rows {
		row := dst.Slice(i, i+1, 0, p.dim).(*mat.Dense)
		var err error
		if r < p.n {
			err = p.gather(row, []int{r})
		} else {
			err = q.gather(row, []int{r - p.n})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// twoSampleStat computes the two-sample statistic for a labelling of the
// averaging points when H depends on it (α = 0; otherwise groupSums).
type twoSampleStat struct {
	phi    *mat.Dense    // m × k kernel values, a row per averaging point
	phiT   *mat.Dense    // its transpose, a column per averaging point
	gTot   *mat.SymDense // their Gram matrix
	mp, mq int
	alpha  float64
	ridge  float64 // kλ/n
}

type twoSampleScratch struct {
	cols         *mat.Dense
	small, other *mat.SymDense // the Gram matrices of the two groups
	hv, theta    []float64
}

func (t *twoSampleStat) newScratch() any {
	k, _ := t.phiT.Dims()
	return &twoSampleScratch{
		cols:  mat.NewDense(k, max(min(t.mp, t.mq), 1), nil),
		small: mat.NewSymDense(k, nil),
		other: mat.NewSymDense(k, nil),
		hv:    make([]float64, k),
		theta: make([]float64, k),
	}
}

// value returns T for the labelling in which the points perm[:mp] are P's
// and the rest Q's: H = α G_P/m_P + (1−α) G_Q/m_Q, h = Σ_P φ / m_P, with the
// Gram matrix of the smaller group computed and the other's by difference.
func (t *twoSampleStat) value(perm []int, scratch any) float64 {
	sc := scratch.(*twoSampleScratch)
	k, _ := t.phiT.Dims()
	raw := t.phiT.RawMatrix()
	small, pSmall := perm[t.mp:], false
	if t.mp <= t.mq {
		small, pSmall = perm[:t.mp], true
	}
	cr := sc.cols.RawMatrix()
	for l := range k {
		row := raw.Data[l*raw.Stride : l*raw.Stride+raw.Cols]
		out := cr.Data[l*cr.Stride : l*cr.Stride+len(small)]
		for i, c := range small {
			out[i] = row[c]
		}
	}
	cols := sc.cols.Slice(0, k, 0, len(small)).(*mat.Dense)
	sc.small.Zero()
	kernel.AddGram(sc.small, cols)
	// h: Σ over P's points = row sums over P's columns.
	for l := range k {
		s := floats.Sum(cols.RawRowView(l))
		if !pSmall {
			s = floats.Sum(raw.Data[l*raw.Stride:l*raw.Stride+raw.Cols]) - s
		}
		sc.hv[l] = s / float64(t.mp)
	}
	sc.other.ScaleSym(-1, sc.small)
	sc.other.AddSym(t.gTot, sc.other)
	gp, gq := sc.small, sc.other
	if !pSmall {
		gp, gq = gq, gp
	}
	gq.ScaleSym((1-t.alpha)/float64(t.mq), gq)
	if t.alpha > 0 {
		gp.ScaleSym(t.alpha/float64(t.mp), gp)
		gq.AddSym(gq, gp)
	}
	return ridgeValue(gq, sc.hv, t.ridge)
}
