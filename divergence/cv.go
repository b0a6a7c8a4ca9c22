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
	"github.com/sublinear/pearson/internal/parallel"
	"github.com/sublinear/pearson/internal/summary"
)

// foldStats are the training and held-out moments of one fold.
type foldStats struct {
	hTr, hTe []float64
	gTr, gTe *mat.SymDense
}

// heldOutScores returns each fold's held-out score at the regularisation λ:
//
//	score = ½ θᵀ H_te θ − h_teᵀ θ,   θ = (H_tr + λ I)⁻¹ h_tr,
//
// which for RuLSIF is α/2·mean_te g(x)² + (1−α)/2·mean_te g(y)² − mean_te g(x)
// and for LSMI its analogue; lower is better. A fold whose system cannot be
// solved scores +Inf.
func heldOutScores(folds []foldStats, lambda float64) []float64 {
	scores := make([]float64, len(folds))
	for i, f := range folds {
		k := len(f.hTr)
		rs := newRidgeSolver(f.gTr)
		theta := make([]float64, k)
		ht := mat.NewVecDense(k, nil)
		copy(theta, f.hTr)
		if !rs.factor(lambda) {
			scores[i] = math.Inf(1)
			continue
		}
		rs.solve(theta)
		ht.MulVec(f.gTe, mat.NewVecDense(k, theta))
		scores[i] = 0.5*floats.Dot(theta, ht.RawVector().Data) - floats.Dot(f.hTe, theta)
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

// foldScorer returns, for one setting of the kernel widths (one width per
// kernel), each fold's held-out score as a function of the
// cross-validation problem's regularisation.
type foldScorer func(ctx context.Context, widths []float64) (func(ridge float64) []float64, error)

// peScores returns each fold's held-out score of the folds' moments as a
// function of the regularisation.
func peScores(folds []foldStats) func(ridge float64) []float64 {
	return func(ridge float64) []float64 { return heldOutScores(folds, ridge) }
}

// foldMean returns the mean of the fold scores, summed in fold order.
func foldMean(s []float64) float64 {
	m := 0.0
	for _, v := range s {
		m += v / float64(len(s))
	}
	return m
}

// Limits of the self-widening grid (docs/DESIGN.md §4). Widths are in
// internal units, where the median heuristic is 1; regularisations are those
// of the cross-validation's own kcv-centre problem, kcv·λ/N.
const (
	widenLimit     = 256  // widths from σ₀/256 to 256σ₀
	ridgeLow       = 1e-9 // practically none, still well-posed for qmin
	ridgeHigh      = 1e3  // θ practically zero: the fit is the constant
	flatTolerance  = 1e-4 // relative gain below which an edge is flat
	maxWidenRounds = 64   // more than the limits allow: a safeguard
)

// searchGrid is a cross-validation grid over the kernel widths (one axis per
// kernel) and the regularisation that widens itself: an axis on whose edge
// the best point lies is extended beyond that edge, by factors of 2 and 4
// for widths and of 10 and 100 for λ, and the search repeats, until the
// best point lies inside the grid, the gain of the edge over its neighbour
// falls below flatTolerance of the score (the score is flat that way and
// the choice does not matter), or a limit stops it. Axes given by the user
// (widen false) keep their values.
type searchGrid struct {
	axes        [][]float64 // kernel widths, internal units
	widen       []bool      // per width axis
	lambdas     []float64   // λ/N, increasing
	widenLambda bool
	ridgeFactor float64 // the cross-validation problem's regularisation is ridgeFactor × column
	// noise, when positive, makes a gain count only if it also exceeds
	// noise standard errors of the best point's score over the folds: a
	// smaller gain would move the estimate by less than its own sampling
	// error, so the score is flat that way for the estimate's purpose
	// (docs/DESIGN.md §4).
	noise float64
	// minGain is an absolute gain below which an edge is flat, with noise.
	minGain float64
	// lowRidge, when positive, moves the final choice along λ, at the best
	// widths, to the smallest λ whose held-out score exceeds the least by
	// at most lowRidge standard errors of the folds' paired differences:
	// a λ the scores cannot tell from the best is as good a fit, and
	// where the regularisation's shrinkage is the estimate's bias
	// (RelativePE) the smallest such λ is the least biased
	// (docs/DESIGN.md §4).
	lowRidge float64
}

// edgeStop is an edge of the grid on which the best point lies although the
// score still improves towards it: the user's grid ended there (atLimit
// false), or a widening limit stopped it.
type edgeStop struct {
	axis    int // width axis, or -1 for λ
	high    bool
	atLimit bool
}

// search cross-validates over the grid g (see searchGrid); fold moments are
// computed once per width vector and held-out scores once per width vector
// and λ, however often the grid widens. Rows of the returned table are width
// vectors; columns are the regularisation in the caller's units. Each fold
// moment and score runs under parallel.Await, so that a cancellation of ctx
// ends the search at once even inside a k×k Gram matrix or factorisation;
// what folds computes must therefore be its own (fresh matrices, no writes
// to the model).
func (g searchGrid) search(ctx context.Context, workers int, folds foldScorer) (*crossval.Table[[]float64], []edgeStop, error) {
	stats := newMemo[string, func(float64) []float64]()
	scores := newMemo[string, []float64]()
	axes := slices.Clone(g.axes)
	lambdas := slices.Clone(g.lambdas)
	for round := 0; ; round++ {
		rows := product(axes)
		perFold := make([][][]float64, len(rows))
		t, err := crossval.Search(ctx, rows, lambdas, func(ctx context.Context, i int) ([]float64, error) {
			key := fmt.Sprint(rows[i])
			score, err := stats.get(key, func() (func(float64) []float64, error) {
				return parallel.Await(ctx, func() (func(float64) []float64, error) { return folds(ctx, rows[i]) })
			})
			if err != nil {
				return nil, err
			}
			out := make([]float64, len(lambdas))
			perFold[i] = make([][]float64, len(lambdas))
			for j, l := range lambdas {
				perFold[i][j], err = scores.get(fmt.Sprint(key, l), func() ([]float64, error) {
					return parallel.Await(ctx, func() ([]float64, error) { return score(g.ridgeFactor * l), nil })
				})
				if err != nil {
					return nil, err
				}
				out[j] = foldMean(perFold[i][j])
			}
			return out, nil
		}, workers)
		if err != nil {
			return nil, nil, err
		}
		var stops []edgeStop
		extended := false
		best := rows[t.BestRow]
		bestScore := t.Scores[t.BestRow][t.BestCol]
		// improves reports whether the best point gains on its neighbour
		// (row r, column c) by more than the flat tolerance and, with
		// g.noise, by more than the folds' scatter of the best score.
		improves := func(r, c int) bool {
			gain := t.Scores[r][c] - bestScore
			if gain <= flatTolerance*math.Abs(bestScore) {
				return false
			}
			if g.noise == 0 {
				return true
			}
			_, se := summary.MeanStdErr(perFold[t.BestRow][t.BestCol])
			return gain > g.noise*se && gain > g.minGain
		}
		stride := 1 // rows between neighbours along axis a (the last varies fastest)
		for a := len(axes) - 1; a >= 0; a-- {
			ax := axes[a]
			if len(ax) > 1 {
				i := slices.Index(ax, best[a])
				switch {
				case i == 0 && improves(t.BestRow+stride, t.BestCol):
					next, ok := widenDown(ax, 2, 1/float64(widenLimit))
					if ok && g.widen[a] && round < maxWidenRounds {
						axes[a], extended = next, true
					} else {
						stops = append(stops, edgeStop{axis: a, atLimit: g.widen[a]})
					}
				case i == len(ax)-1 && improves(t.BestRow-stride, t.BestCol):
					next, ok := widenUp(ax, 2, widenLimit)
					if ok && g.widen[a] && round < maxWidenRounds {
						axes[a], extended = next, true
					} else if !g.widen[a] {
						// At the widening limit the kernel is constant to
						// within 1/(2·256²) over the data: a wider one
						// would fit the same flat ratio, so the limit is
						// not worth a warning.
						stops = append(stops, edgeStop{axis: a, high: true})
					}
				}
			}
			stride *= len(ax)
		}
		if nl := len(lambdas); nl > 1 {
			switch {
			case t.BestCol == 0 && improves(t.BestRow, 1):
				next, ok := widenDown(lambdas, 10, ridgeLow/g.ridgeFactor)
				if ok && g.widenLambda && round < maxWidenRounds {
					lambdas, extended = next, true
				} else {
					stops = append(stops, edgeStop{axis: -1, atLimit: g.widenLambda})
				}
			case t.BestCol == nl-1 && improves(t.BestRow, nl-2):
				next, ok := widenUp(lambdas, 10, ridgeHigh/g.ridgeFactor)
				if ok && g.widenLambda && round < maxWidenRounds {
					lambdas, extended = next, true
				} else {
					stops = append(stops, edgeStop{axis: -1, high: true, atLimit: g.widenLambda})
				}
			}
		}
		if !extended {
			if g.lowRidge > 0 {
				if c := g.lowestWithinNoise(perFold[t.BestRow], t.BestCol); c != t.BestCol {
					t.BestCol = c
					// The λ chosen is not on an edge towards which the
					// score improves: its edge stops no longer apply.
					stops = slices.DeleteFunc(stops, func(e edgeStop) bool { return e.axis == -1 })
				}
			}
			return t, stops, nil
		}
	}
}

// lowestWithinNoise returns the smallest column c ≤ best whose fold scores
// exceed those of best, paired fold by fold, by a mean of at most lowRidge
// standard errors of the differences (see searchGrid.lowRidge).
func (g searchGrid) lowestWithinNoise(folds [][]float64, best int) int {
	d := make([]float64, len(folds[best]))
	for c := range best {
		for f := range d {
			d[f] = folds[c][f] - folds[best][f]
		}
		if m, se := summary.MeanStdErr(d); m <= g.lowRidge*se {
			return c
		}
	}
	return best
}

// widenDown returns ax extended below its first value by the factors 1/f
// and 1/f² that stay at or above limit, and whether there was one.
func widenDown(ax []float64, f, limit float64) ([]float64, bool) {
	const eps = 1e-9
	lo := ax[0]
	switch {
	case lo/(f*f) >= limit*(1-eps):
		return append([]float64{lo / (f * f), lo / f}, ax...), true
	case lo/f >= limit*(1-eps):
		return append([]float64{lo / f}, ax...), true
	}
	return ax, false
}

// widenUp returns ax extended above its last value by the factors f and f²
// that stay at or below limit, and whether there was one.
func widenUp(ax []float64, f, limit float64) ([]float64, bool) {
	const eps = 1e-9
	hi := ax[len(ax)-1]
	switch {
	case hi*f*f <= limit*(1+eps):
		return append(slices.Clone(ax), hi*f, hi*f*f), true
	case hi*f <= limit*(1+eps):
		return append(slices.Clone(ax), hi*f), true
	}
	return ax, false
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

// gridWarnings describes the edges where cross-validation stopped although
// the score still improved towards them (see searchGrid.search), naming each
// width axis, in the user's units of t. lowLambda asks for a warning at the
// smallest regularisation too, which says nothing when the grid reaches
// down to practically none.
func gridWarnings(t *crossval.Table[[]float64], stops []edgeStop, widthNames []string, lowLambda bool) []string {
	var w []string
	best := t.Rows[t.BestRow]
	for _, e := range stops {
		name, v := "regularisation λ", t.Cols[t.BestCol]
		lo, hi := t.Cols[0], t.Cols[len(t.Cols)-1]
		if e.axis >= 0 {
			name, v = widthNames[e.axis], best[e.axis]
			lo, hi = math.Inf(1), math.Inf(-1)
			for _, r := range t.Rows {
				lo, hi = math.Min(lo, r[e.axis]), math.Max(hi, r[e.axis])
			}
		} else if !e.high && !lowLambda {
			continue
		}
		which, why := "smallest", "the grid was given and is not widened"
		if e.high {
			which = "largest"
		}
		switch {
		case e.atLimit && e.axis >= 0:
			why = fmt.Sprintf("the grid widened itself to its limit, 1/%d of the median heuristic", widenLimit)
		case e.atLimit:
			why = fmt.Sprintf("the grid widened itself to its limit, kλ/n = %g in the cross-validation's problem", ridgeHigh)
			if !e.high {
				why = fmt.Sprintf("the grid widened itself to its limit, kλ/n = %g in the cross-validation's problem", ridgeLow)
			}
		}
		w = append(w, fmt.Sprintf("cross-validation chose the %s %s tried (%.4g, grid %.4g to %.4g) and the score still improved that way: %s; the estimate may be unreliable", which, name, v, lo, hi, why))
	}
	return w
}
