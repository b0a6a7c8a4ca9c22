// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/crossval"
	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/isnil"
	"github.com/sublinear/pearson/internal/parallel"
	"github.com/sublinear/pearson/internal/summary"
	"github.com/sublinear/pearson/kernel"
)

// The models of LSMIResult.Model.
const (
	// ModelKernel is the product basis of Gaussian kernels.
	ModelKernel = "kernel"
	// ModelCopula is the ratio of the Gaussian copula of the normal scores.
	ModelCopula = "gaussian-copula"
)

// LSMIResult is an estimate of the squared-loss mutual information.
type LSMIResult struct {
	// SMI is the estimate of SMI(X, Y): the larger of KernelSMI and
	// CopulaSMI, which is the fit with the smaller squared-loss objective
	// (docs/DESIGN.md §3), or the one LSMISettings.Model names; the kernel
	// model's all-centre value when Exact. Read it as a lower bound when
	// LowerBound is set.
	SMI float64
	// Model names the model SMI comes from: ModelKernel or ModelCopula.
	Model string
	// KernelSMI is the kernel model's estimate: the mean over the draws, or
	// the all-centre value when Exact. Draws, DrawStdErr, PlugIn, K, M and
	// the widths describe it.
	KernelSMI float64
	// CopulaSMI is the Gaussian-copula model's estimate,
	// ½ E_p[g]²/E_q[g²] − ½ with g the ratio of the Gaussian copula of the
	// rows' normal scores. NaN when it is not fitted (Exact, or
	// LSMISettings.Model ModelKernel) or does not apply: when a
	// column holds MaxClasses or fewer distinct values (class labels), or
	// when a column repeats another or is a monotone function of it.
	CopulaSMI float64
	// StdErr is the standard error of SMI against the SMI of the
	// distribution the rows come from. For the kernel model: the spread of
	// the draws over √draws, the sampling error of the data by the delta
	// method, (PlugIn − SMI)/2 as an allowance for the regularisation's
	// bias, and half the upward bias that the averages' noise gives the
	// value (noiseBias: +6–7% of the truth on 1-D sines and circles, which
	// the basis's shortfall offsets on some and not on others), combined
	// in quadrature (docs/DESIGN.md §3). When σx, σy and λ
	// are cross-validated, each draw chooses them on its own rows, so that
	// the draws' spread covers that choice (not for Rank, whose features
	// share one choice). It does not cover the choice of FactorsX, which
	// follows the sample rather than the draw (beside irrelevant columns
	// it can widen the spread over samples to 1.5 times StdErr), nor the
	// kernel model's own bias where its k² functions
	// cannot follow the ratio: at strong dependence spread over several
	// columns of x the estimate lies below the truth by more than StdErr
	// (−23% at SMI 1.39 with two relevant columns), which LowerBound flags.
	// For the copula model: the delta-method error of its two averages.
	// When the larger of the two models is reported and their estimates
	// differ by less than twice their combined standard error, half the
	// gap is added in quadrature, so that StdErr covers the choice.
	// Zero for Exact.
	StdErr float64
	// DrawStdErr is the part of the kernel model's standard error from the
	// draws alone: the spread of the draws over √draws (zero for a single
	// draw).
	DrawStdErr float64
	// DesignEffect is, for rows drawn in two stages (Subsample.Units), the
	// variance of the estimate's linearisation under that design over its
	// variance were the rows independent (docs/DESIGN.md §7): near 1 when
	// the units are like random rows, up to the rows per unit when each is
	// far from one. StdErr includes the excess. NaN, with a warning, when
	// every kept row came from one draw: the variance between draws then
	// cannot be estimated and StdErr treats the rows as independent. Zero
	// for rows drawn independently.
	DesignEffect float64
	// Draws holds each draw's value.
	Draws []float64
	// PlugIn is the plug-in form hᵀθ − ½θᵀHθ − ½ of the same fit, which
	// exceeds SMI by (ρ/2)‖θ‖².
	PlugIn float64
	// SigmaX and SigmaY are the kernel widths on x and y; Lambda is the
	// all-centre regularisation.
	SigmaX, SigmaY, Lambda float64
	// FactorsX, when x has several columns and σx is cross-validated, are
	// the factors of σx per column of x chosen by cross-validation
	// (relevanceX): column j's width is FactorsX[j]·SigmaX, so that a
	// column that carries no information about y gets a wide kernel and
	// stops diluting the others. Nil otherwise (one width for every
	// column).
	FactorsX []float64
	// K is the number of centre rows per draw (K² basis functions); M the
	// number of rows averaged
	// per draw: pairs for h and the x-factor of H, and rows for its
	// y-factor (2N for exact averages).
	K, M int
	// N is the number of rows (of the data set they stand for, for a
	// Subsample).
	N int
	// LowerBound reports that SMI is better read as a lower bound than as
	// SMI ± StdErr, and Warnings says why: the kernel fit's mean square of
	// the ratio over pairs of rows rests on a small effective share of them
	// (lsmiTailShare), as at strong dependence or where the true ratio is
	// unbounded, or the copula fit's largest canonical correlation is
	// copulaStrongRho or more, where its ratio's mean square has too
	// heavy a tail to average. StdErr then covers the sampling error of the value
	// printed, not its distance to the truth, which lies above.
	LowerBound bool
	// Exact reports the all-centre solution rather than the estimate.
	Exact bool
	// CV is the cross-validation table: rows are the widths (σx, σy),
	// columns all-centre regularisations λ. Nil when all were fixed.
	CV *crossval.Table[[2]float64]
	// Warnings describe doubts about the result.
	Warnings []string
	// noise is the kernel fit's noise bias, its first draw's (noiseBias).
	noise float64
	// share is the reported model's effective share of the pairs in its
	// mean square of the ratio (judgeTail); zero when not judged.
	share float64
	// rho1 is the copula fit's largest canonical correlation; zero
	// without a copula fit.
	rho1 float64
	// tailESS is the kernel fit's effective share of the pairs of the
	// data error in E_q[ĝ²] (see influence); zero when not computed.
	tailESS float64
}

// LSMI estimates the squared-loss mutual information
//
//	SMI(X, Y) = ½ E_{p(x)p(y)}[(p(x, y)/(p(x)p(y)) − 1)²]
//
// between the variables whose paired values are the rows of x and y (the same
// number of rows; any numbers of columns). It is zero exactly when X and Y
// are independent, and for a bivariate normal with correlation ρ it is
// ρ²/(2(1 − ρ²)). The model is the product basis of docs/DESIGN.md §3,
// g(x, y) = Σ_lm θ_lm K(x, u_l) L(y, v_m), Gaussian kernels of widths σx
// and σy centred on the x- and y-values of k drawn rows (k² functions), and
//
//	H = Hx ⊗ Hy,  Hx_ll' = 1/n Σᵢ K(xᵢ,u_l)K(xᵢ,u_l'),  Hy_mm' = 1/n Σⱼ L(yⱼ,v_m)L(yⱼ,v_m'),
//	h_lm = 1/n Σᵢ K(xᵢ,u_l) L(yᵢ,v_m),
//	SMI  = ½ hᵀ(H + ρI)⁻¹h − ½ = ½ Σ_ab (Uxᵀ h Uy)²_ab / (λx_a λy_b + ρ) − ½,
//
// with Hx = Ux diag(λx) Uxᵀ and Hy = Uy diag(λy) Uyᵀ: O(k³) per draw for k²
// functions. Each draw averages h and Hx over M/2 pairs and Hy over M/2
// rows drawn independently of them (the product of two averages over the
// same rows would be biased), and solves with ρ = (k/N)²λ, λ the
// regularisation of the all-centre problem (every x-value and every y-value
// a centre), which Exact computes. σx, σy and λ are chosen by 5-fold
// cross-validation of the same basis with the held-out score
// ½θᵀH_teθ − h_teᵀθ, unless fixed (LSMISettings.SigmaX, SigmaY,
// Settings.Lambda); LambdaScales then holds values of (k/n)²λ.
// The default grids widen themselves while the best point lies on an edge
// (docs/DESIGN.md §4); a warning says so when a limit stops them.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func LSMI(ctx context.Context, x, y mat.Matrix, s *LSMISettings) (*LSMIResult, error) {
	isnil.Context(ctx, "divergence.LSMI")
	if s == nil {
		s = &LSMISettings{}
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	s = s.resolved()
	px, py, rnd, err := scaledPairs(x, y, s)
	if err != nil {
		return nil, err
	}
	res, err := lsmi(ctx, px, py, s, rnd, nil)
	if err != nil {
		return nil, err
	}
	return res, res.addSpreadWarnings(px, py)
}

// scaledPairs reads the paired samples of LSMI and IndependenceTest (with
// s validated) and divides each by its fixed width or its median heuristic,
// drawn from the generator it returns.
func scaledPairs(x, y mat.Matrix, s *LSMISettings) (px, py *points, rnd *rand.Rand, err error) {
	if px, py, err = newPairs(x, y); err != nil {
		return nil, nil, nil, err
	}
	if err = s.checkExact(px.n, "rows"); err != nil {
		return nil, nil, nil, err
	}
	rnd = rand.New(s.Src)
	if px, err = scaled(rnd, px, s.SigmaX); err != nil {
		return nil, nil, nil, err
	}
	if py, err = scaled(rnd, py, s.SigmaY); err != nil {
		return nil, nil, nil, err
	}
	return px, py, rnd, nil
}

// lsmi is LSMI on validated samples, each divided by its fixed width or its
// median heuristic (see scaled); sh, when not nil, holds what Rank's
// features share.
func lsmi(ctx context.Context, px, py *points, s *LSMISettings, rnd *rand.Rand, sh *lsmiShared) (*LSMIResult, error) {
	var cv *lsmiCV
	if sh != nil {
		cv = sh.cv
	}
	k := min(s.K, px.n)
	draws := s.Draws
	tuned := s.SigmaX == 0 || s.SigmaY == 0 || s.Lambda == 0
	var m *lsmiModel
	var res *LSMIResult
	var f *lsmiFit
	var err error
	var factors []float64
	if sh == nil && s.SigmaX == 0 && px.dim > 1 && !s.Exact {
		if factors, err = relevanceX(ctx, px, py, s, rnd); err != nil {
			return nil, err
		}
		px = px.withColumnFactors(factors)
	}
	if sh == nil && tuned && draws > 1 && !s.Exact {
		// Every draw tunes the widths and λ on its own rows, as
		// RelativePE's do, so that the draws' spread covers the tuning.
		m, res, f, err = tunedLSMI(ctx, px, py, s, rnd, k, draws)
		if err != nil {
			return nil, err
		}
	} else {
		m, res, err = fitLSMI(ctx, px, py, s, rnd, cv)
		if err != nil {
			return nil, err
		}
		src := rand.NewPCG(rnd.Uint64(), rnd.Uint64())
		if sh != nil {
			m.cache, src = sh.y, rand.NewPCG(sh.seed[0], sh.seed[1])
		}
		if s.Exact {
			k, m.mh, m.mf, draws = px.n, px.n, px.n, 1
		}
		f, err = m.solve(ctx, k, draws, !s.WithoutReplacement && !s.Exact, res.Lambda/float64(px.pop)/float64(px.pop), src, s.Workers)
		if err != nil {
			return nil, err
		}
	}
	res.SMI, res.StdErr, res.Draws = f.mean, f.stderr, f.values
	res.FactorsX = factors
	res.PlugIn, _ = summary.MeanStdErr(f.plugin)
	res.K, res.M = k, min(m.mh, px.n)+min(m.mf, px.n)
	res.Model, res.KernelSMI, res.CopulaSMI = ModelKernel, res.SMI, math.NaN()
	if s.Exact {
		return res, nil
	}
	if err := m.addDataError(ctx, res, f); err != nil {
		return nil, err
	}
	if s.Model == ModelKernel {
		res.judgeTail(nil)
		return res, nil
	}
	c, ok, err := fitCopula(ctx, px, py, f.rnd)
	switch {
	case err != nil:
		return nil, unwrapData(err)
	case !ok && s.Model == ModelCopula:
		return nil, fmt.Errorf("divergence: %w: the Gaussian-copula model does not apply: %s", ErrSettings, c.refusal)
	case !ok:
		res.judgeTail(nil)
		return res, nil
	}
	res.CopulaSMI, res.rho1 = c.smi, c.rho1
	switch {
	case s.Model == ModelCopula:
		res.Model, res.SMI, res.StdErr, res.DesignEffect = ModelCopula, c.smi, c.stderr, c.designEffect
	case s.Model == "":
		res.choose(&c)
	}
	res.judgeTail(&c)
	return res, nil
}

// tunedLSMI runs draws draws of k centres, each with the widths and λ
// cross-validated on its own design rows (those fixed in s stay fixed):
// the draws are then independent replicates of the whole procedure, and
// their spread covers the tuning's variability, which one tuning shared by
// every draw leaves out of the standard error (docs/DESIGN.md §3;
// RelativePE instead refines one whole-budget choice per draw, §4). The model returned is the first draw's, which the data
// error's fitted ratio uses; the result's widths and λ are the medians over
// the draws, its table and warnings the first draw's (warnings of every
// draw, each once). The generators are seeded in order from rnd.
func tunedLSMI(ctx context.Context, px, py *points, s *LSMISettings, rnd *rand.Rand, k, draws int) (*lsmiModel, *LSMIResult, *lsmiFit, error) {
	seeds := make([][2]uint64, draws)
	for d := range seeds {
		seeds[d] = [2]uint64{rnd.Uint64(), rnd.Uint64()}
	}
	var first *lsmiModel
	var res *LSMIResult
	all := &lsmiFit{}
	var sx, sy, lambdas []float64
	seen := map[string]bool{}
	for d := range draws {
		rd := rand.New(rand.NewPCG(seeds[d][0], seeds[d][1]))
		m, dr, err := fitLSMI(ctx, px, py, s, rd, nil)
		if err != nil {
			return nil, nil, nil, err
		}
		m.skipNoise = d > 0
		f, err := m.solve(ctx, k, 1, !s.WithoutReplacement, dr.Lambda/float64(px.pop)/float64(px.pop), rand.NewPCG(rd.Uint64(), rd.Uint64()), s.Workers)
		if err != nil {
			return nil, nil, nil, err
		}
		if d == 0 {
			first, res = m, dr
			res.Warnings = nil
			all.centres, all.theta, all.rnd = f.centres, f.theta, f.rnd
		}
		for _, w := range dr.Warnings {
			if !seen[w] {
				seen[w] = true
				res.Warnings = append(res.Warnings, w)
			}
		}
		all.values = append(all.values, f.values...)
		if d == 0 {
			all.noise = f.noise
		}
		all.plugin = append(all.plugin, f.plugin...)
		sx, sy, lambdas = append(sx, dr.SigmaX), append(sy, dr.SigmaY), append(lambdas, dr.Lambda)
	}
	all.mean, all.stderr = summary.MeanStdErr(all.values)
	res.SigmaX, res.SigmaY, res.Lambda = median(sx), median(sy), median(lambdas)
	return first, res, all, nil
}

// solve computes draws independent estimates, each from k centre rows drawn
// (with replacement when replace; every row once when k = n and not
// replace) and the averages of moments, on at most workers goroutines; the
// k-centre problem's regularisation is (k/N)²λ, with lambdaNN = λ/N². The
// draws' generators are seeded in order from src, so the result does not
// depend on workers.
func (m *lsmiModel) solve(ctx context.Context, k, draws int, replace bool, lambdaNN float64, src rand.Source, workers int) (*lsmiFit, error) {
	seeds := rand.New(src)
	rnds := make([]*rand.Rand, draws)
	for d := range rnds {
		rnds[d] = rand.New(rand.NewPCG(seeds.Uint64(), seeds.Uint64()))
	}
	f := &lsmiFit{fit: fit{values: make([]float64, draws), plugin: make([]float64, draws)}, noise: make([]float64, draws)}
	// The rows of the data error (see addDataError) come after the draws'
	// seeds, so that the draws do not depend on them.
	f.rnd = rand.New(rand.NewPCG(seeds.Uint64(), seeds.Uint64()))
	errs := make([]error, draws)
	ridge := float64(k) * float64(k) * lambdaNN
	parallel.For(draws, parallel.Workers(workers), func(d int) {
		if errs[d] = ctx.Err(); errs[d] != nil {
			return
		}
		var idx []int
		if k == m.x.n && !replace {
			idx = indices.Range(k)
		} else {
			idx = indices.Sample(m.x.n, k, replace, rnds[d])
		}
		// A draw's eigendecompositions have no cancellation point: Await
		// returns on a cancellation while an abandoned draw, which writes
		// only its own values, runs to its end.
		type drawValue struct {
			value, norm2, noise float64
			theta               *mat.Dense
		}
		v, err := parallel.Await(ctx, func() (drawValue, error) {
			value, norm2, noise, theta, err := m.value(idx, rnds[d], ridge, d == 0)
			return drawValue{value, norm2, noise, theta}, err
		})
		if errs[d] = err; err != nil {
			return
		}
		if d == 0 {
			f.centres, f.theta = idx, v.theta
		}
		f.values[d], f.plugin[d], f.noise[d] = v.value, v.value+ridge/2*v.norm2, v.noise
	})
	for _, err := range errs {
		if err != nil {
			return nil, unwrapData(err)
		}
	}
	f.mean, f.stderr = summary.MeanStdErr(f.values)
	if math.IsNaN(f.mean) || math.IsInf(f.mean, 0) || math.IsNaN(f.stderr) || math.IsInf(f.stderr, 0) {
		return nil, fmt.Errorf("divergence: %w: the estimate is %v ± %v", ErrNonFinite, f.mean, f.stderr)
	}
	return f, nil
}

// lsmiModel is the LSMI problem of docs/DESIGN.md §3: centres are observed pairs;
// h averages over mh pairs and each factor of H over mf rows per draw (every
// row when they reach n).
type lsmiModel struct {
	x, y   *points
	gx, gy kernel.Gaussian // widths in internal units
	mh, mf int
	cache  *memo[drawKey, drawY] // shared by Rank's features; nil otherwise
	// skipNoise leaves out the noise bias (noiseBias) of the first draw,
	// computed by another model of the same data (tunedLSMI's first).
	skipNoise bool
}

// fitLSMI chooses the widths and λ of the scaled samples (by
// cross-validation on the design cv, or on a new one when cv is nil, unless
// fixed) and returns the model and the result's settings fields.
func fitLSMI(ctx context.Context, px, py *points, s *LSMISettings, rnd *rand.Rand, cv *lsmiCV) (*lsmiModel, *LSMIResult, error) {
	half := max(1, s.M/2)
	m := &lsmiModel{x: px, y: py, mh: half, mf: half}
	res := &LSMIResult{N: px.pop, Exact: s.Exact}
	sx, sy := s.SigmaX/px.scale, s.SigmaY/py.scale
	nn := float64(px.pop) * float64(px.pop)
	lambdaNN := s.Lambda / nn // λ/N², the column unit of cross-validation
	if s.SigmaX == 0 || s.SigmaY == 0 || s.Lambda == 0 {
		if cv == nil {
			var err error
			if cv, err = newLSMICV(py, &s.Settings, rnd); err != nil {
				return nil, nil, err
			}
		}
		t, stops, err := m.crossValidate(ctx, s, cv)
		if err != nil {
			return nil, nil, err
		}
		best, bl := t.Best()
		if s.SigmaX == 0 {
			sx = best[0]
		}
		if s.SigmaY == 0 {
			sy = best[1]
		}
		if s.Lambda == 0 {
			lambdaNN = bl
		}
		ut := userTable(t, []float64{px.scale, py.scale}, nn)
		res.Warnings = gridWarnings(ut, stops, []string{"kernel width σx", "kernel width σy"}, false)
		res.CV = &crossval.Table[[2]float64]{Cols: ut.Cols, Scores: ut.Scores, BestRow: ut.BestRow, BestCol: ut.BestCol}
		for _, r := range ut.Rows {
			res.CV.Rows = append(res.CV.Rows, [2]float64{r[0], r[1]})
		}
	}
	m.gx, m.gy = kernel.Gaussian{Sigma: sx}, kernel.Gaussian{Sigma: sy}
	res.SigmaX, res.SigmaY = sx*px.scale, sy*py.scale
	res.Lambda = lambdaNN * nn
	return m, res, nil
}

// value returns the product-basis estimate of one draw with centre rows
// idx and regularisation ridge, ‖θ‖², and when keep the weights Θ over
// (x-centre, y-centre) pairs, g(x, y) = K(x, u)ᵀ Θ L(y, v)
// (docs/DESIGN.md §3): h and the
// x-factor Hx average over the same mh pairs, the y-factor Hy over mf rows
// drawn independently of them (the product of two averages over the same
// rows would be biased; sharing the x rows with h saves a kernel matrix);
// with exact averages all three take every row. Every random draw comes
// first, so that with a cache (Rank) the y side of a draw is computed once
// for all features whose draws coincide.
func (m *lsmiModel) value(idx []int, rnd *rand.Rand, ridge float64, keep bool) (value, norm2, noise float64, theta *mat.Dense, err error) {
	key := rnd.Uint64() // names the draw: coinciding generators draw the same rows
	pairRows := m.x.draw(m.mh, rnd)
	yRows := m.y.draw(m.mf, rnd)
	if pairRows == nil {
		pairRows, yRows = indices.Range(m.x.n), nil
	}
	yd, err := m.cache.get(drawKey{key, m.gy.Sigma}, func() (drawY, error) { return m.ySide(idx, pairRows, yRows) })
	if err != nil {
		return 0, 0, 0, nil, err
	}
	u, err := m.x.rows(idx)
	if err != nil {
		return 0, 0, 0, nil, err
	}
	k := len(idx)
	hxy := mat.NewDense(k, k, nil)
	gx := mat.NewSymDense(k, nil)
	var kt mat.Dense
	err = eachRows(pairRows, func(lo int, rows []int) error {
		xb, err := m.x.rows(rows)
		if err != nil {
			return err
		}
		kt.Reset()
		m.gx.MatrixTo(&kt, u, xb)
		kernel.AddGram(gx, &kt)
		addCross(hxy, &kt, yd.lt.Slice(0, k, lo, lo+len(rows)).(*mat.Dense))
		return nil
	})
	if err != nil {
		return 0, 0, 0, nil, err
	}
	np := float64(len(pairRows))
	gx.ScaleSym(1/np, gx)
	hxy.Scale(1/np, hxy)
	ex, err := newEigenSide(gx)
	if err != nil {
		return 0, 0, 0, nil, err
	}
	ht := rotate(ex, yd.ey, hxy)
	v, n2 := kronValue(ht, ex, yd.ey, ridge)
	if keep && !m.skipNoise { // steady over draws (sd < 2% of it): the first draw's
		if noise, err = m.noiseBias(u, pairRows, yd, ex, ridge, 2*(v+0.5)); err != nil {
			return 0, 0, 0, nil, err
		}
	}
	if keep {
		var t mat.Dense
		t.Mul(ex.u, kronTheta(ht, ex, yd.ey, ridge))
		theta = &mat.Dense{}
		theta.Mul(&t, yd.ey.u.T())
	}
	return v, n2, noise, theta, nil
}

// addCross adds a·bᵀ to dst, where a is k×n and b is k'×n: dst[j, l] +=
// Σᵢ a[j, i]·b[l, i], the cross moment of two sets of kernel features laid
// out a row per centre and a column per point. Each entry is one dot
// product over the full rows, in tiles of rows that stay in cache, on the
// calling goroutine: the products are k×k with k ≤ a few hundred, which
// gonum's Dgemm would block into 64-long dot products and spread over
// goroutines that Rank's features already occupy (the same arithmetic as
// kernel.AddGram, for a product that is not symmetric).
func addCross(dst, a, b *mat.Dense) {
	k, n := a.Dims()
	kb, nb := b.Dims()
	if r, c := dst.Dims(); r != k || c != kb || nb != n {
		panic("divergence: addCross: dimension mismatch")
	}
	const tile = 32
	for j0 := 0; j0 < k; j0 += tile {
		for l0 := 0; l0 < kb; l0 += tile {
			for j := j0; j < min(j0+tile, k); j++ {
				aj, out := a.RawRowView(j), dst.RawRowView(j)
				for l := l0; l < min(l0+tile, kb); l++ {
					out[l] += floats.Dot(aj, b.RawRowView(l)[:n])
				}
			}
		}
	}
}

// eachRows calls f on consecutive blocks of rows, with each block's offset,
// so that kernel matrices over every row stay bounded in memory.
func eachRows(rows []int, f func(lo int, block []int) error) error {
	const block = 4096
	for lo := 0; lo < len(rows); lo += block {
		if err := f(lo, rows[lo:min(lo+block, len(rows))]); err != nil {
			return err
		}
	}
	return nil
}

// ySide computes the y side of a draw: the y-kernel values of the pairs
// and the eigendecomposition of the y-factor over yRows (every row when
// nil).
func (m *lsmiModel) ySide(idx, pairRows, yRows []int) (drawY, error) {
	v, err := m.y.rows(idx)
	if err != nil {
		return drawY{}, err
	}
	k := len(idx)
	d := drawY{lt: mat.NewDense(k, len(pairRows), nil)}
	err = eachRows(pairRows, func(lo int, rows []int) error {
		yb, err := m.y.rows(rows)
		if err != nil {
			return err
		}
		m.gy.MatrixTo(d.lt.Slice(0, k, lo, lo+len(rows)).(*mat.Dense), v, yb)
		return nil
	})
	if err != nil {
		return drawY{}, err
	}
	gy := mat.NewSymDense(k, nil)
	ny, err := m.y.momentsOf(nil, gy, m.gy, v, yRows)
	if err != nil {
		return drawY{}, err
	}
	gy.ScaleSym(1/float64(ny), gy)
	d.ey, err = newEigenSide(gy)
	return d, err
}

// drawKey names the y side of a draw: the draw's first random number and
// the y width.
type drawKey struct {
	draw  uint64
	sigma float64
}

// drawY is the y side of a draw.
type drawY struct {
	lt *mat.Dense // k × pairs: y-kernel values of the pairs
	ey eigenSide  // the y-factor's eigendecomposition
}
