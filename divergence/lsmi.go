// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/crossval"
	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/summary"
	"github.com/sublinear/pearson/kernel"
)

// DefaultLSMISigmaScales are the kernel widths LSMI's cross-validation
// tries on each variable, as multiples of that variable's median heuristic;
// the grid is widened by factors of two while the best lies on its edge.
var DefaultLSMISigmaScales = crossval.LogGrid(1.0/4, 4, 5)

// DefaultLSMILambdaScales are the values of kλ/n LSMI's cross-validation
// tries. They reach lower than DefaultLambdaScales: H is a product of two
// kernel averages, whose eigenvalues are smaller.
var DefaultLSMILambdaScales = crossval.LogGrid(1e-7, 1e-3, 3)

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
// score ½θᵀH_teθ − h_teᵀθ, unless fixed (Settings.SigmaX, SigmaY, Lambda).
// LSMI is biased low for strong dependence; the width grids widen towards
// narrow kernels automatically when the best width lies on their lower edge,
// and a warning says so when the limit is reached.
func LSMI(ctx context.Context, x, y mat.Matrix, s *Settings) (*LSMIResult, error) {
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
	return lsmi(ctx, px, py, s, rnd, nil)
}

// newPairs wraps paired samples, which must have the same number of rows.
func newPairs(x, y mat.Matrix) (*points, *points, error) {
	px, err := newPoints("x", x)
	if err != nil {
		return nil, nil, err
	}
	py, err := newPoints("y", y)
	if err != nil {
		return nil, nil, err
	}
	if px.n != py.n || px.pop != py.pop {
		return nil, nil, fmt.Errorf("divergence: %w: x has %d rows but y has %d: LSMI needs paired rows", ErrDimension, px.pop, py.pop)
	}
	return px, py, nil
}

// lsmi is LSMI on validated samples, each divided by its fixed width or its
// median heuristic (see scaled); sh, when not nil, holds what Rank's
// features share.
func lsmi(ctx context.Context, px, py *points, s *Settings, rnd *rand.Rand, sh *lsmiShared) (*LSMIResult, error) {
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

// lsmiModel is the LSMI problem of DESIGN.md §3: centres are observed pairs;
// h averages over mh pairs and each factor of H over mf rows per draw (every
// row when they reach n).
type lsmiModel struct {
	x, y   *points
	gx, gy kernel.Gaussian // widths in internal units
	mh, mf int
	cache  *drawCache // shared by Rank's features; nil otherwise
}

// fitLSMI chooses the widths and λ of the scaled samples (by
// cross-validation on the design cv, or on a new one when cv is nil, unless
// fixed) and returns the model and the result's settings fields.
func fitLSMI(ctx context.Context, px, py *points, s *Settings, rnd *rand.Rand, cv *lsmiCV) (*lsmiModel, *LSMIResult, error) {
	half := max(1, s.m()/2)
	m := &lsmiModel{x: px, y: py, mh: half, mf: half}
	res := &LSMIResult{N: px.pop, Exact: s.Exact}
	sx, sy := s.SigmaX/px.scale, s.SigmaY/py.scale
	lambdaN := s.Lambda / float64(px.pop)
	if s.SigmaX == 0 || s.SigmaY == 0 || s.Lambda == 0 {
		if cv == nil {
			var err error
			if cv, err = newLSMICV(py, s, rnd); err != nil {
				return nil, nil, err
			}
		}
		t, err := m.crossValidate(ctx, s, cv)
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
		res.Warnings = gridWarnings(ut, []string{"kernel width σx", "kernel width σy"}, false)
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

// drawCache keeps the y side of draws for the features of a ranking. A nil
// cache computes every time.
type drawCache struct {
	mu sync.Mutex
	m  map[drawKey]*drawEntry
}

type drawEntry struct {
	once sync.Once
	val  drawY
	err  error
}

func (c *drawCache) get(key drawKey, compute func() (drawY, error)) (drawY, error) {
	if c == nil {
		return compute()
	}
	c.mu.Lock()
	e, ok := c.m[key]
	if !ok {
		e = &drawEntry{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.val, e.err = compute() })
	return e.val, e.err
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

// lsmiCVCentres bounds the centres of LSMI's cross-validation: its grid has
// two width axes, and a k-centre fit costs O(k³) per fold, width pair and λ.
// The regularisation chosen carries over to k centres through kλ/n.
const lsmiCVCentres = 100

// lsmiAxis holds, for one kernel width on one variable, each fold's kernel
// values (transposed: a row per centre) and Gram matrix.
type lsmiAxis struct {
	kt []*mat.Dense
	g  []*mat.SymDense
}

// axisCache computes each width's lsmiAxis once, however many rows of the
// grid share it and whichever goroutine asks first.
type axisCache struct {
	mu      sync.Mutex
	entries map[float64]*axisEntry
	compute func(sigma float64) lsmiAxis
}

type axisEntry struct {
	once sync.Once
	val  lsmiAxis
}

func (c *axisCache) get(sigma float64) lsmiAxis {
	c.mu.Lock()
	e, ok := c.entries[sigma]
	if !ok {
		e = &axisEntry{}
		c.entries[sigma] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.val = c.compute(sigma) })
	return e.val
}

// lsmiShared is what the features of a ranking share, so that the target's
// kernel statistics are computed once and the features are compared on the
// same rows: the cross-validation design, the seed of the estimate's draws,
// and the y side of those draws.
type lsmiShared struct {
	cv   *lsmiCV // nil when the widths and λ are fixed
	seed [2]uint64
	y    *drawCache
}

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
	counts     []float64 // rows per fold
	y          *axisCache
}

// newLSMICV draws the design over the rows of y, which must be scaled.
func newLSMICV(py *points, s *Settings, rnd *rand.Rand) (*lsmiCV, error) {
	folds := s.folds()
	n := py.n
	kcv := min(s.k(), lsmiCVCentres, n/2)
	d := &lsmiCV{kcv: kcv, folds: folds}
	d.centreRows = indices.Sample(n, kcv, false, rnd)
	d.rows = indices.SampleExcept(n, max(1, s.m()/2), d.centreRows, rnd)
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
	d.y = newAxisCache(yf, v)
	return d, nil
}

// newAxisCache caches, per kernel width, each fold's kernel values against
// the centres and Gram matrix.
func newAxisCache(blocks []*mat.Dense, centres *mat.Dense) *axisCache {
	k, _ := centres.Dims()
	return &axisCache{entries: map[float64]*axisEntry{}, compute: func(sigma float64) lsmiAxis {
		g := kernel.Gaussian{Sigma: sigma}
		a := lsmiAxis{}
		for _, b := range blocks {
			var kt mat.Dense
			g.MatrixTo(&kt, centres, b)
			gram := mat.NewSymDense(k, nil)
			kernel.AddGram(gram, &kt)
			a.kt = append(a.kt, &kt)
			a.g = append(a.g, gram)
		}
		return a
	}}
}

// crossValidate chooses (σx, σy) in internal units and λ/N by k-fold
// cross-validation on the design d. Each fold's held-out H is the product
// of its own two marginal averages, its h the mean over its pairs.
func (m *lsmiModel) crossValidate(ctx context.Context, s *Settings, d *lsmiCV) (*crossval.Table[[]float64], error) {
	u, err := m.x.rows(d.centreRows)
	if err != nil {
		return nil, err
	}
	xf, err := foldBlocks(m.x, d.rows, d.folds)
	if err != nil {
		return nil, err
	}
	cx := newAxisCache(xf, u)
	grid := s.LambdaScales
	if grid == nil {
		grid = DefaultLSMILambdaScales
	}
	lambdas := scaleAll(grid, 1/float64(d.kcv))
	if s.Lambda != 0 {
		lambdas = []float64{s.Lambda / float64(m.x.pop)}
	}
	ridge := scaleAll(lambdas, float64(d.kcv))
	score := func(_ context.Context, w []float64) ([]float64, error) {
		return heldOutScores(lsmiFoldStats(cx.get(w[0]), d.y.get(w[1]), d.counts), ridge), nil
	}
	scales := s.SigmaScales
	if scales == nil {
		scales = DefaultLSMISigmaScales
	}
	axes := [][]float64{scales, scales}
	if s.SigmaX != 0 {
		axes[0] = []float64{1}
	}
	if s.SigmaY != 0 {
		axes[1] = []float64{1}
	}
	// Widen towards narrow kernels only: strong dependence needs them, while
	// a best width at the wide end means a flat ratio, the answer under
	// independence, which wider kernels would not change.
	return searchWidths(ctx, axes, lambdas, s.SigmaScales == nil, false, s.Workers, score)
}

// lsmiFoldStats builds each fold's training and held-out moments from the
// per-fold kernel values and Gram matrices of the two variables.
func lsmiFoldStats(ax, ay lsmiAxis, counts []float64) []foldStats {
	folds := len(counts)
	k := ax.g[0].SymmetricDim()
	hf := make([][]float64, folds)
	totH := make([]float64, k)
	totX, totY := mat.NewSymDense(k, nil), mat.NewSymDense(k, nil)
	total := 0.0
	for f := range folds {
		hf[f] = make([]float64, k)
		for l := range k {
			hf[f][l] = floats.Dot(ax.kt[f].RawRowView(l), ay.kt[f].RawRowView(l))
		}
		floats.Add(totH, hf[f])
		totX.AddSym(totX, ax.g[f])
		totY.AddSym(totY, ay.g[f])
		total += counts[f]
	}
	stats := make([]foldStats, folds)
	for f := range folds {
		nt := total - counts[f]
		trX, trY := mat.NewSymDense(k, nil), mat.NewSymDense(k, nil)
		trX.ScaleSym(-1, ax.g[f])
		trX.AddSym(totX, trX)
		trY.ScaleSym(-1, ay.g[f])
		trY.AddSym(totY, trY)
		stats[f].gTr = hadamard(trX, trY, 1/(nt*nt))
		stats[f].hTr = make([]float64, k)
		floats.SubTo(stats[f].hTr, totH, hf[f])
		floats.Scale(1/nt, stats[f].hTr)
		te := mat.NewSymDense(k, nil)
		te.CopySym(ax.g[f])
		stats[f].gTe = hadamard(te, ay.g[f], 1/(counts[f]*counts[f]))
		stats[f].hTe = make([]float64, k)
		floats.ScaleTo(stats[f].hTe, 1/counts[f], hf[f])
	}
	return stats
}
