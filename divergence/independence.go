// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/isnil"
	"github.com/sublinear/pearson/kernel"
)

// PermutationLSMIRidge is the independence test's ρ, the regularisation of its
// k²-function problem (docs/DESIGN.md §5.2), unless Settings.Lambda is
// fixed: the largest of DefaultLSMILambdaScales, on whose scale it is.
const PermutationLSMIRidge = 1e-3

// IndependenceResult is the outcome of an independence test.
type IndependenceResult struct {
	// LSMI is the estimate of SMI(X, Y): LSMI's result on the same samples
	// and settings. Its cross-validated widths and λ are not the test's
	// (see SigmasX, SigmasY and Lambda).
	LSMI *LSMIResult
	// Statistic is the test statistic on the observed pairs. With one pair
	// of widths it is the SMI of a product-basis model with K x-centres
	// and K y-centres, with h averaged over M pairs; with several (the default) it is the largest
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
	// K is the number of x-centres, and of y-centres, of the statistic
	// (K² basis functions); M the number of pairs h averages over.
	K, M int
}

// IndependenceTest tests whether the variables whose paired values are the
// rows of x and y are independent, by a permutation test on an LSMI
// statistic.
//
// It first runs LSMI for the estimate (the same result as LSMI with the same
// settings), with cross-validation. The statistic is the SMI of the product
// basis of docs/DESIGN.md §3 on a design fixed across permutations,
//
//	T = ½ hᵀ(Hx⊗Hy + ρI)⁻¹h − ½ = ½ Σ_ab h̃_ab² / (λx_a λy_b + ρ) − ½,  h̃ = Uxᵀ h Uy,
//
// with k = ⌈√K⌉ x-centres and k y-centres drawn independently of each other
// (k² ≈ K basis functions), h averaged over M/2 pairs (every pair when that
// reaches n), Hx over M/2 rows and Hy over M/2 rows that are not among h's
// pairs (every row when M/2 reaches n). Its widths and regularisation must
// not depend on the pairing: SigmaX, SigmaY and Lambda of s when fixed
// (ρ = (k/N)²λ), otherwise PermutationSigmaScales times each variable's median
// heuristic, combined as in TwoSampleTest, and ρ = PermutationLSMIRidge. A
// permutation shuffles the y values among all of h's pairs. The y-centres
// keep their values, and H reads x (never permuted) and y values that a
// permutation does not move or only reorders, so the eigendecompositions
// are made once and a permutation costs O(M·k²) = O(M·K). Under
// independence a shuffle of the y values, with the y-centres' rows drawn
// uniformly and independently of the x-centres, leaves the distribution of
// the whole design unchanged, so the p-value (1 + #{T_b ≥ T})/(1 + B) is
// exact: y's median heuristic reads values no permutation moves (every row
// when n ≤ M/2, otherwise up to 500 of the y-factor's rows). Fixing one of
// SigmaX and SigmaY (a class target coded by ClassCodes, say) keeps it at
// every width of the other.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func IndependenceTest(ctx context.Context, x, y mat.Matrix, s *IndependenceSettings) (*IndependenceResult, error) {
	isnil.Context(ctx, "divergence.IndependenceTest")
	if s == nil {
		s = &IndependenceSettings{}
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	s = s.resolved()
	px, py, rnd, err := scaledPairs(x, y, &s.LSMISettings)
	if err != nil {
		return nil, err
	}
	res, err := independenceTest(ctx, px, py, s, rnd, nil)
	if err != nil {
		return nil, err
	}
	return res, res.LSMI.addSpreadWarnings(px, py)
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
	// Each variable's width runs over PermutationSigmaScales unless fixed; when
	// both are free they move together.
	widths := PermutationSigmaScales()
	if s.SigmaX != 0 && s.SigmaY != 0 {
		widths = []float64{1}
	}
	side := func(fixed, w float64) float64 {
		if fixed != 0 {
			return 1
		}
		return w
	}
	px, err := scaled(rnd, px, s.SigmaX) // x is never permuted
	if err != nil {
		return nil, err
	}
	n := px.n
	k := testCentres(s.K, n)
	// x-centres and y-centres from rows drawn independently: a pair that
	// were both would give its own row a kernel value of 1 on each side,
	// which no permutation of the y values reproduces.
	centresX := indices.Sample(n, k, false, rnd)
	centresY := indices.Sample(n, k, false, rnd)
	half := max(1, s.M/2)
	pairs := indices.AllOrSample(n, half, rnd)
	var xRows, yRows []int
	if half >= n {
		xRows, yRows = pairs, pairs
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
	u, err := px.rows(centresX)
	if err != nil {
		return nil, err
	}
	v, err := py.rows(centresY)
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
	ridge := PermutationLSMIRidge
	if s.Lambda != 0 {
		ridge = float64(k) * float64(k) * s.Lambda / float64(px.pop) / float64(px.pop)
	}
	res := &IndependenceResult{Lambda: ridge * float64(px.pop) * float64(px.pop) / float64(k) / float64(k), Permutations: s.Permutations, K: k, M: len(pairs)}
	stats := make([]permStat, len(widths))
	for j, w := range widths {
		wx, wy := side(s.SigmaX, w), side(s.SigmaY, w)
		st, err := newProductStat(kernel.Gaussian{Sigma: wx}, kernel.Gaussian{Sigma: wy}, xf, yf, xb, yb, u, v, ridge)
		if err != nil {
			return nil, err
		}
		stats[j] = st
		res.SigmasX = append(res.SigmasX, wx*px.scale)
		res.SigmasY = append(res.SigmasY, wy*py.scale)
	}
	res.Statistic, res.Null, res.WidthSMI, _, err = permutationTest(ctx, s.Permutations, &s.Settings, rnd, singles(stats), len(pairs), 0, func(prnd *rand.Rand, perm []int) {
		prnd.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	})
	if err != nil {
		return nil, err
	}
	res.PValue = pValue(res.Statistic, res.Null)
	res.PValueLow, res.PValueHigh = pValueInterval(res.Statistic, res.Null)
	return res, nil
}

// testCentres returns the number of x-centres (and of y-centres) of the
// independence test: ⌈√K⌉, so that the product basis has about K
// functions and a permutation costs O(M·K), at most n.
func testCentres(k, n int) int {
	return min(int(math.Ceil(math.Sqrt(float64(k)))), n)
}

// productStat computes the independence statistic for a permutation of the
// y values among the pairs, in the eigenbases of the two factors of H.
type productStat struct {
	kt, lt *mat.Dense // pairs × k: kernel values of each pair's x (y) times Ux (Uy)
	x, y   eigenSide
	ridge  float64
}

// newProductStat returns the statistic with the Gaussian kernels g on x and
// l on y, x-centres u and y-centres v: Hx averages over the rows xf, Hy
// over yf, and h over the pairs (xb, yb).
func newProductStat(g, l kernel.Gaussian, xf, yf, xb, yb, u, v *mat.Dense, ridge float64) (*productStat, error) {
	k, _ := u.Dims()
	nx, _ := xf.Dims()
	ny, _ := yf.Dims()
	gx, gy := mat.NewSymDense(k, nil), mat.NewSymDense(k, nil)
	g.Moments(nil, gx, xf, u)
	l.Moments(nil, gy, yf, v)
	gx.ScaleSym(1/float64(nx), gx)
	gy.ScaleSym(1/float64(ny), gy)
	ex, err := newEigenSide(gx)
	if err != nil {
		return nil, err
	}
	ey, err := newEigenSide(gy)
	if err != nil {
		return nil, err
	}
	var kp, lp mat.Dense
	g.MatrixTo(&kp, xb, u)
	l.MatrixTo(&lp, yb, v)
	st := &productStat{kt: &mat.Dense{}, lt: &mat.Dense{}, x: ex, y: ey, ridge: ridge}
	st.kt.Mul(&kp, ex.u)
	st.lt.Mul(&lp, ey.u)
	return st, nil
}

func (t *productStat) newScratch() any {
	_, k := t.kt.Dims()
	return mat.NewDense(k, k, nil)
}

// value returns T with y permuted by perm:
// h̃ = mean_i (K̃[i,:])ᵀ L̃[perm[i],:], an outer product per pair, then T from
// the fixed eigenvalues (kronValue).
func (t *productStat) value(perm []int, scratch any) float64 {
	h := scratch.(*mat.Dense)
	h.Zero()
	m, k := t.kt.Dims()
	hr := h.RawMatrix()
	for i, p := range perm {
		ki, lp := t.kt.RawRowView(i), t.lt.RawRowView(p)
		for a, c := range ki {
			floats.AddScaled(hr.Data[a*hr.Stride:a*hr.Stride+k], c, lp)
		}
	}
	h.Scale(1/float64(m), h)
	val, _ := kronValue(h, t.x, t.y, t.ridge)
	return val
}
