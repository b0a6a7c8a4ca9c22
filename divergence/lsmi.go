// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/crossval"
	"github.com/sublinear/pearson/internal/summary"
	"github.com/sublinear/pearson/kernel"
)

// LSMIResult is an estimate of the squared-loss mutual information.
type LSMIResult struct {
	// SMI is the estimate of SMI(X, Y): the mean over the draws, or the
	// all-centre value when Exact.
	SMI float64
	// StdErr is the standard error of SMI over the draws.
	StdErr float64
	// Draws holds each draw's value.
	Draws []float64
	// PlugIn is the plug-in form hᵀθ − ½θᵀHθ − ½ of the same fit, which
	// exceeds SMI by (λ/2)‖θ‖².
	PlugIn float64
	// SigmaX and SigmaY are the kernel widths on x and y; Lambda is the
	// all-centre regularisation.
	SigmaX, SigmaY, Lambda float64
	// K is the number of centres per draw; M the number of rows averaged
	// per draw: pairs for h and the x-factor of H, and rows for its
	// y-factor (2N for exact averages).
	K, M int
	// N is the number of rows (of the data set they stand for, for a
	// Subsample).
	N int
	// Exact reports the all-centre solution rather than the estimate.
	Exact bool
	// CV is the cross-validation table: rows are the widths (σx, σy),
	// columns all-centre regularisations λ. Nil when all were fixed.
	CV *crossval.Table[[2]float64]
	// Warnings describe doubts about the result.
	Warnings []string
}

// LSMI estimates the squared-loss mutual information
//
//	SMI(X, Y) = ½ E_{p(x)p(y)}[(p(x, y)/(p(x)p(y)) − 1)²]
//
// between the variables whose paired values are the rows of x and y (the same
// number of rows; any numbers of columns). It is zero exactly when X and Y
// are independent, and for a bivariate normal with correlation ρ it is
// ρ²/(2(1 − ρ²)). The model g(x, y) = Σ_l θ_l K(x, u_l) L(y, v_l) has Gaussian
// kernels of widths σx and σy centred on observed pairs (u_l, v_l), and
//
//	H_lm = [1/n Σᵢ K(xᵢ,u_l)K(xᵢ,u_m)] · [1/n Σⱼ L(yⱼ,v_l)L(yⱼ,v_m)],
//	h_l  = 1/n Σᵢ K(xᵢ,u_l) L(yᵢ,v_l),
//	SMI  = ½ hᵀ(H + λI)⁻¹h − ½.
//
// As RelativePE, it runs Algorithm 1 through package qmin: each draw takes k
// centre pairs, averages h and the x-factor of H over M/2 pairs and the
// y-factor over M/2 rows drawn independently of them (the product of two
// averages over the same rows would be biased), and solves the k-centre
// problem with regularisation kλ/n. σx, σy and λ are chosen by 5-fold cross-validation with the held-out
// score ½θᵀH_teθ − h_teᵀθ, unless fixed (LSMISettings.SigmaX, SigmaY, Settings.Lambda).
// The default grids widen themselves while the best point lies on an edge
// (docs/DESIGN.md §4); a warning says so when a limit stops them.
func LSMI(ctx context.Context, x, y mat.Matrix, s *LSMISettings) (*LSMIResult, error) {
	if s == nil {
		s = &LSMISettings{}
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	px, py, rnd, err := scaledPairs(x, y, s)
	if err != nil {
		return nil, err
	}
	return lsmi(ctx, px, py, s, rnd, nil)
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
	rnd = rand.New(s.source())
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
	m, res, err := fitLSMI(ctx, px, py, s, rnd, cv)
	if err != nil {
		return nil, err
	}
	src := rand.NewPCG(rnd.Uint64(), rnd.Uint64())
	if sh != nil {
		m.cache, src = sh.y, rand.NewPCG(sh.seed[0], sh.seed[1])
	}
	k := min(s.k(), px.n)
	draws := s.draws()
	if s.Exact {
		k, m.mh, m.mf, draws = px.n, px.n, px.n, 1
	}
	o := &oracle{n: px.n, lambdaN: res.Lambda / float64(px.pop), moments: m.moments}
	f, err := o.solve(ctx, k, draws, !s.WithoutReplacement, s.Exact, src, s.Workers)
	if err != nil {
		return nil, err
	}
	res.SMI, res.StdErr, res.Draws = f.mean, f.stderr, f.values
	res.PlugIn, _ = summary.MeanStdErr(f.plugin)
	res.K, res.M = k, min(m.mh, px.n)+min(m.mf, px.n)
	return res, nil
}

// lsmiModel is the LSMI problem of docs/DESIGN.md §3: centres are observed pairs;
// h averages over mh pairs and each factor of H over mf rows per draw (every
// row when they reach n).
type lsmiModel struct {
	x, y   *points
	gx, gy kernel.Gaussian // widths in internal units
	mh, mf int
	cache  *memo[drawKey, drawY] // shared by Rank's features; nil otherwise
}

// fitLSMI chooses the widths and λ of the scaled samples (by
// cross-validation on the design cv, or on a new one when cv is nil, unless
// fixed) and returns the model and the result's settings fields.
func fitLSMI(ctx context.Context, px, py *points, s *LSMISettings, rnd *rand.Rand, cv *lsmiCV) (*lsmiModel, *LSMIResult, error) {
	half := max(1, s.m()/2)
	m := &lsmiModel{x: px, y: py, mh: half, mf: half}
	res := &LSMIResult{N: px.pop, Exact: s.Exact}
	sx, sy := s.SigmaX/px.scale, s.SigmaY/py.scale
	lambdaN := s.Lambda / float64(px.pop)
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
			lambdaN = bl
		}
		ut := userTable(t, []float64{px.scale, py.scale}, float64(px.pop))
		res.Warnings = gridWarnings(ut, stops, []string{"kernel width σx", "kernel width σy"}, false)
		res.CV = &crossval.Table[[2]float64]{Cols: ut.Cols, Scores: ut.Scores, BestRow: ut.BestRow, BestCol: ut.BestCol}
		for _, r := range ut.Rows {
			res.CV.Rows = append(res.CV.Rows, [2]float64{r[0], r[1]})
		}
	}
	m.gx, m.gy = kernel.Gaussian{Sigma: sx}, kernel.Gaussian{Sigma: sy}
	res.SigmaX, res.SigmaY = sx*px.scale, sy*py.scale
	res.Lambda = lambdaN * float64(px.pop)
	return m, res, nil
}

// moments returns H and h for the centre pairs idx: h and the x-factor of
// H average over the same mh pairs, the y-factor over mf rows drawn
// independently of them (the product of two averages over the same rows
// would be biased; sharing the x rows with h saves a kernel matrix). Every
// random draw comes first, so that with a cache (Rank) the y side of a
// draw is computed once for all features whose draws coincide.
func (m *lsmiModel) moments(idx []int, rnd *rand.Rand) (*mat.SymDense, []float64, error) {
	key := rnd.Uint64() // names the draw: coinciding generators draw the same rows
	pairRows := m.x.draw(m.mh, rnd)
	yRows := m.y.draw(m.mf, rnd)
	if pairRows == nil {
		// Exact averages: every pair, block by block, nothing cached.
		return m.exactMoments(idx)
	}
	yd, err := m.cache.get(drawKey{key, m.gy.Sigma}, func() (drawY, error) { return m.ySide(idx, pairRows, yRows) })
	if err != nil {
		return nil, nil, err
	}
	u, err := m.x.rows(idx)
	if err != nil {
		return nil, nil, err
	}
	xb, err := m.x.rows(pairRows)
	if err != nil {
		return nil, nil, err
	}
	k := len(idx)
	kt := mat.NewDense(k, len(pairRows), nil)
	m.gx.MatrixTo(kt, u, xb)
	gx := mat.NewSymDense(k, nil)
	kernel.AddGram(gx, kt)
	h := make([]float64, k)
	for l := range k {
		h[l] = floats.Dot(kt.RawRowView(l), yd.lt.RawRowView(l)) / float64(len(pairRows))
	}
	gy := mat.NewSymDense(k, nil)
	gy.CopySym(yd.gy)
	return hadamard(gx, gy, 1/(float64(len(pairRows))*float64(yd.ny))), h, nil
}

// ySide computes the y side of a draw: the y-kernel values of the pairs
// and the y-factor's Gram matrix over yRows (every row when nil).
func (m *lsmiModel) ySide(idx, pairRows, yRows []int) (drawY, error) {
	v, err := m.y.rows(idx)
	if err != nil {
		return drawY{}, err
	}
	yb, err := m.y.rows(pairRows)
	if err != nil {
		return drawY{}, err
	}
	k := len(idx)
	d := drawY{lt: mat.NewDense(k, len(pairRows), nil), gy: mat.NewSymDense(k, nil)}
	m.gy.MatrixTo(d.lt, v, yb)
	d.ny, err = m.y.momentsOf(nil, d.gy, m.gy, v, yRows)
	return d, err
}

// exactMoments returns H and h averaged over every row.
func (m *lsmiModel) exactMoments(idx []int) (*mat.SymDense, []float64, error) {
	u, err := m.x.rows(idx)
	if err != nil {
		return nil, nil, err
	}
	v, err := m.y.rows(idx)
	if err != nil {
		return nil, nil, err
	}
	k := len(idx)
	h := make([]float64, k)
	gx, gy := mat.NewSymDense(k, nil), mat.NewSymDense(k, nil)
	err = eachBlock(m.x.n, func(rows []int) error {
		xb, err := m.x.rows(rows)
		if err != nil {
			return err
		}
		yb, err := m.y.rows(rows)
		if err != nil {
			return err
		}
		kt, lt := mat.NewDense(k, len(rows), nil), mat.NewDense(k, len(rows), nil)
		m.gx.MatrixTo(kt, u, xb)
		m.gy.MatrixTo(lt, v, yb)
		for l := range k {
			h[l] += floats.Dot(kt.RawRowView(l), lt.RawRowView(l))
		}
		kernel.AddGram(gx, kt)
		kernel.AddGram(gy, lt)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	n := float64(m.x.n)
	floats.Scale(1/n, h)
	return hadamard(gx, gy, 1/(n*n)), h, nil
}

// drawKey names the y side of a draw: the draw's first random number and
// the y width.
type drawKey struct {
	draw  uint64
	sigma float64
}

// drawY is the y side of a draw.
type drawY struct {
	lt *mat.Dense    // k × pairs: y-kernel values of the pairs
	gy *mat.SymDense // the y-factor's Gram matrix
	ny int           // rows it averages
}

// hadamard returns f·(a ∘ b), overwriting a.
func hadamard(a, b *mat.SymDense, f float64) *mat.SymDense {
	ra, rb := a.RawSymmetric(), b.RawSymmetric()
	for i := range ra.N {
		for j := i; j < ra.N; j++ {
			ra.Data[i*ra.Stride+j] *= f * rb.Data[i*rb.Stride+j]
		}
	}
	return a
}
