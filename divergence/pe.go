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

	"github.com/sublinear/pearson/crossval"
	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/summary"
	"github.com/sublinear/pearson/kernel"
)

// PEResult is an estimate of the α-relative Pearson divergence.
type PEResult struct {
	// PE is the estimate of PE_α(P‖Q): the mean over the draws, or the
	// all-centre value when Exact.
	PE float64
	// StdErr is the standard error of PE over the draws (zero for a single
	// draw, and for Exact).
	StdErr float64
	// Draws holds each draw's value.
	Draws []float64
	// PlugIn is RuLSIF's plug-in form hᵀθ − ½θᵀHθ − ½ of the same fit,
	// which exceeds PE by (λ/2)‖θ‖².
	PlugIn float64
	// Alpha, Sigma and Lambda are α, the kernel width σ and the all-centre
	// regularisation λ used.
	Alpha, Sigma, Lambda float64
	// K is the number of centres per draw; M the number of points averaged
	// per draw (both samples together; every row of both, read, for exact
	// averages).
	K, M int
	// NP and NQ are the numbers of rows of the two samples (of the data sets
	// they stand for, for a Subsample).
	NP, NQ int
	// Exact reports the all-centre solution rather than the estimate.
	Exact bool
	// CV is the cross-validation table: rows are kernel widths σ, columns
	// all-centre regularisations λ. Nil when both were fixed.
	CV *crossval.Table[float64]
	// Warnings describe doubts about the result, such as a cross-validated
	// optimum on the edge of its grid.
	Warnings []string
	// Ratio is the fitted relative density ratio r̂_α.
	Ratio *Ratio
}

// RelativePE estimates the α-relative Pearson divergence
//
//	PE_α(P‖Q) = ½ E_{q_α}[(r_α − 1)²],  r_α = p/q_α,  q_α = αp + (1 − α)q,
//
// between the distributions of the rows of p (the numerator sample, n rows)
// and q (the denominator sample, n′ rows), which must have the same number of
// columns (Column and Rows wrap plain slices). The model
// g(x) = Σ_l θ_l φ(x, c_l) has Gaussian kernels centred on numerator points,
// and
//
//	H_lm = α/n Σᵢ φ(xᵢ,c_l)φ(xᵢ,c_m) + (1−α)/n′ Σⱼ φ(yⱼ,c_l)φ(yⱼ,c_m),
//	h_l  = 1/n Σᵢ φ(xᵢ,c_l),
//	PE   = ½ hᵀ(H + λI)⁻¹h − ½.
//
// With every numerator point a centre this is RuLSIF's estimator (in the
// form of Hayashi & Yoshida, which is lower than hᵀθ − ½θᵀHθ − ½ by
// (λ/2)‖θ‖²). RelativePE computes it in constant time by Algorithm 1 of the
// paper (see package qmin): each draw takes k centres at random and the
// kernel averages over m points drawn independently of them, solves the
// k-centre problem with regularisation kλ/n, and the estimate is the mean
// over the draws. σ and λ are chosen by 5-fold cross-validation on centres
// and averaging points of the same budget, unless fixed. See PESettings for
// the options, and Settings.Exact for the all-centre value itself.
//
// α ∈ [0, 1) is part of the quantity estimated: DefaultAlpha (½) is the
// recommended value, whose ratio is bounded by 1/α = 2; α = 0 is the plain
// Pearson divergence, whose ratio p/q is unbounded.
//
// Only the rows drawn are read, and each is checked as it is read: a NaN or
// infinite value gives a *DataError; a setting out of range gives a
// *SettingsError. s may be nil: all defaults.
func RelativePE(ctx context.Context, p, q mat.Matrix, alpha float64, s *PESettings) (*PEResult, error) {
	if s == nil {
		s = &PESettings{}
	}
	if err := checkAlpha(alpha); err != nil {
		return nil, err
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	pp, qq, err := newTwoSamples(p, q)
	if err != nil {
		return nil, err
	}
	if err := s.checkExact(pp.n, "numerator points"); err != nil {
		return nil, err
	}
	rnd := rand.New(s.source())

	// Work at unit scale: the data divided by the median heuristic, or by
	// the fixed σ.
	scale := s.Sigma
	if scale == 0 {
		if scale, err = medianScale(rnd, pp, qq); err != nil {
			return nil, err
		}
	}
	pp, qq = pp.withScale(scale), qq.withScale(scale)
	m := &peModel{p: pp, q: qq, alpha: alpha}

	res := &PEResult{Alpha: m.alpha, NP: pp.pop, NQ: qq.pop, Exact: s.Exact}
	sigma := s.Sigma / scale // internal units
	lambdaN := s.Lambda / float64(pp.pop)
	if s.Sigma == 0 || s.Lambda == 0 {
		t, stops, err := m.crossValidate(ctx, s, rnd)
		if err != nil {
			return nil, err
		}
		bs, bl := t.Best()
		if s.Sigma == 0 {
			sigma = bs[0]
		}
		if s.Lambda == 0 {
			lambdaN = bl
		}
		ut := userTable(t, []float64{scale}, float64(pp.pop))
		res.Warnings = append(res.Warnings, gridWarnings(ut, stops, []string{"kernel width σ"}, true)...)
		res.CV = &crossval.Table[float64]{Cols: ut.Cols, Scores: ut.Scores, BestRow: ut.BestRow, BestCol: ut.BestCol}
		for _, r := range ut.Rows {
			res.CV.Rows = append(res.CV.Rows, r[0])
		}
	}
	m.g = kernel.Gaussian{Sigma: sigma}
	res.Sigma = sigma * scale
	res.Lambda = lambdaN * float64(pp.pop)

	k := min(s.k(), pp.n)
	draws := s.draws()
	m.mp, m.mq = splitBudget(s.m(), pp.n, qq.n)
	if k == pp.n && s.WithoutReplacement && m.mp == pp.n && m.mq == qq.n {
		draws = 1 // every draw would be the same
	}
	if s.Exact {
		k, m.mp, m.mq, draws = pp.n, pp.n, qq.n, 1
	}
	o := &oracle{n: pp.n, lambdaN: lambdaN, moments: m.moments}
	f, err := o.solve(ctx, k, draws, !s.WithoutReplacement, s.Exact, rand.NewPCG(rnd.Uint64(), rnd.Uint64()), s.Workers)
	if err != nil {
		return nil, err
	}
	res.PE, res.StdErr, res.Draws = f.mean, f.stderr, f.values
	res.PlugIn, _ = summary.MeanStdErr(f.plugin)
	res.K, res.M = k, m.mp+m.mq
	res.Ratio, err = m.ratio(f)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// splitBudget divides m averaging points between the two samples: half
// each, the share a sample cannot use going to the other, every point of
// both when m ≥ n + n′.
func splitBudget(m, np, nq int) (mp, mq int) {
	if m >= np+nq {
		return np, nq
	}
	mq = min(nq, max(1, m/2))
	mp = min(np, max(1, m-mq))
	mq = min(nq, max(1, m-mp))
	return mp, mq
}

// peModel is the RuLSIF problem of docs/DESIGN.md §2: centres are numerator
// points, averages over mp numerator and mq denominator points per draw
// (every point when mp, mq are the sample sizes).
type peModel struct {
	p, q   *points
	alpha  float64
	g      kernel.Gaussian // width in internal units
	mp, mq int
}

// moments returns H and h for the centres idx (rows of P).
func (m *peModel) moments(idx []int, rnd *rand.Rand) (*mat.SymDense, []float64, error) {
	c, err := m.p.rows(idx)
	if err != nil {
		return nil, nil, err
	}
	k := len(idx)
	h := make([]float64, k)
	var gp *mat.SymDense
	if m.alpha > 0 {
		gp = mat.NewSymDense(k, nil)
	}
	np, err := m.p.moments(h, gp, m.g, c, m.mp, rnd)
	if err != nil {
		return nil, nil, err
	}
	gq := mat.NewSymDense(k, nil)
	nq, err := m.q.moments(nil, gq, m.g, c, m.mq, rnd)
	if err != nil {
		return nil, nil, err
	}
	gq.ScaleSym((1-m.alpha)/float64(nq), gq)
	if gp != nil {
		gp.ScaleSym(m.alpha/float64(np), gp)
		gq.AddSym(gq, gp)
	}
	floats.Scale(1/float64(np), h)
	return gq, h, nil
}

// crossValidate chooses σ (internal units) and λ/N by k-fold
// cross-validation on kcv centres drawn from P and averaging points drawn
// from the rest of P and from Q, within the averaging budget. Table rows are
// returned in internal units and columns as λ/N; the caller converts.
func (m *peModel) crossValidate(ctx context.Context, s *PESettings, rnd *rand.Rand) (*crossval.Table[[]float64], []edgeStop, error) {
	folds := s.folds()
	// Centres: at most half the numerator sample, so that the rest can be
	// averaged over; averaging points never include a centre, whose kernel
	// value with itself would favour narrow kernels.
	kcv := min(s.k(), m.p.n/2)
	centreRows := indices.Sample(m.p.n, kcv, false, rnd)
	mp, mq := splitBudget(s.m(), m.p.n-kcv, m.q.n)
	pRows := indices.SampleExcept(m.p.n, mp, centreRows, rnd)
	qRows := indices.SampleExcept(m.q.n, mq, nil, rnd)
	for _, side := range []struct {
		name string
		n    int
	}{{"P", len(pRows)}, {"Q", len(qRows)}} {
		if side.n < folds {
			return nil, nil, fmt.Errorf("divergence: %w: %s leaves %d points for %d cross-validation folds (fix σ and λ, or use fewer folds)", ErrTooFew, side.name, side.n, folds)
		}
	}
	c, err := m.p.rows(centreRows)
	if err != nil {
		return nil, nil, err
	}
	xp, err := foldBlocks(m.p, pRows, folds)
	if err != nil {
		return nil, nil, err
	}
	xq, err := foldBlocks(m.q, qRows, folds)
	if err != nil {
		return nil, nil, err
	}
	// λ/N = (kλ/N)/kcv: the grid of kλ/N values for the kcv-centre problem.
	lambdas := scaleAll(grid(s.LambdaScales, DefaultLambdaScales), 1/float64(kcv))
	if s.Lambda != 0 {
		lambdas = []float64{s.Lambda / float64(m.p.pop)}
	}
	sigmas := grid(s.SigmaScales, DefaultSigmaScales)
	if s.Sigma != 0 {
		sigmas = []float64{1} // internal units: the fixed σ is the scale
	}
	g := searchGrid{
		axes:        [][]float64{sigmas},
		widen:       []bool{s.SigmaScales == nil},
		lambdas:     lambdas,
		widenLambda: s.LambdaScales == nil,
		ridgeFactor: float64(kcv), // the kcv-centre problem's own regularisation is kcv·λ/N
	}
	return g.search(ctx, s.Workers, func(_ context.Context, w []float64) (func(float64) float64, error) {
		return peScores(m.foldStats(kernel.Gaussian{Sigma: w[0]}, c, xp, xq)), nil
	})
}

// foldStats computes, for one kernel width, the training and held-out
// moments of every fold.
func (m *peModel) foldStats(g kernel.Gaussian, c *mat.Dense, xp, xq []*mat.Dense) []foldStats {
	k, _ := c.Dims()
	folds := len(xp)
	gp := make([]*mat.SymDense, folds)
	gq := make([]*mat.SymDense, folds)
	hp := make([][]float64, folds)
	np := make([]float64, folds)
	nq := make([]float64, folds)
	totP, totQ := mat.NewSymDense(k, nil), mat.NewSymDense(k, nil)
	totH := make([]float64, k)
	var tp, tq float64
	for f := range folds {
		gp[f], gq[f], hp[f] = mat.NewSymDense(k, nil), mat.NewSymDense(k, nil), make([]float64, k)
		g.Moments(hp[f], gp[f], xp[f], c)
		g.Moments(nil, gq[f], xq[f], c)
		r, _ := xp[f].Dims()
		np[f] = float64(r)
		r, _ = xq[f].Dims()
		nq[f] = float64(r)
		totP.AddSym(totP, gp[f])
		totQ.AddSym(totQ, gq[f])
		floats.Add(totH, hp[f])
		tp += np[f]
		tq += nq[f]
	}
	combine := func(gpf, gqf *mat.SymDense, hf []float64, npf, nqf float64) (*mat.SymDense, []float64) {
		h := mat.NewSymDense(k, nil)
		h.ScaleSym((1-m.alpha)/nqf, gqf)
		if m.alpha > 0 {
			t := mat.NewSymDense(k, nil)
			t.ScaleSym(m.alpha/npf, gpf)
			h.AddSym(h, t)
		}
		v := make([]float64, k)
		floats.ScaleTo(v, 1/npf, hf)
		return h, v
	}
	stats := make([]foldStats, folds)
	for f := range folds {
		trP, trQ := mat.NewSymDense(k, nil), mat.NewSymDense(k, nil)
		trP.ScaleSym(-1, gp[f])
		trP.AddSym(totP, trP)
		trQ.ScaleSym(-1, gq[f])
		trQ.AddSym(totQ, trQ)
		trH := make([]float64, k)
		floats.SubTo(trH, totH, hp[f])
		stats[f].gTr, stats[f].hTr = combine(trP, trQ, trH, tp-np[f], tq-nq[f])
		stats[f].gTe, stats[f].hTe = combine(gp[f], gq[f], hp[f], np[f], nq[f])
	}
	return stats
}
