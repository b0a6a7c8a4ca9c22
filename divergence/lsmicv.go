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
	"github.com/sublinear/pearson/kernel"
)

// lsmiCVCentres bounds the centres of LSMI's cross-validation: its grid has
// two width axes, and a k-centre fit costs O(k³) per fold, width pair and λ.
// The regularisation chosen carries over to k centres through kλ/n.
const lsmiCVCentres = 100

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
	counts     []float64                    // rows per fold
	y          func(sigma float64) lsmiAxis // per width, computed once
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

// lsmiAxis holds, for one kernel width on one variable, each fold's kernel
// values (transposed: a row per centre) and Gram matrix.
type lsmiAxis struct {
	kt []*mat.Dense
	g  []*mat.SymDense
}

// newAxisCache returns, for a kernel width, each fold's kernel values
// against the centres and Gram matrix, computed once per width however many
// rows of the grid share it and whichever goroutine asks first.
func newAxisCache(blocks []*mat.Dense, centres *mat.Dense) func(sigma float64) lsmiAxis {
	k, _ := centres.Dims()
	cache := newMemo[float64, lsmiAxis]()
	return func(sigma float64) lsmiAxis {
		a, _ := cache.get(sigma, func() (lsmiAxis, error) { return axisOf(sigma, blocks, centres, k), nil })
		return a
	}
}

// axisOf computes each fold's kernel values and Gram matrix for one width.
func axisOf(sigma float64, blocks []*mat.Dense, centres *mat.Dense, k int) lsmiAxis {
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
	cx := newAxisCache(xf, u)
	lambdas := scaleAll(grid(s.LambdaScales, DefaultLSMILambdaScales), 1/float64(d.kcv))
	if s.Lambda != 0 {
		lambdas = []float64{s.Lambda / float64(m.x.pop)}
	}
	scales := grid(s.SigmaScales, DefaultLSMISigmaScales)
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
		kcv:         float64(d.kcv),
	}
	return g.search(ctx, s.Workers, func(_ context.Context, w []float64) ([]foldStats, error) {
		return lsmiFoldStats(cx(w[0]), d.y(w[1]), d.counts), nil
	})
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
