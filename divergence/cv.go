// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/crossval"
)

// foldStats are the training and held-out moments of one fold.
type foldStats struct {
	hTr, hTe []float64
	gTr, gTe *mat.SymDense
}

// heldOutScores returns, for each regularisation λₖ, the held-out score
// averaged over the folds:
//
//	score = ½ θᵀ H_te θ − h_teᵀ θ,   θ = (H_tr + λₖ I)⁻¹ h_tr,
//
// which for RuLSIF is α/2·mean_te g(x)² + (1−α)/2·mean_te g(y)² − mean_te g(x)
// and for LSMI its analogue; lower is better. A fold whose system cannot be
// solved scores +Inf.
func heldOutScores(folds []foldStats, lambdas []float64) []float64 {
	scores := make([]float64, len(lambdas))
	for _, f := range folds {
		k := len(f.hTr)
		rs := newRidgeSolver(f.gTr)
		theta := make([]float64, k)
		ht := mat.NewVecDense(k, nil)
		for j, l := range lambdas {
			copy(theta, f.hTr)
			if !rs.factor(l) {
				scores[j] = math.Inf(1)
				continue
			}
			rs.solve(theta)
			ht.MulVec(f.gTe, mat.NewVecDense(k, theta))
			scores[j] += (0.5*floats.Dot(theta, ht.RawVector().Data) - floats.Dot(f.hTe, theta)) / float64(len(folds))
		}
	}
	return scores
}

// foldBlocks reads the rows, already in random order, and splits them into
// folds of near-equal size.
func foldBlocks(p *points, rows []int, folds int) ([]*mat.Dense, error) {
	x, err := p.rows(rows)
	if err != nil {
		return nil, err
	}
	blocks := make([]*mat.Dense, folds)
	for f := range folds {
		lo, hi := f*len(rows)/folds, (f+1)*len(rows)/folds
		blocks[f] = x.Slice(lo, hi, 0, p.dim).(*mat.Dense)
	}
	return blocks, nil
}

// rowScorer returns the held-out scores, one per regularisation, of one
// setting of the kernel widths (one width per kernel).
type rowScorer func(ctx context.Context, widths []float64) ([]float64, error)

// widenLimit bounds the automatic widening of the kernel-width grid: widths
// from 1/widenLimit to widenLimit times the median heuristic.
const widenLimit = 64

// searchWidths cross-validates over the product of the kernel-width axes
// (one per kernel, in internal units where the median heuristic is 1) and the
// regularisations lambdas. When widenLow (widenHigh) is set, an axis on whose
// lower (upper) edge the best point lies is extended by factors of two,
// within [1/widenLimit, widenLimit], and the search repeats; memoised rows
// are not scored again. Rows of the returned table are width vectors, one
// entry per axis.
func searchWidths(ctx context.Context, axes [][]float64, lambdas []float64, widenLow, widenHigh bool, workers int, score rowScorer) (*crossval.Table[[]float64], error) {
	scores := newMemo[string, []float64]() // a widened grid scores only its new rows
	axes = slices.Clone(axes)
	const eps = 1e-9
	for {
		rows := product(axes)
		t, err := crossval.Search(ctx, rows, lambdas, func(ctx context.Context, i int) ([]float64, error) {
			return scores.get(fmt.Sprint(rows[i]), func() ([]float64, error) { return score(ctx, rows[i]) })
		}, workers)
		if err != nil {
			return nil, err
		}
		best := rows[t.BestRow]
		extended := false
		for a, ax := range axes {
			lo, hi := ax[0], ax[len(ax)-1]
			switch {
			case len(ax) < 2:
			case widenLow && best[a] == lo && lo/2 >= (1-eps)/widenLimit:
				ext := []float64{lo / 2}
				if lo/4 >= (1-eps)/widenLimit {
					ext = []float64{lo / 4, lo / 2}
				}
				axes[a] = append(ext, ax...)
				extended = true
			case widenHigh && best[a] == hi && hi*2 <= (1+eps)*widenLimit:
				axes[a] = append(slices.Clone(ax), hi*2)
				if hi*4 <= (1+eps)*widenLimit {
					axes[a] = append(axes[a], hi*4)
				}
				extended = true
			}
		}
		if !extended {
			return t, nil
		}
	}
}

// product returns the Cartesian product of the axes, the last varying
// fastest.
func product(axes [][]float64) [][]float64 {
	rows := [][]float64{{}}
	for _, ax := range axes {
		next := make([][]float64, 0, len(rows)*len(ax))
		for _, r := range rows {
			for _, v := range ax {
				next = append(next, append(slices.Clone(r), v))
			}
		}
		rows = next
	}
	return rows
}

// userTable returns the table in the user's units: the width of axis a
// multiplied by scales[a], regularisations λ/N multiplied by N.
func userTable(t *crossval.Table[[]float64], scales []float64, n float64) *crossval.Table[[]float64] {
	c := *t
	c.Rows = make([][]float64, len(t.Rows))
	for i, r := range t.Rows {
		c.Rows[i] = make([]float64, len(r))
		for a, v := range r {
			c.Rows[i][a] = v * scales[a]
		}
	}
	c.Cols = scaleAll(t.Cols, n)
	return &c
}

// scaleAll returns v multiplied by f.
func scaleAll(v []float64, f float64) []float64 {
	out := make([]float64, len(v))
	floats.ScaleTo(out, f, v)
	return out
}

// gridWarnings describes a best point on an edge of the grid, naming each
// width axis. lowLambda asks for a warning at the smallest regularisation
// too, which says nothing when the grid reaches down to practically none.
func gridWarnings(t *crossval.Table[[]float64], widthNames []string, lowLambda bool) []string {
	var w []string
	best := t.Rows[t.BestRow]
	for a, name := range widthNames {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, r := range t.Rows {
			lo, hi = math.Min(lo, r[a]), math.Max(hi, r[a])
		}
		switch {
		case lo == hi:
		case best[a] == lo:
			w = append(w, fmt.Sprintf("cross-validation chose the smallest %s tried (%.4g, grid %.4g to %.4g): the estimate may be unreliable; consider more data or a finer grid", name, lo, lo, hi))
		case best[a] == hi:
			w = append(w, fmt.Sprintf("cross-validation chose the largest %s tried (%.4g, grid %.4g to %.4g): the best width may lie above the grid (a ratio smooth at the scale of the data, often a weak or broad effect)", name, hi, lo, hi))
		}
	}
	e := t.Edges()
	llo, lhi := t.Cols[0], t.Cols[len(t.Cols)-1]
	if e.ColLow && lowLambda {
		w = append(w, fmt.Sprintf("cross-validation chose the smallest regularisation λ tried (%.4g, grid %.4g to %.4g)", llo, llo, lhi))
	}
	if e.ColHigh {
		w = append(w, fmt.Sprintf("cross-validation chose the largest regularisation λ tried (%.4g, grid %.4g to %.4g): the best λ may lie above the grid (a heavily smoothed fit, often a weak effect)", lhi, llo, lhi))
	}
	return w
}
