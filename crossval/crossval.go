// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package crossval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/sublinear/pearson/internal/isnil"
	"github.com/sublinear/pearson/internal/parallel"
)

// ErrNoScore means no point of the grid has a finite score.
var ErrNoScore = errors.New("no finite score on the grid")

// Table is the result of a grid search over two axes, such as kernel widths
// (rows) and regularisations (columns). A row may be any value: a width, or
// a pair of widths for a model with two kernels.
type Table[R any] struct {
	// Rows and Cols are the values along the two axes.
	Rows []R
	Cols []float64
	// Scores[i][j] is the held-out score at (Rows[i], Cols[j]); lower is
	// better. Points whose score was not finite hold +Inf.
	Scores [][]float64
	// BestRow and BestCol index the point of least score; ties go to the
	// first in row-major order.
	BestRow, BestCol int
}

// Edges says on which edges of the grid the best point lies. An axis with a
// single value has no edges.
type Edges struct {
	RowLow, RowHigh, ColLow, ColHigh bool
}

// Any reports whether the best point lies on any edge.
func (e Edges) Any() bool { return e.RowLow || e.RowHigh || e.ColLow || e.ColHigh }

// Edges reports on which edges of the grid the best point lies: a sign that
// the optimum may lie outside the grid.
func (t *Table[R]) Edges() Edges {
	nr, nc := len(t.Rows), len(t.Cols)
	return Edges{
		RowLow:  nr > 1 && t.BestRow == 0,
		RowHigh: nr > 1 && t.BestRow == nr-1,
		ColLow:  nc > 1 && t.BestCol == 0,
		ColHigh: nc > 1 && t.BestCol == nc-1,
	}
}

// Best returns the values of the best point.
func (t *Table[R]) Best() (row R, col float64) { return t.Rows[t.BestRow], t.Cols[t.BestCol] }

// RowScore returns the held-out scores of row i of the grid at every column,
// so that work shared by a row (a kernel matrix for one width, say) is done
// once. It must be safe to call concurrently for different rows.
type RowScore func(ctx context.Context, i int) ([]float64, error)

// Search evaluates score on every row of the grid rows × cols, on at most
// workers goroutines at once (zero means GOMAXPROCS), and returns the whole
// table with its best point. The table does not depend on the number of
// workers. Scores that are NaN or infinite count as +Inf; if no score is
// finite the error wraps ErrNoScore. The first error of score, in row order,
// is returned, as is ctx's error when it is cancelled.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func Search[R any](ctx context.Context, rows []R, cols []float64, score RowScore, workers int) (*Table[R], error) {
	isnil.Context(ctx, "crossval.Search")
	if len(rows) == 0 || len(cols) == 0 {
		return nil, fmt.Errorf("crossval: empty grid (%d×%d)", len(rows), len(cols))
	}
	if score == nil {
		return nil, errors.New("crossval: nil score function")
	}
	t := &Table[R]{Rows: rows, Cols: cols, Scores: make([][]float64, len(rows))}
	errs := make([]error, len(rows))
	parallel.For(len(rows), parallel.Workers(workers), func(i int) {
		if err := ctx.Err(); err != nil {
			errs[i] = err
			return
		}
		s, err := score(ctx, i)
		switch {
		case err != nil:
			errs[i] = err
		case len(s) != len(cols):
			errs[i] = fmt.Errorf("crossval: row %d has %d scores for %d columns", i, len(s), len(cols))
		default:
			t.Scores[i] = slices.Clone(s) // the caller keeps its slice
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	best := math.Inf(1)
	for i, row := range t.Scores {
		for j, s := range row {
			if math.IsNaN(s) || math.IsInf(s, 0) {
				row[j] = math.Inf(1)
				continue
			}
			if s < best {
				best, t.BestRow, t.BestCol = s, i, j
			}
		}
	}
	if math.IsInf(best, 1) {
		return nil, fmt.Errorf("crossval: %w (%d×%d points)", ErrNoScore, len(rows), len(cols))
	}
	return t, nil
}

// LogGrid returns n values spaced evenly in logarithm from lo to hi, both
// included (lo alone when n is 1). It panics unless lo and hi are positive
// and n ≥ 1.
func LogGrid(lo, hi float64, n int) []float64 {
	if !(lo > 0) || !(hi > 0) || n < 1 {
		panic(fmt.Sprintf("crossval: LogGrid(%v, %v, %d): need lo, hi > 0 and n ≥ 1", lo, hi, n))
	}
	g := make([]float64, n)
	for i := range g {
		if n == 1 {
			g[i] = lo
			continue
		}
		g[i] = lo * math.Pow(hi/lo, float64(i)/float64(n-1))
	}
	return g
}
