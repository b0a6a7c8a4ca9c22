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
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/parallel"
	"github.com/sublinear/pearson/kernel"
)

// DefaultPermutations is the number of permutations of TwoSampleTest and
// IndependenceTest when Settings.Permutations is zero.
const DefaultPermutations = 1000

// TestSigmaScales are the tests' kernel widths, as multiples of the median
// heuristic of the pooled sample (two-sample) or of each variable
// (independence), unless Settings fixes the widths.
//
// The widths must not depend on which points carry which label (or which y
// goes with which x): cross-validating them on the observed labels adapts
// them to that labelling's noise, and in our runs lifted the rejection rate
// under the null to 0.12 (two-sample) and 0.18 (independence) at level 0.05.
// The statistic is computed at each of these widths and the results are
// combined (see TwoSampleTest), so that whichever width sees a difference
// decides. Over 200 simulated data sets of 200 rows at level 0.05, these
// three widths gave rejection rates of 0.05 (two-sample) and 0.06
// (independence) under the null, and power 0.98 against a shift of half a
// standard deviation, 0.86 against a correlation of 0.3, and 1.00 against
// Y = 2XZ + noise (dependence through the spread only), where a single width
// of twice the median heuristic had 0.97, 0.83 and 0.67.
var TestSigmaScales = []float64{1, 2, 4}

// TestLambdaScale is the tests' kλ/n unless Settings.Lambda is fixed.
const TestLambdaScale = 0.01

// TwoSampleResult is the outcome of a two-sample test.
type TwoSampleResult struct {
	// PE is the estimate of PE_α(P‖Q): RelativePE's result on the same
	// samples and settings. Its cross-validated σ and λ are not the test's
	// (see Sigmas and Lambda).
	PE *PEResult
	// Statistic is the test statistic on the observed labels. With one
	// kernel width it is the PE of a model with K centres drawn from the
	// pooled sample, averaged over M points; with several (the default) it
	// is the largest of their PEs standardised by the mean and standard
	// deviation of each over the observed and permuted labellings, a
	// z-score rather than a divergence (see TwoSampleTest).
	Statistic float64
	// Sigmas are the kernel widths of the statistic, Lambda its all-centre
	// regularisation.
	Sigmas []float64
	Lambda float64
	// PValue is (1 + #{b : Null[b] ≥ Statistic}) / (1 + Permutations).
	PValue float64
	// Null holds the statistic under each permutation of the labels.
	Null []float64
	// Permutations is the number of permutations.
	Permutations int
	// K and M are the centres and averaging points of the statistic.
	K, M int
	// Warnings note conditions that weaken the test, such as an averaging
	// budget cut down by unbalanced samples.
	Warnings []string
}

// TwoSampleTest tests whether the rows of p and q come from the same
// distribution, by a permutation test on a relative Pearson divergence
// statistic.
//
// It first runs RelativePE for the estimate (the same result as RelativePE
// with the same settings), with cross-validation. The statistic T = ½hᵀ(H + (kλ/n)I)⁻¹h − ½ has its own kernel widths and
// regularisation, which must not depend on the labels: Settings.Sigma and
// Lambda when fixed, otherwise TestSigmaScales times the median heuristic of
// the pooled sample and kλ/n = TestLambdaScale. With several widths, each
// width's T is standardised by the mean and standard deviation of its values
// over the observed and permuted labellings, and the statistic is the
// largest of them. It uses k centres drawn from
// the pooled sample and held fixed, and averages over M points of the pooled
// sample, M_P of them labelled P and M_Q labelled Q in the proportion
// α : 1−α (so that H = αG_P/M_P + (1−α)G_Q/M_Q is the same for every
// labelling and is factorised once; for α = 0 it is refactorised each time). A permutation reassigns the labels of those points at random,
// keeping M_P and M_Q. Under the null hypothesis the pooled points are
// exchangeable, so the observed T is one draw from the permutation
// distribution of a fixed function of the pooled sample and the labels. The
// centres and the median heuristic's rows (up to 1000) are drawn uniformly
// from the pooled sample, whatever their labels, so relabelling the
// averaging points acts as a permutation of the data among them that leaves
// the distribution of data, centres and width rows unchanged: the p-value
// (1 + #{T_b ≥ T})/(1 + B) is exact. When α > 0
// and the samples are unbalanced, keeping the proportion α : 1−α limits M to
// about n_P/α: a warning says so, and α = 0 (PlainPearson) uses the whole
// budget. Each permutation costs O(M·k)
// and two triangular solves (O(M·k²) and a factorisation for α = 0),
// whatever the number of rows.
func TwoSampleTest(ctx context.Context, p, q mat.Matrix, s *Settings) (*TwoSampleResult, error) {
	if s == nil {
		s = &Settings{}
	}
	// The estimate is RelativePE's own, on the same settings and source;
	// the test draws from a generator seeded after it.
	sPE := *s
	sPE.Progress = nil
	if sPE.Src == nil {
		sPE.Src = s.source()
	}
	pe, err := RelativePE(ctx, p, q, &sPE)
	if err != nil {
		return nil, err
	}
	pp, qq, err := newTwoSamples(p, q) // RelativePE has validated them
	if err != nil {
		return nil, err
	}
	rnd := rand.New(sPE.Src)
	res, err := twoSample(ctx, pp, qq, pe.Alpha, s, rand.New(rand.NewPCG(rnd.Uint64(), rnd.Uint64())))
	if err != nil {
		return nil, err
	}
	res.PE = pe
	return res, nil
}

// twoSample is the permutation test of TwoSampleTest on validated samples,
// without the estimate.
func twoSample(ctx context.Context, pp, qq *points, alpha float64, s *Settings, rnd *rand.Rand) (*TwoSampleResult, error) {
	// Internal units: the data divided by the median heuristic (or the
	// fixed σ, the only width then).
	widths := TestSigmaScales
	scale := s.Sigma
	if scale == 0 {
		// The width's rows are drawn uniformly from the pooled sample,
		// whatever their labels, as the centres are (see TwoSampleTest).
		pooled := indices.Sample(pp.n+qq.n, min(pp.n+qq.n, kernel.DefaultMedianPoints), false, rnd)
		var pr, qr []int
		for _, r := range pooled {
			if r < pp.n {
				pr = append(pr, r)
			} else {
				qr = append(qr, r-pp.n)
			}
		}
		sc, err := medianScaleOf(rnd, []*points{pp, qq}, [][]int{pr, qr})
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
	np, nq := pp.n, qq.n
	k := min(s.k(), (np+nq)/2)
	centres := indices.Sample(np+nq, k, false, rnd)
	c := mat.NewDense(k, pp.dim, nil)
	if err := pooledRows(c, pp, qq, centres); err != nil {
		return nil, err
	}
	mp, mq := testBudget(s.m(), np, nq, alpha)
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
	ridge := testRidge(s, k, pp.pop)
	stats := make([]*twoSampleStat, len(widths))
	res := &TwoSampleResult{Lambda: ridge * float64(pp.pop) / float64(k), Permutations: s.permutations(), K: k, M: m}
	if avail := min(s.m(), np+nq); alpha > 0 && 2*m < avail {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the test averages over %d of the %d points its budget allows: with α = %g and samples of %d and %d rows, the proportion α : 1−α caps it; α = 0 uses every point", m, avail, alpha, np, nq))
	}
	for j, w := range widths {
		// Kernel values of every averaging point, a column per point: P's
		// first, then Q's.
		phiT := mat.NewDense(k, m, nil)
		g := kernel.Gaussian{Sigma: w}
		g.MatrixTo(phiT.Slice(0, k, 0, len(ep)).(*mat.Dense), c, xe)
		g.MatrixTo(phiT.Slice(0, k, len(ep), m).(*mat.Dense), c, ye)
		gTot := mat.NewSymDense(k, nil)
		kernel.AddGram(gTot, phiT)
		st := &twoSampleStat{phi: mat.DenseCopyOf(phiT.T()), phiT: phiT, gTot: gTot, mp: len(ep), mq: len(eq), alpha: alpha, ridge: ridge}
		if alpha > 0 {
			// With m_P : m_Q = α : 1−α, H = αG_P/m_P + (1−α)G_Q/m_Q = G/m
			// for every labelling: factorise it once. (With rounding, the
			// statistic is that of α′ = m_P/m.)
			h := mat.NewSymDense(k, nil)
			h.ScaleSym(1/float64(m), gTot)
			st.fixed = newRidgeSolver(h)
			if !st.fixed.factor(ridge) {
				return nil, fmt.Errorf("divergence: %w: the test's regularised matrix is not positive definite (kλ/n = %g)", ErrNonFinite, ridge)
			}
		}
		stats[j] = st
		res.Sigmas = append(res.Sigmas, w*scale)
	}
	stat := make([]permStat, len(stats))
	for j, st := range stats {
		stat[j] = st
	}
	res.Statistic, res.Null, err = permutationTest(ctx, s, rnd, stat, m, func(prnd *rand.Rand, perm []int) {
		prnd.Shuffle(m, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	})
	if err != nil {
		return nil, err
	}
	res.PValue = pValue(res.Statistic, res.Null)
	return res, nil
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

// testRidge returns the tests' kλ/n: from Settings.Lambda when fixed,
// otherwise TestLambdaScale.
func testRidge(s *Settings, k, n int) float64 {
	if s.Lambda != 0 {
		return float64(k) * s.Lambda / float64(n)
	}
	return TestLambdaScale
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
// averaging points.
type twoSampleStat struct {
	phi    *mat.Dense    // m × k kernel values, a row per averaging point
	phiT   *mat.Dense    // its transpose, a column per averaging point
	gTot   *mat.SymDense // their Gram matrix
	mp, mq int
	alpha  float64
	ridge  float64 // kλ/n
	// fixed, when not nil, is the factorisation of H + (kλ/n)I for every
	// labelling (α > 0 and m_P : m_Q = α : 1−α).
	fixed *ridgeSolver
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
	if t.fixed != nil {
		// h = mean of the kernel rows of the points labelled P.
		pr := t.phi.RawMatrix()
		clear(sc.hv)
		for _, c := range perm[:t.mp] {
			floats.Add(sc.hv, pr.Data[c*pr.Stride:c*pr.Stride+k])
		}
		floats.Scale(1/float64(t.mp), sc.hv)
		copy(sc.theta, sc.hv)
		t.fixed.solve(sc.theta)
		return floats.Dot(sc.hv, sc.theta)/2 - 0.5
	}
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

// ridgeValue returns ½hᵀ(H + λI)⁻¹h − ½, the value of PE or SMI, or +Inf
// when H + λI is not positive definite.
func ridgeValue(h *mat.SymDense, hv []float64, lambda float64) float64 {
	rs := newRidgeSolver(h)
	if !rs.factor(lambda) {
		return math.Inf(1)
	}
	theta := slices.Clone(hv)
	rs.solve(theta)
	return floats.Dot(hv, theta)/2 - 0.5
}

// IndependenceResult is the outcome of an independence test.
type IndependenceResult struct {
	// LSMI is the estimate of SMI(X, Y): LSMI's result on the same samples
	// and settings. Its cross-validated widths and λ are not the test's
	// (see SigmasX, SigmasY and Lambda).
	LSMI *LSMIResult
	// Statistic is the test statistic on the observed pairs. With one pair
	// of widths it is the SMI of a model with K centre pairs, with h
	// averaged over M pairs; with several (the default) it is the largest
	// of their SMIs standardised over the observed and permuted pairings, a
	// z-score (see TwoSampleTest).
	Statistic float64
	// SigmasX and SigmasY are the pairs of kernel widths of the statistic,
	// Lambda its all-centre regularisation.
	SigmasX, SigmasY []float64
	Lambda           float64
	// PValue is (1 + #{b : Null[b] ≥ Statistic}) / (1 + Permutations).
	PValue float64
	// Null holds the statistic under each permutation.
	Null []float64
	// Permutations is the number of permutations.
	Permutations int
	// K and M are the centres and averaged pairs of the statistic.
	K, M int
}

// IndependenceTest tests whether the variables whose paired values are the
// rows of x and y are independent, by a permutation test on an LSMI
// statistic.
//
// It first runs LSMI for the estimate (the same result as LSMI with the same
// settings), with cross-validation. The statistic
// T = ½hᵀ(H + (kλ/n)I)⁻¹h − ½ has its own widths and regularisation, which
// must not depend on the pairing: Settings.SigmaX, SigmaY and Lambda when
// fixed, otherwise TestSigmaScales times each variable's median heuristic,
// combined as in TwoSampleTest, and kλ/n = TestLambdaScale. It uses k centre
// pairs held fixed,
// h averaged over M/2 pairs (every pair when that reaches n), and H the
// product of the x-kernel average over M/2 rows and the y-kernel average over
// M/2 rows that are not among h's pairs (every row when M/2 reaches n). A
// permutation shuffles the y values among h's pairs, except centre rows. That
// leaves H unchanged (each factor averages over a set the permutation maps to
// itself), so H + (kλ/n)I is factorised once, and a permutation costs
// O(M·k + k²). Under independence every such shuffle leaves the distribution
// of the data unchanged, so the p-value (1 + #{T_b ≥ T})/(1 + B) is exact:
// y's median heuristic reads values no permutation moves (every row when
// n ≤ M/2, otherwise up to 500 of the y-factor's rows). Fixing only one of
// SigmaX and SigmaY gives the other variable its median heuristic as its
// single width.
func IndependenceTest(ctx context.Context, x, y mat.Matrix, s *Settings) (*IndependenceResult, error) {
	if s == nil {
		s = &Settings{}
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	px, py, err := newPairs(x, y)
	if err != nil {
		return nil, err
	}
	if err := s.checkExact(px.n, "rows"); err != nil {
		return nil, err
	}
	rnd := rand.New(s.source())
	if px, err = scaled(rnd, px, s.SigmaX); err != nil {
		return nil, err
	}
	if py, err = scaled(rnd, py, s.SigmaY); err != nil {
		return nil, err
	}
	return independenceTest(ctx, px, py, s, rnd, nil)
}

// independenceTest is IndependenceTest on validated samples at the scales of
// the estimate (see lsmi); sh, if not nil, is what a ranking's features
// share.
func independenceTest(ctx context.Context, px, py *points, s *Settings, rnd *rand.Rand, sh *lsmiShared) (*IndependenceResult, error) {
	// The estimate is LSMI's own, from rnd as LSMI would use it; the test
	// draws from a generator seeded after it.
	sl := *s
	sl.Progress = nil
	lr, err := lsmi(ctx, px, py, &sl, rnd, sh)
	if err != nil {
		return nil, err
	}
	res, err := independence(ctx, px, py, s, rand.New(rand.NewPCG(rnd.Uint64(), rnd.Uint64())))
	if err != nil {
		return nil, err
	}
	res.LSMI = lr
	return res, nil
}

// independence is the permutation test of IndependenceTest on validated
// samples, without the estimate.
func independence(ctx context.Context, px, py *points, s *Settings, rnd *rand.Rand) (*IndependenceResult, error) {
	// Internal units: each variable divided by its median heuristic (or by
	// its fixed width). The median heuristic of each variable does not
	// depend on the pairing.
	widths := TestSigmaScales
	if s.SigmaX != 0 || s.SigmaY != 0 {
		widths = []float64{1}
	}
	px, err := scaled(rnd, px, s.SigmaX) // x is never permuted
	if err != nil {
		return nil, err
	}
	n := px.n
	k := min(s.k(), n/2)
	centres := indices.Sample(n, k, false, rnd)
	half := max(1, s.m()/2)
	var pairs []int
	if half >= n {
		pairs = indices.AllOrSample(n, n, rnd)
	} else {
		pairs = indices.SampleExcept(n, half, centres, rnd)
	}
	isCentre := make(map[int]bool, k)
	for _, c := range centres {
		isCentre[c] = true
	}
	var movable []int // positions in pairs that a permutation may move
	for i, r := range pairs {
		if !isCentre[r] {
			movable = append(movable, i)
		}
	}
	var xRows, yRows []int
	if half >= n {
		xRows, yRows = indices.AllOrSample(n, n, rnd), indices.AllOrSample(n, n, rnd)
	} else {
		xRows, yRows = indices.Sample(n, half, false, rnd), indices.SampleExcept(n, half, pairs, rnd)
	}
	py = py.withScale(s.SigmaY)
	if s.SigmaY == 0 {
		// y's width from values no permutation moves, so that it is the
		// same for every pairing: every row when the pairs take every row
		// (a permutation only reorders them; n ≤ M/2), otherwise rows of
		// yRows, which are not among the pairs.
		rows := yRows
		if half < n {
			rows = yRows[:min(len(yRows), kernel.DefaultMedianPoints/2)]
		}
		sc, err := medianScaleOf(rnd, []*points{py}, [][]int{rows})
		if err != nil {
			return nil, err
		}
		py = py.withScale(sc)
	}
	u, err := px.rows(centres)
	if err != nil {
		return nil, err
	}
	v, err := py.rows(centres)
	if err != nil {
		return nil, err
	}
	xf, err := px.rows(xRows)
	if err != nil {
		return nil, err
	}
	yf, err := py.rows(yRows)
	if err != nil {
		return nil, err
	}
	xb, err := px.rows(pairs)
	if err != nil {
		return nil, err
	}
	yb, err := py.rows(pairs)
	if err != nil {
		return nil, err
	}
	ridge := testRidge(s, k, px.pop)
	res := &IndependenceResult{Lambda: ridge * float64(px.pop) / float64(k), Permutations: s.permutations(), K: k, M: len(pairs)}
	stats := make([]*independenceStat, len(widths))
	for j, w := range widths {
		g := kernel.Gaussian{Sigma: w}
		gx, gy := mat.NewSymDense(k, nil), mat.NewSymDense(k, nil)
		g.Moments(nil, gx, xf, u)
		g.Moments(nil, gy, yf, v)
		rs := newRidgeSolver(hadamard(gx, gy, 1/(float64(len(xRows))*float64(len(yRows)))))
		if !rs.factor(ridge) {
			return nil, fmt.Errorf("divergence: %w: the test's regularised matrix is not positive definite (kλ/n = %g)", ErrNonFinite, ridge)
		}
		// Kernel values of the pairs, a row per pair:
		// h = mean_i K[i,:] ∘ L[π(i),:].
		var kp, lp mat.Dense
		g.MatrixTo(&kp, xb, u)
		g.MatrixTo(&lp, yb, v)
		stats[j] = &independenceStat{k: &kp, l: &lp, rs: rs}
		res.SigmasX = append(res.SigmasX, w*px.scale)
		res.SigmasY = append(res.SigmasY, w*py.scale)
	}
	stat := make([]permStat, len(stats))
	for j, st := range stats {
		stat[j] = st
	}
	res.Statistic, res.Null, err = permutationTest(ctx, s, rnd, stat, len(pairs), func(prnd *rand.Rand, perm []int) {
		prnd.Shuffle(len(movable), func(i, j int) {
			a, b := movable[i], movable[j]
			perm[a], perm[b] = perm[b], perm[a]
		})
	})
	if err != nil {
		return nil, err
	}
	res.PValue = pValue(res.Statistic, res.Null)
	return res, nil
}

// independenceStat computes the independence statistic for a permutation
// of the y values among the pairs.
type independenceStat struct {
	k, l *mat.Dense // pairs × k: kernel values of each pair's x and y
	rs   *ridgeSolver
}

type independenceScratch struct {
	h, theta []float64
}

func (t *independenceStat) newScratch() any {
	_, k := t.k.Dims()
	return &independenceScratch{h: make([]float64, k), theta: make([]float64, k)}
}

// value returns T with y permuted by perm: h = mean_i K[i,:] ∘ L[perm[i],:],
// contiguous rows read in order, then one solve with the fixed factor.
func (t *independenceStat) value(perm []int, scratch any) float64 {
	sc := scratch.(*independenceScratch)
	m, k := t.k.Dims()
	kr, lr := t.k.RawMatrix(), t.l.RawMatrix()
	h := sc.h
	clear(h)
	for i, p := range perm {
		ki := kr.Data[i*kr.Stride : i*kr.Stride+k]
		lp := lr.Data[p*lr.Stride : p*lr.Stride+k]
		for c, v := range ki {
			h[c] += v * lp[c]
		}
	}
	floats.Scale(1/float64(m), h)
	copy(sc.theta, h)
	t.rs.solve(sc.theta)
	return floats.Dot(h, sc.theta)/2 - 0.5
}

// permStat is a test statistic at one kernel width: its value for a
// permutation of the design's points, with a worker's scratch buffers.
type permStat interface {
	newScratch() any
	value(perm []int, scratch any) float64
}

// permutationTest computes the statistics at every width for the observed
// labelling (the identity on n points) and for B permutations made by
// shuffle, combines them (see combine) and returns the combined statistic
// and its null distribution.
func permutationTest(ctx context.Context, s *Settings, rnd *rand.Rand, stats []permStat, n int, shuffle func(prnd *rand.Rand, perm []int)) (float64, []float64, error) {
	values := func(perm []int, sc any) []float64 {
		scs := sc.([]any)
		t := make([]float64, len(stats))
		for j, st := range stats {
			t[j] = st.value(perm, scs[j])
		}
		return t
	}
	newScratch := func() any {
		scs := make([]any, len(stats))
		for j, st := range stats {
			scs[j] = st.newScratch()
		}
		return scs
	}
	identity := indices.Range(n)
	observed := values(identity, newScratch())
	null, err := permutations(ctx, s, rnd, func(prnd *rand.Rand, sc any) []float64 {
		perm := slices.Clone(identity)
		shuffle(prnd, perm)
		return values(perm, sc)
	}, newScratch)
	if err != nil {
		return 0, nil, err
	}
	statistic, combined := combine(observed, null)
	return statistic, combined, nil
}

// permutations computes the statistics (one per kernel width) under B
// permutations on the workers, the b-th with its own generator seeded from
// (seed, b), so that the null distribution does not depend on scheduling.
// newScratch makes a worker's buffers. It reports progress and stops when
// ctx is cancelled.
func permutations(ctx context.Context, s *Settings, rnd *rand.Rand, stat func(*rand.Rand, any) []float64, newScratch func() any) ([][]float64, error) {
	b := s.permutations()
	seed := rnd.Uint64()
	null := make([][]float64, b)
	pool := sync.Pool{New: newScratch}
	var done atomic.Int64
	var mu sync.Mutex
	reported := 0 // the largest count reported, under mu: never backwards
	step := max(1, b/200)
	parallel.For(b, parallel.Workers(s.Workers), func(i int) {
		if ctx.Err() != nil {
			return
		}
		sc := pool.Get()
		null[i] = stat(rand.New(rand.NewPCG(seed, uint64(i))), sc)
		pool.Put(sc)
		if d := done.Add(1); s.Progress != nil && (d%int64(step) == 0 || d == int64(b)) {
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
// width, T is standardised by the mean and standard deviation of its B + 1
// values (the observed one included), and the statistic is the largest
// standardised value. Computed alike for the observed and every permuted
// labelling, from all B + 1 of them, it keeps the test exact, while letting
// the width that sees the difference best decide. With one width it is T
// itself; when no width's statistic varies over the labellings, it is 0 for
// all of them.
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
		sd := math.Sqrt(ss / n)
		if !(sd > 0) {
			continue // a width whose statistic never changes says nothing
		}
		for b, t := range all {
			z[b] = math.Max(z[b], (t[j]-mean)/sd)
		}
	}
	for b := range z {
		if math.IsInf(z[b], -1) {
			z[b] = 0 // no width's statistic varies: no evidence either way
		}
	}
	return z[0], z[1:]
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
