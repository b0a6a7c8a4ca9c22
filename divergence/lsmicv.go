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

	"github.com/sublinear/pearson/crossval"
	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/kernel"
)

// lsmiCVCentres bounds the centres of LSMI's cross-validation on each
// variable: its grid has two width axes, and a fit of the product basis
// costs O(k³) per fold, width pair and λ. The regularisation chosen carries
// over to k centres through (k/n)²λ.
const lsmiCVCentres = 32

// lsmiWidenNoise is the number of standard errors of the folds' scatter by
// which a gain towards an edge of LSMI's grid must exceed it for the grid
// to widen (see searchGrid.noise). Under independence the score is flat up
// to noise, and without this test the grid of a feature that does not
// matter wanders to its limits, at three times the cost of the grid it
// started from.
const lsmiWidenNoise = 1

// lsmiCV is the design of LSMI's cross-validation: kcv centre rows and
// averaging rows (none a centre) split into folds, with the kernel statistics
// of y cached per width. Rank draws one design for every feature, so that
// the target's statistics are computed once and the features are compared
// on the same rows.
type lsmiCV struct {
	kcv        int
	centreRows []int
	rows       []int
	folds      int
	counts     []float64                             // rows per fold
	y          func(sigma float64) (lsmiAxis, error) // per width, computed once
}

// newLSMICV draws the design over the rows of y, which must be scaled.
func newLSMICV(py *points, s *Settings, rnd *rand.Rand) (*lsmiCV, error) {
	folds := s.Folds
	n := py.n
	kcv := min(s.K, lsmiCVCentres, n/2)
	d := &lsmiCV{kcv: kcv, folds: folds}
	d.centreRows = indices.Sample(n, kcv, false, rnd)
	d.rows = indices.SampleExcept(n, max(1, s.M/2), d.centreRows, rnd)
	if len(d.rows) < folds {
		return nil, fmt.Errorf("divergence: %w: %d rows leave %d pairs for %d cross-validation folds (fix the widths and λ, or use fewer folds)", ErrTooFew, n, len(d.rows), folds)
	}
	v, err := py.rows(d.centreRows)
	if err != nil {
		return nil, err
	}
	yf, err := foldBlocks(py, d.rows, folds)
	if err != nil {
		return nil, err
	}
	for _, b := range yf {
		r, _ := b.Dims()
		d.counts = append(d.counts, float64(r))
	}
	d.y = newAxisCache(yf, v, d.counts)
	return d, nil
}

// lsmiAxis holds, for one kernel width on one variable, each fold's kernel
// values (transposed: a row per centre), the eigendecomposition of its
// training Gram average (every other fold), and its held-out Gram average
// written in that eigenbasis.
type lsmiAxis struct {
	kt    []*mat.Dense
	train []eigenSide
	test  []*mat.Dense
}

// newAxisCache returns, for a kernel width, each fold's lsmiAxis, computed
// once per width however many rows of the grid share it and whichever
// goroutine asks first.
func newAxisCache(blocks []*mat.Dense, centres *mat.Dense, counts []float64) func(sigma float64) (lsmiAxis, error) {
	cache := newMemo[float64, lsmiAxis]()
	return func(sigma float64) (lsmiAxis, error) {
		return cache.get(sigma, func() (lsmiAxis, error) { return axisOf(sigma, blocks, centres, counts) })
	}
}

// axisOf computes each fold's lsmiAxis for one width.
func axisOf(sigma float64, blocks []*mat.Dense, centres *mat.Dense, counts []float64) (lsmiAxis, error) {
	k, _ := centres.Dims()
	g := kernel.Gaussian{Sigma: sigma}
	a := lsmiAxis{}
	tot := mat.NewSymDense(k, nil)
	var grams []*mat.SymDense
	total := 0.0
	for f, b := range blocks {
		var kt mat.Dense
		g.MatrixTo(&kt, centres, b)
		gram := mat.NewSymDense(k, nil)
		kernel.AddGram(gram, &kt)
		tot.AddSym(tot, gram)
		a.kt = append(a.kt, &kt)
		grams = append(grams, gram)
		total += counts[f]
	}
	for f, gram := range grams {
		tr := mat.NewSymDense(k, nil)
		tr.ScaleSym(-1, gram)
		tr.AddSym(tot, tr)
		tr.ScaleSym(1/(total-counts[f]), tr)
		e, err := newEigenSide(tr)
		if err != nil {
			return lsmiAxis{}, err
		}
		var t, te mat.Dense
		t.Mul(e.u.T(), gram)
		te.Mul(&t, e.u)
		te.Scale(1/counts[f], &te)
		a.train = append(a.train, e)
		a.test = append(a.test, &te)
	}
	return a, nil
}

// crossValidate chooses (σx, σy) in internal units and λ/N by k-fold
// cross-validation on the design d. Each fold's held-out H is the product
// of its own two marginal averages, its h the mean over its pairs.
func (m *lsmiModel) crossValidate(ctx context.Context, s *LSMISettings, d *lsmiCV) (*crossval.Table[[]float64], []edgeStop, error) {
	u, err := m.x.rows(d.centreRows)
	if err != nil {
		return nil, nil, err
	}
	xf, err := foldBlocks(m.x, d.rows, d.folds)
	if err != nil {
		return nil, nil, err
	}
	cx := newAxisCache(xf, u, d.counts)
	// Columns are λ/N², the product basis's (k/N)²λ divided by k².
	kk := float64(d.kcv) * float64(d.kcv)
	lambdas := scaleAll(grid(s.LambdaScales, DefaultLSMILambdaScales()), 1/kk)
	if s.Lambda != 0 {
		lambdas = []float64{s.Lambda / float64(m.x.pop) / float64(m.x.pop)}
	}
	scales := grid(s.SigmaScales, DefaultLSMISigmaScales())
	axes := [][]float64{scales, scales}
	if s.SigmaX != 0 {
		axes[0] = []float64{1}
	}
	if s.SigmaY != 0 {
		axes[1] = []float64{1}
	}
	widen := s.SigmaScales == nil
	g := searchGrid{
		axes:        axes,
		widen:       []bool{widen, widen},
		lambdas:     lambdas,
		widenLambda: s.LambdaScales == nil,
		ridgeFactor: kk,
		noise:       lsmiWidenNoise,
		// Under independence a fit's held-out score differs from the
		// constant fit's by chance alone by about its number of
		// effective parameters over the rows: gains below 2/rows are
		// of that order.
		minGain: 2 / float64(len(d.rows)),
	}
	return g.search(ctx, s.Workers, func(_ context.Context, w []float64) (func(float64) []float64, error) {
		ax, err := cx(w[0])
		if err != nil {
			return nil, err
		}
		ay, err := d.y(w[1])
		if err != nil {
			return nil, err
		}
		return lsmiScores(ax, ay, d.counts), nil
	})
}

// lsmiScores returns each fold's held-out score of the product basis
// (docs/DESIGN.md §3) as a function of the regularisation ρ: in fold f, with
// the training factors Hx = Ux Λx Uxᵀ and Hy = Uy Λy Uyᵀ and the cross
// moment h (a k×k matrix over pairs of centres), θ̃ = Uxᵀ h_tr Uy ./ (λx⊗λy + ρ)
// and
//
//	score_f = ½ tr(θ̃ᵀ Ãx θ̃ Ãy) − ⟨Uxᵀ h_te Uy, θ̃⟩,
//
// Ãx, Ãy the held-out factors in the training eigenbases.
func lsmiScores(ax, ay lsmiAxis, counts []float64) func(ridge float64) []float64 {
	folds := len(counts)
	k, _ := ax.kt[0].Dims()
	cross := make([]*mat.Dense, folds)
	tot := mat.NewDense(k, k, nil)
	total := 0.0
	for f := range folds {
		cross[f] = mat.NewDense(k, k, nil)
		addCross(cross[f], ax.kt[f], ay.kt[f])
		tot.Add(tot, cross[f])
		total += counts[f]
	}
	htr, hte := make([]*mat.Dense, folds), make([]*mat.Dense, folds)
	for f := range folds {
		var tr mat.Dense
		tr.Sub(tot, cross[f])
		tr.Scale(1/(total-counts[f]), &tr)
		htr[f] = rotate(ax.train[f], ay.train[f], &tr)
		hte[f] = rotate(ax.train[f], ay.train[f], cross[f])
		hte[f].Scale(1/counts[f], hte[f])
	}
	return func(ridge float64) []float64 {
		score := make([]float64, folds)
		th := mat.NewDense(k, k, nil)
		left, right := mat.NewDense(k, k, nil), mat.NewDense(k, k, nil)
		for f := range folds {
			kronThetaTo(th, htr[f], ax.train[f], ay.train[f], ridge)
			left.Mul(ax.test[f], th)
			right.Mul(th, ay.test[f])
			score[f] = 0.5*denseDot(left, right) - denseDot(hte[f], th)
		}
		return score
	}
}

// denseDot returns Σ_ab a_ab·b_ab, the Frobenius inner product of two
// matrices of the same shape.
func denseDot(a, b *mat.Dense) float64 {
	r, _ := a.Dims()
	var s float64
	for i := range r {
		s += floats.Dot(a.RawRowView(i), b.RawRowView(i))
	}
	return s
}

// relevanceFactors are the factors of σx that relevanceX tries for each
// column of x: 4 makes a column count for less, 64 practically removes it
// (its kernel is then within 1/(2·64²) of constant over a standard
// deviation of the scaled data).
var relevanceFactors = []float64{0.5, 4, 64}

// relevanceX chooses a factor of the width σx per column of x (several
// columns, scaled), so that a column that carries no information about y
// stops diluting those that do (issue 24: with one width for all, an
// irrelevant third column took LSMI 41% below the truth). Starting from one
// width for all (every factor 1), it tries for each column in turn the
// factors relevanceFactors, cross-validating σx, σy and λ on one design
// drawn from rnd as LSMI's own cross-validation does, and keeps a factor
// when the best held-out score gains more than the noise floor of the
// search (2/rows, as searchGrid.minGain), relative as flatTolerance. Cost:
// 1 + 2d cross-validations of the x side (the y side is computed once), at
// most 2·maxRelevanceColumns + 1; independent of n. x of more columns than
// maxRelevanceColumns, or s.oneWidth, keeps one width.
func relevanceX(ctx context.Context, px, py *points, s *LSMISettings, rnd *rand.Rand) ([]float64, error) {
	if px.dim > maxRelevanceColumns || s.oneWidth {
		return nil, nil
	}
	cv, err := newLSMICV(py, &s.Settings, rnd)
	if err != nil {
		return nil, err
	}
	score := func(f []float64) (float64, error) {
		m := &lsmiModel{x: px.withColumnFactors(f), y: py}
		t, _, err := m.crossValidate(ctx, s, cv)
		if err != nil {
			return 0, err
		}
		return t.Scores[t.BestRow][t.BestCol], nil
	}
	factors := make([]float64, px.dim)
	for j := range factors {
		factors[j] = 1
	}
	best, err := score(factors)
	if err != nil {
		return nil, err
	}
	minGain := 2 / float64(len(cv.rows))
	for j := range px.dim {
		if px.isCategory(j) {
			continue // the delta kernel has no width
		}
		base := factors[j]
		for _, f := range relevanceFactors {
			try := slices.Clone(factors)
			try[j] = base * f
			sc, err := score(try)
			if err != nil {
				return nil, err
			}
			if gain := best - sc; gain > minGain && gain > flatTolerance*math.Abs(best) {
				best, factors = sc, try
			}
		}
	}
	return factors, nil
}

// maxRelevanceColumns is the most columns of x for which relevanceX
// chooses a width per column.
const maxRelevanceColumns = 16
