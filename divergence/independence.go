// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/kernel"
)

// IndependenceResult is the outcome of an independence test.
type IndependenceResult struct {
	// LSMI is the estimate of SMI(X, Y): LSMI's result on the same samples
	// and settings. Its cross-validated widths and λ are not the test's
	// (see SigmasX, SigmasY and Lambda).
	LSMI *LSMIResult
	// Statistic is the test statistic on the observed pairs. With one pair
	// of widths it is the SMI of a model with K centre pairs, with h
	// averaged over M pairs; with several (the default) it is the largest
	// of their SMIs standardised over the permuted pairings, a z-score
	// that converges as the number of permutations grows (see TwoSampleTest
	// and WidthSMI).
	Statistic float64
	// SigmasX and SigmasY are the pairs of kernel widths of the statistic,
	// Lambda its all-centre regularisation.
	SigmasX, SigmasY []float64
	Lambda           float64
	// PValue is (1 + #{b : Null[b] ≥ Statistic}) / (1 + Permutations).
	PValue float64
	// PValueLow and PValueHigh are the 95% Clopper–Pearson interval, from
	// the number of exceedances, for the p-value that infinitely many
	// permutations would give: PValue's Monte Carlo uncertainty.
	PValueLow, PValueHigh float64
	// WidthSMI holds the statistic's T at each pair of widths on the
	// observed pairs: the SMI of the test's model at those widths, an
	// effect size that does not depend on Permutations.
	WidthSMI []float64
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
// must not depend on the pairing: SigmaX, SigmaY and Lambda of s when
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
func IndependenceTest(ctx context.Context, x, y mat.Matrix, s *IndependenceSettings) (*IndependenceResult, error) {
	if s == nil {
		s = &IndependenceSettings{}
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	px, py, rnd, err := scaledPairs(x, y, &s.LSMISettings)
	if err != nil {
		return nil, err
	}
	return independenceTest(ctx, px, py, s, rnd, nil)
}

// independenceTest is IndependenceTest on validated samples at the scales of
// the estimate (see lsmi); sh, if not nil, is what a ranking's features
// share.
func independenceTest(ctx context.Context, px, py *points, s *IndependenceSettings, rnd *rand.Rand, sh *lsmiShared) (*IndependenceResult, error) {
	// The estimate is LSMI's own, from rnd as LSMI would use it; the test
	// draws from a generator seeded after it.
	sl := s.LSMISettings
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
func independence(ctx context.Context, px, py *points, s *IndependenceSettings, rnd *rand.Rand) (*IndependenceResult, error) {
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
	ridge := testRidge(s.Lambda, k, px.pop)
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
	res.Statistic, res.Null, res.WidthSMI, err = permutationTest(ctx, s.permutations(), &s.Settings, rnd, stat, len(pairs), func(prnd *rand.Rand, perm []int) {
		prnd.Shuffle(len(movable), func(i, j int) {
			a, b := movable[i], movable[j]
			perm[a], perm[b] = perm[b], perm[a]
		})
	})
	if err != nil {
		return nil, err
	}
	res.PValue = pValue(res.Statistic, res.Null)
	res.PValueLow, res.PValueHigh = pValueInterval(res.Statistic, res.Null)
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
