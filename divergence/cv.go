// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"fmt"
	"math"
	"sync"

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

// rowScorer returns the held-out scores, one per regularisation, of one
// setting of the kernel widths (one width per kernel).
type rowScorer func(ctx context.Context, widths []float64) ([]float64, error)

// memoScorer remembers the scores of each setting of the widths, so that a
// widened grid scores only its new rows.
type memoScorer struct {
	mu    sync.Mutex
	memo  map[string][]float64
	score rowScorer
}

func (m *memoScorer) row(ctx context.Context, w []float64) ([]float64, error) {
	key := fmt.Sprint(w)
	m.mu.Lock()
	s, ok := m.memo[key]
	m.mu.Unlock()
	if ok {
		return s, nil
	}
	s, err := m.score(ctx, w)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.memo[key] = s
	m.mu.Unlock()
	return s, nil
}

// widenLimit bounds the automatic widening of the kernel-width grid: widths
// from 1/widenLimit to widenLimit times the median heuristic.
const widenLimit = 64

// searchWidths cross-validates over 1-D kernel widths sigmas (internal units,
// where the median heuristic is 1) and regularisations lambdas, widening the
// width grid by factors of two while the best width is on an edge, within
// [1/widenLimit, widenLimit] when widen is set. It returns the table over the
// final grid, rows in internal units.
func searchWidths(ctx context.Context, sigmas, lambdas []float64, widen bool, workers int, score rowScorer) (*crossval.Table, error) {
	ms := &memoScorer{memo: map[string][]float64{}, score: score}
	rows := append([]float64(nil), sigmas...)
	for {
		t, err := crossval.Search(ctx, rows, lambdas, func(ctx context.Context, i int) ([]float64, error) {
			return ms.row(ctx, []float64{rows[i]})
		}, workers)
		if err != nil {
			return nil, err
		}
		e := t.Edges()
		switch {
		case widen && e.RowLow && rows[0]/2 >= 1.0/widenLimit*(1-1e-9):
			rows = append([]float64{rows[0] / 4, rows[0] / 2}, rows...)
			if rows[0] < 1.0/widenLimit*(1-1e-9) {
				rows = rows[1:]
			}
		case widen && e.RowHigh && rows[len(rows)-1]*2 <= widenLimit*(1+1e-9):
			last := rows[len(rows)-1]
			rows = append(rows, last*2)
			if last*4 <= widenLimit*(1+1e-9) {
				rows = append(rows, last*4)
			}
		default:
			return t, nil
		}
	}
}

// edgeWarnings describes a best point on the edge of the grid.
func edgeWarnings(t *crossval.Table, widthName, lambdaName string) []string {
	var w []string
	e := t.Edges()
	lo, hi := t.Rows[0], t.Rows[len(t.Rows)-1]
	if e.RowLow {
		w = append(w, fmt.Sprintf("cross-validation chose the smallest %s tried (%.4g, grid %.4g to %.4g): the estimate may be unreliable; consider more data or a finer grid", widthName, lo, lo, hi))
	}
	if e.RowHigh {
		w = append(w, fmt.Sprintf("cross-validation chose the largest %s tried (%.4g, grid %.4g to %.4g): the fitted ratio is nearly constant, as when the distributions barely differ", widthName, hi, lo, hi))
	}
	llo, lhi := t.Cols[0], t.Cols[len(t.Cols)-1]
	if e.ColLow {
		w = append(w, fmt.Sprintf("cross-validation chose the smallest %s tried (%.4g, grid %.4g to %.4g)", lambdaName, llo, llo, lhi))
	}
	if e.ColHigh {
		w = append(w, fmt.Sprintf("cross-validation chose the largest %s tried (%.4g, grid %.4g to %.4g): the data support little more than a constant ratio", lambdaName, lhi, llo, lhi))
	}
	return w
}
