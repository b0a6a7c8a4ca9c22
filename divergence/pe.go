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
	"github.com/sublinear/pearson/internal/isnil"
	"github.com/sublinear/pearson/internal/parallel"
	"github.com/sublinear/pearson/internal/summary"
	"github.com/sublinear/pearson/kernel"
)

// PEResult is an estimate of the α-relative Pearson divergence.
type PEResult struct {
	// PE is the estimate of PE_α(P‖Q): the mean over the draws, or the
	// all-centre value when Exact.
	PE float64
	// StdErr is the standard error of PE against PE_α of the distributions
	// the samples come from, covering every random choice: the spread of
	// the draws over √draws (when σ or λ is cross-validated each draw
	// refines them on its own random rows, so that the spread covers the
	// tuning), the share of the whole-budget choice that all draws share
	// (see tunedDraws), the sampling error of the data by the delta
	// method, and PlugIn − PE as an allowance for the regularisation's
	// bias, combined in quadrature (docs/DESIGN.md §4). Zero for Exact.
	StdErr float64
	// DrawStdErr is the part of StdErr from the draws alone: the spread of
	// the draws over √draws (zero for a single draw).
	DrawStdErr float64
	// DesignEffect is, for rows drawn in two stages (Subsample.Units), the
	// variance of the estimate's linearisation under that design over its
	// variance were the rows independent (docs/DESIGN.md §7), as
	// LSMIResult.DesignEffect: near 1 when the units are like random rows,
	// up to the rows per unit when each is far from one. StdErr includes
	// the excess. NaN, with a warning, when every kept row came from one
	// draw; zero for rows drawn independently.
	DesignEffect float64
	// Draws holds each draw's value.
	Draws []float64
	// PlugIn is RuLSIF's plug-in form hᵀθ − ½θᵀHθ − ½ of the same fit,
	// which exceeds PE by (λ/2)‖θ‖².
	PlugIn float64
	// Alpha, Sigma and Lambda are α, the kernel width σ and the all-centre
	// regularisation λ used: the medians over the draws when each draw
	// tuned its own.
	Alpha, Sigma, Lambda float64
	// DrawSigmas and DrawLambdas are each draw's σ and λ.
	DrawSigmas, DrawLambdas []float64
	// K is the number of centres per draw; M the number of points averaged
	// per draw (both samples together; every row of both, read, for exact
	// averages).
	K, M int
	// NP and NQ are the numbers of rows of the two samples (of the data sets
	// they stand for, for a Subsample).
	NP, NQ int
	// Exact reports the all-centre solution rather than the estimate.
	Exact bool
	// CV is the cross-validation table of the search on the whole
	// averaging budget (see RelativePE): rows are kernel widths σ, columns
	// all-centre regularisations λ; BestRow and BestCol mark the width and
	// λ of least held-out score, which each draw then refined on its own
	// rows among the neighbours on this grid (DrawSigmas, DrawLambdas).
	// Nil when both were fixed.
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
// and averaging points of the same budget, unless fixed: once over a
// self-widening grid, then refined by each draw on its own rows among the
// neighbours of that choice. See PESettings for
// the options, and Settings.Exact for the all-centre value itself.
//
// α ∈ [0, 1) is part of the quantity estimated: DefaultAlpha (½) is the
// recommended value, whose ratio is bounded by 1/α = 2; α = 0 is the plain
// Pearson divergence, whose ratio p/q is unbounded.
//
// Only the rows drawn are read, and each is checked as it is read: a NaN or
// infinite value gives a *DataError; a setting out of range gives a
// *SettingsError. s may be nil: all defaults.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func RelativePE(ctx context.Context, p, q mat.Matrix, alpha float64, s *PESettings) (*PEResult, error) {
	isnil.Context(ctx, "divergence.RelativePE")
	if s == nil {
		s = &PESettings{}
	}
	pp, qq, err := peSamples(p, q, alpha, s)
	if err != nil {
		return nil, err
	}
	return relativePE(ctx, p, q, pp, qq, alpha, s.resolved())
}

// RelativePEValue returns RelativePE's estimate PE alone: the same number,
// bit for bit, for the same arguments, without the work that only the
// result's other fields need (the data's share of the standard error, the
// warnings, the fitted ratio). It is for callers that estimate many small
// problems and read only PE, as package changepoint's segmentation does for
// each of its windows (a third of each estimate's cost at its sizes). Rows
// are checked as RelativePE's are (the rows drawn, as they are read); the
// rows that only the spread warning of several columns reads are not read.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func RelativePEValue(ctx context.Context, p, q mat.Matrix, alpha float64, s *PESettings) (float64, error) {
	isnil.Context(ctx, "divergence.RelativePEValue")
	if s == nil {
		s = &PESettings{}
	}
	pp, qq, err := peSamples(p, q, alpha, s)
	if err != nil {
		return 0, err
	}
	res, err := estimatePE(ctx, pp, qq, alpha, s.resolved(), true)
	if err != nil {
		return 0, err
	}
	return res.PE, nil
}

// relativePE is RelativePE on the samples pp and qq of p and q, validated,
// and resolved settings s: the one estimate that RelativePE and
// TwoSampleTest run, each having checked and resolved its settings once.
func relativePE(ctx context.Context, p, q mat.Matrix, pp, qq *points, alpha float64, s *PESettings) (*PEResult, error) {
	res, err := estimatePE(ctx, pp, qq, alpha, s, false)
	if err != nil {
		return res, err
	}
	if err := res.addSpreadWarning(pp); err != nil {
		return nil, err
	}
	return res, addUnitError(res, p, q, pp, qq)
}

// addSpreadWarning appends spreadWarning's warning of the numerator
// sample pp (unscaled columns of very different spreads, issue 37).
func (r *PEResult) addSpreadWarning(pp *points) error {
	w, err := spreadWarning(pp, "difference")
	if w != "" {
		r.Warnings = append(r.Warnings, w)
	}
	return err
}

// estimatePE is relativePE without the two-stage design's share of the
// error bar (addUnitError). With valueOnly and σ and λ fixed it fills PE,
// PlugIn and the draws only (RelativePEValue): the randomness it draws
// after the solve, for the data's error, changes nothing before it.
func estimatePE(ctx context.Context, pp, qq *points, alpha float64, s *PESettings, valueOnly bool) (*PEResult, error) {
	m, rnd, scale, err := startPE(ctx, pp, qq, alpha, s)
	if err != nil {
		return nil, err
	}
	pp, qq = m.p, m.q
	res := &PEResult{Alpha: m.alpha, NP: pp.pop, NQ: qq.pop, Exact: s.Exact}
	k := min(s.K, pp.n)
	draws := s.Draws
	m.mp, m.mq = splitBudget(s.M, pp.n, qq.n)
	if k == pp.n && s.WithoutReplacement && m.mp == pp.n && m.mq == qq.n {
		draws = 1 // every draw would be the same
	}
	if s.Exact {
		k, m.mp, m.mq, draws = pp.n, pp.n, qq.n, 1
	}
	res.K, res.M = k, m.mp+m.mq
	tuned := s.Sigma == 0 || s.Lambda == 0
	if tuned && draws > 1 {
		// σ and λ are chosen once on the whole budget, and every draw
		// refines that choice among its grid neighbours on its own rows
		// (docs/DESIGN.md §4): the draws' spread covers the local tuning's
		// noise, and tuneVar the shared choice's, which does not average out.
		if err := m.tunedDraws(ctx, s, res, k, draws, scale, rnd); err != nil {
			return nil, err
		}
		return res, m.addDataError(res, rnd)
	}

	sigma := s.Sigma / scale // internal units
	lambdaN := s.Lambda / float64(pp.pop)
	if tuned {
		t, stops, err := m.crossValidate(ctx, s, rnd, nil)
		if err != nil {
			return nil, err
		}
		sigma, lambdaN = m.tuning(s, res, t, stops, scale)
	}
	m.g = kernel.Gaussian{Sigma: sigma}
	res.Sigma = sigma * scale
	res.Lambda = lambdaN * float64(pp.pop)
	o := &oracle{n: pp.n, lambdaN: lambdaN, moments: m.moments}
	f, err := o.solve(ctx, k, draws, !s.WithoutReplacement, s.Exact, rand.NewPCG(rnd.Uint64(), rnd.Uint64()), s.Workers)
	if err != nil {
		return nil, err
	}
	res.PE, res.StdErr, res.Draws = f.mean, f.stderr, f.values
	res.DrawSigmas, res.DrawLambdas = repeat(res.Sigma, len(f.values)), repeat(res.Lambda, len(f.values))
	res.PlugIn, _ = summary.MeanStdErr(f.plugin)
	if valueOnly {
		return res, nil
	}
	res.Ratio, err = m.ratio(f, repeat(sigma, len(f.values)))
	if err != nil {
		return nil, err
	}
	if s.Exact {
		return res, nil
	}
	return res, m.addDataError(res, rnd)
}

// startPE is what every estimate starts from: the exactness check, the
// random source of the settings and the model at unit scale, the data
// divided by the median heuristic (drawn from rnd, which it returns) or by
// the fixed σ, the scale.
func startPE(ctx context.Context, pp, qq *points, alpha float64, s *PESettings) (*peModel, *rand.Rand, float64, error) {
	err := s.checkExact(pp.n, "numerator points")
	if err != nil {
		return nil, nil, 0, err
	}
	src := parallel.NewSource(s.Src)
	rnd := rand.New(src)
	scale := s.Sigma
	if scale == 0 {
		// The median heuristic (O(points²), no cancellation point of its
		// own) runs under Await; abandoned, it draws on from rnd, whose
		// source is detached from the caller's Src.
		scale, err = parallel.Await(ctx, func() (float64, error) { return medianScale(rnd, pp, qq) })
		if err != nil {
			src.Detach()
			return nil, nil, 0, err
		}
	}
	return &peModel{p: pp.withScale(scale), q: qq.withScale(scale), alpha: alpha}, rnd, scale, nil
}

// TunePE returns the kernel width σ and regularisation λ that RelativePE
// with one draw (whatever s.Draws) chooses by cross-validation, in the
// result's Sigma and Lambda, with the search's table (CV) and warnings, and
// nothing else: the choice, bit for bit, without the estimate at it, for
// callers that hold one choice for estimates of their own (package drift
// tunes once on a share of the budget; the estimate it would discard cost
// 2–4% of its CPU). Fixed σ and λ are returned as they are. Arguments are
// checked as RelativePE's are.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func TunePE(ctx context.Context, p, q mat.Matrix, alpha float64, s *PESettings) (*PEResult, error) {
	isnil.Context(ctx, "divergence.TunePE")
	if s == nil {
		s = &PESettings{}
	}
	pp, qq, err := peSamples(p, q, alpha, s)
	if err != nil {
		return nil, err
	}
	s = s.resolved()
	m, rnd, scale, err := startPE(ctx, pp, qq, alpha, s)
	if err != nil {
		return nil, err
	}
	res := &PEResult{Alpha: alpha, NP: pp.pop, NQ: qq.pop, Exact: s.Exact}
	sigma, lambdaN := s.Sigma/scale, s.Lambda/float64(pp.pop)
	if s.Sigma == 0 || s.Lambda == 0 {
		t, stops, err := m.crossValidate(ctx, s, rnd, nil)
		if err != nil {
			return nil, err
		}
		sigma, lambdaN = m.tuning(s, res, t, stops, scale)
	}
	res.Sigma, res.Lambda = sigma*scale, lambdaN*float64(pp.pop)
	return res, nil
}

// peSamples checks α and the settings and returns the numerator and
// denominator samples of a PE problem (RelativePE, NewPEProblem).
func peSamples(p, q mat.Matrix, alpha float64, s *PESettings) (pp, qq *points, err error) {
	if err := checkAlpha(alpha); err != nil {
		return nil, nil, err
	}
	if err := s.validate(); err != nil {
		return nil, nil, err
	}
	return newTwoSamples(p, q)
}

// addDataError adds to res.StdErr the sampling error of the data
// themselves, which the draws, resampling the same rows, do not see, and an
// allowance for the regularisation's bias (docs/DESIGN.md §4): by the delta
// method, with the influence of a point ψ_P = r − ½αr² in P and
// ψ_Q = −½(1−α)r² in Q,
//
//	StdErr² = DrawStdErr² + T + Var_P(ψ_P)/n + Var_Q(ψ_Q)/n′ + ((PlugIn − PE)/2)²,
//
// with T the variance of the whole-budget tuning's shared share (tuneVar,
// see tunedDraws; zero when σ and λ were fixed or there is one draw),
// the variances taken over up to half the averaging budget of rows of each
// sample, drawn afresh, with the fitted ratio r̂_α. n and n′ are the rows
// the estimate is computed from — the kept rows of a Subsample, not the
// Rows of the data set it stands for: a uniform sample of n of N rows has
// Var/n·(1 − n/N) about the data set's value, which differs from the
// distribution's by Var/N, Var/n in all (with Var/N the error bar of a
// sampled read fell to 0.12 of the estimates' spread, TestPESubsampleStdErr).
// PlugIn − PE =
// (λ/2)‖θ‖² is the difference between the two forms of the same fit, both
// estimates of PE, whose spread is the scale of the regularisation's bias;
// half of it is the allowance.
func (m *peModel) addDataError(res *PEResult, rnd *rand.Rand) error {
	res.DrawStdErr = res.StdErr
	r := rand.New(rand.NewPCG(rnd.Uint64(), rnd.Uint64()))
	variance := func(p *points, rows int, psi func(v float64) float64) (float64, error) {
		x, err := p.rows(indices.Sample(p.n, min(p.n, rows), false, r))
		if err != nil {
			return 0, err
		}
		v := res.Ratio.evalScaled(x)
		for i, rv := range v {
			v[i] = psi(rv)
		}
		_, se := summary.MeanStdErr(v) // se² = Var/len(v)
		return se * se * float64(len(v)), nil
	}
	a := m.alpha
	vp, err := variance(m.p, m.mp, func(v float64) float64 { return v - a*v*v/2 })
	if err != nil {
		return err
	}
	vq, err := variance(m.q, m.mq, func(v float64) float64 { return -(1 - a) * v * v / 2 })
	if err != nil {
		return err
	}
	gap := (res.PlugIn - res.PE) / 2
	res.StdErr = math.Sqrt(res.StdErr*res.StdErr + m.tuneVar + vp/float64(m.p.n) + vq/float64(m.q.n) + gap*gap)
	return nil
}

// peLowRidge is searchGrid.lowRidge for a search whose choice RelativePE
// uses as it is (one draw; package drift's tuning on a quarter of the
// budget; changepoint's on its windows): the λ chosen is the smallest whose
// held-out score is within one standard error of the best (the opposite
// of the usual one-standard-error rule, which shrinks more). PE = ½hᵀθ − ½
// shrinks with λ, and noisy held-out scores favoured λ 10 to 100 times too
// large on small divergences (docs/RESULTS.md, "The divergence"; drift's column
// estimates: RMSE 0.029 without the rule, 0.017 with it). One standard
// error, not the smallest λ: with too little regularisation the noise of
// the averages biases ½hᵀθ upwards. The whole-budget search of tunedDraws,
// whose choice every draw refines, does without it: with it the α = ½
// cases of TestPEAccuracySeeds were 4–5% high and PE₀ in 10 dimensions was
// covered in 17 of 20 runs (docs/RESULTS.md).
const peLowRidge = 1

// Each draw's own search (tunedDraws) refines the whole-budget choice over
// its neighbours on the whole-budget grid: localWidthSteps on each side
// along σ (√2 apart on the default grid: σ/√2 to √2σ) and localRidgeSteps
// along λ (half-decades on the default grid: λ/10 to 10λ).
const (
	localWidthSteps = 1
	localRidgeSteps = 2
)

// peGrid is the grid of one cross-validation of RelativePE: widths in
// internal units, regularisations as λ/N (increasing), and whether each
// axis widens itself beyond its edges.
type peGrid struct {
	sigmas, lambdas         []float64
	widenSigma, widenLambda bool
	lowRidge                float64 // see searchGrid.lowRidge
}

// neighbourhood returns the grid of a draw's own search around the choice
// of the whole-budget table t (rows are widths, columns λ/N): the values
// of t's own axes within localWidthSteps and localRidgeSteps of the
// choice, which does not widen.
func neighbourhood(t *crossval.Table[[]float64]) *peGrid {
	widths := make([]float64, len(t.Rows))
	for i, r := range t.Rows {
		widths[i] = r[0]
	}
	return &peGrid{
		sigmas:  around(widths, t.Rows[t.BestRow][0], localWidthSteps),
		lambdas: around(t.Cols, t.Cols[t.BestCol], localRidgeSteps),
	}
}

// around returns the values of axis within steps places of v in
// increasing order, v included.
func around(axis []float64, v float64, steps int) []float64 {
	sorted := slices.Clone(axis)
	slices.Sort(sorted)
	i := slices.Index(sorted, v)
	return slices.Clone(sorted[max(0, i-steps):min(len(sorted), i+steps+1)])
}

// tunedDraws fills res with draws that each refine σ and λ by their own
// cross-validation on their own random rows, then estimate with one draw of
// k centres (docs/DESIGN.md §4). σ and λ are first chosen once on the
// whole averaging budget, over the full self-widening grid; each draw then
// searches, on the whole budget of its own rows, only the neighbours of
// that choice on its grid (see neighbourhood), so that the draws' spread
// shows the tuning's noise. Searching the full grid on a quarter of the
// budget instead, as each draw once did, stopped on the flat part of the
// held-out score's ridge towards wide kernels and little λ, all draws
// alike: PE₀ of a 0.2 shift per coordinate in 10 dimensions was 16% low and
// beyond its error bar in 15 of 20 runs (docs/RESULTS.md).
//
// The whole-budget choice is shared by every draw, so its error does not
// average out over them and their spread does not show it. Its variance is
// taken as the mean square of the draws' tuning effects
//
//	T = 1/D Σ_d (PE_d(σ_d, λ_d) − PE_d(σ*, λ*))²,
//
// each the difference between draw d's value at its own choice and at the
// whole-budget choice (σ*, λ*) on the same centres and rows: one tuning's
// noise, of the same budget as the whole-budget search. T is added to the
// error bar (addDataError). The table and warnings are those of the
// whole-budget search; the reported σ and λ the medians over the draws.
func (m *peModel) tunedDraws(ctx context.Context, s *PESettings, res *PEResult, k, draws int, scale float64, rnd *rand.Rand) error {
	seeds := make([][2]uint64, draws)
	for d := range seeds {
		seeds[d] = [2]uint64{rnd.Uint64(), rnd.Uint64()}
	}
	t, stops, err := m.crossValidate(ctx, s, rnd, m.settingsGrid(s, m.cvCentres(s), 0))
	if err != nil {
		return err
	}
	pilotSigma, pilotLambdaN := m.tuning(s, res, t, stops, scale)
	local := neighbourhood(t)
	all := &fit{}
	var widths []float64
	var effects []float64
	estimate := func(sigma, lambdaN float64, seed [2]uint64) (*fit, error) {
		md := *m
		md.g = kernel.Gaussian{Sigma: sigma}
		o := &oracle{n: m.p.n, lambdaN: lambdaN, moments: md.moments}
		return o.solve(ctx, k, 1, !s.WithoutReplacement, false, rand.NewPCG(seed[0], seed[1]), s.Workers)
	}
	for d := range draws {
		rd := rand.New(rand.NewPCG(seeds[d][0], seeds[d][1]))
		t, _, err := m.crossValidate(ctx, s, rd, local)
		if err != nil {
			return err
		}
		bs, lambdaN := t.Best()
		sigma := bs[0]
		seed := [2]uint64{rd.Uint64(), rd.Uint64()}
		f, err := estimate(sigma, lambdaN, seed)
		if err != nil {
			return err
		}
		effect := 0.0
		if sigma != pilotSigma || lambdaN != pilotLambdaN {
			f0, err := estimate(pilotSigma, pilotLambdaN, seed)
			if err != nil {
				return err
			}
			effect = f.values[0] - f0.values[0]
		}
		effects = append(effects, effect)
		all.values = append(all.values, f.values...)
		all.plugin = append(all.plugin, f.plugin...)
		all.centres = append(all.centres, f.centres...)
		all.thetas = append(all.thetas, f.thetas...)
		widths = append(widths, sigma)
		res.DrawSigmas = append(res.DrawSigmas, sigma*scale)
		res.DrawLambdas = append(res.DrawLambdas, lambdaN*float64(m.p.pop))
	}
	all.mean, all.stderr = summary.MeanStdErr(all.values)
	res.PE, res.StdErr, res.Draws = all.mean, all.stderr, all.values
	res.PlugIn, _ = summary.MeanStdErr(all.plugin)
	res.Sigma, res.Lambda = median(res.DrawSigmas), median(res.DrawLambdas)
	m.tuneVar = floats.Dot(effects, effects) / float64(len(effects))
	res.Ratio, err = m.ratio(all, widths)
	return err
}

// tuning returns the σ (internal units) and λ/N that the table t chooses,
// or the fixed ones, and records the table and its warnings in res.
func (m *peModel) tuning(s *PESettings, res *PEResult, t *crossval.Table[[]float64], stops []edgeStop, scale float64) (sigma, lambdaN float64) {
	sigma, lambdaN = s.Sigma/scale, s.Lambda/float64(m.p.pop)
	bs, bl := t.Best()
	if s.Sigma == 0 {
		sigma = bs[0]
	}
	if s.Lambda == 0 {
		lambdaN = bl
	}
	ut := userTable(t, []float64{scale}, float64(m.p.pop))
	res.Warnings = append(res.Warnings, gridWarnings(ut, stops, []string{"kernel width σ"}, true)...)
	res.CV = &crossval.Table[float64]{Cols: ut.Cols, Scores: ut.Scores, BestRow: ut.BestRow, BestCol: ut.BestCol}
	for _, r := range ut.Rows {
		res.CV.Rows = append(res.CV.Rows, r[0])
	}
	return sigma, lambdaN
}

// repeat returns n copies of v.
func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// median returns the lower median of v.
func median(v []float64) float64 {
	c := slices.Clone(v)
	slices.Sort(c)
	return c[(len(c)-1)/2]
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
	// tuneVar is the variance of the whole-budget choice's share of the
	// estimate (see tunedDraws), zero when σ and λ were fixed or with one
	// draw.
	tuneVar float64
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
// from the rest of P and from Q, within the averaging budget, over the grid
// g, or over the settings' grids with the λ rule peLowRidge when g is nil. Table rows are returned in
// internal units and columns as λ/N; the caller converts.
func (m *peModel) crossValidate(ctx context.Context, s *PESettings, rnd *rand.Rand, g *peGrid) (*crossval.Table[[]float64], []edgeStop, error) {
	folds := s.Folds
	// Centres: at most half the numerator sample, so that the rest can be
	// averaged over; averaging points never include a centre, whose kernel
	// value with itself would favour narrow kernels.
	kcv := m.cvCentres(s)
	centreRows := indices.Sample(m.p.n, kcv, false, rnd)
	mp, mq := splitBudget(s.M, m.p.n-kcv, m.q.n)
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
	if g == nil {
		g = m.settingsGrid(s, kcv, peLowRidge)
	}
	sg := searchGrid{
		axes:        [][]float64{g.sigmas},
		widen:       []bool{g.widenSigma},
		lambdas:     g.lambdas,
		widenLambda: g.widenLambda,
		ridgeFactor: float64(kcv), // the kcv-centre problem's own regularisation is kcv·λ/N
		lowRidge:    g.lowRidge,
	}
	return sg.search(ctx, s.Workers, func(ctx context.Context, w []float64) (func(float64) []float64, error) {
		st, err := m.foldStats(ctx, kernel.Gaussian{Sigma: w[0]}, c, xp, xq)
		if err != nil {
			return nil, err
		}
		return peScores(st), nil
	})
}

// cvCentres is the number of centres of a cross-validation: at most half
// the numerator sample, so that the rest can be averaged over.
func (m *peModel) cvCentres(s *PESettings) int { return min(s.K, m.p.n/2) }

// settingsGrid returns the grid the settings ask for, for a
// cross-validation problem of kcv centres: the given or default widths
// (internal units) and values of kλ/n as λ/N, the defaults widening
// themselves; a fixed σ or λ is the only value of its axis. lowRidge is
// the grid's searchGrid.lowRidge.
func (m *peModel) settingsGrid(s *PESettings, kcv int, lowRidge float64) *peGrid {
	g := &peGrid{
		lowRidge: lowRidge,
		// λ/N = (kλ/N)/kcv: the grid of kλ/N values for the kcv-centre problem.
		lambdas:     scaleAll(grid(s.LambdaScales, DefaultLambdaScales()), 1/float64(kcv)),
		widenLambda: s.LambdaScales == nil,
		sigmas:      grid(s.SigmaScales, DefaultSigmaScales()),
		widenSigma:  s.SigmaScales == nil,
	}
	if s.Lambda != 0 {
		g.lambdas = []float64{s.Lambda / float64(m.p.pop)}
	}
	if s.Sigma != 0 {
		g.sigmas = []float64{1} // internal units: the fixed σ is the scale
	}
	return g
}

// foldStats computes, for one kernel width, the training and held-out
// moments of every fold. It stops between folds when ctx is done, so that
// moments abandoned by a cancellation (see searchGrid.search) are not
// computed to the end.
func (m *peModel) foldStats(ctx context.Context, g kernel.Gaussian, c *mat.Dense, xp, xq []*mat.Dense) ([]foldStats, error) {
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
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		gp[f], gq[f], hp[f] = mat.NewSymDense(k, nil), mat.NewSymDense(k, nil), make([]float64, k)
		g.Moments(hp[f], gp[f], xp[f], c)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
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
	return stats, nil
}
