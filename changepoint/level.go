// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Settings of the level rule (levelChanges).
const (
	// levelPenaltyPerParam sets the statistic a change of level must
	// exceed: levelPenaltyPerParam·(d + 1)·ln T summed over d columns, and
	// 2·levelPenaltyPerParam·ln T + 2·ln d for one column of several, as
	// the spread rule's. Chosen on the tuning seeds (see
	// docs/RESULTS.md, "The segmentation: several columns").
	levelPenaltyPerParam = 2.0
	// levelClip is the clipping of each column of a segment, in robust
	// standard deviations about its median, before the level rule reads
	// it: one outlier must not make a change of mean.
	levelClip = 5.0
	// maxLevelRho is the largest lag-1 autocorrelation of the residuals
	// at which the level rule speaks: more persistent residuals (a random
	// walk, a slow season, a curve the model leaves) are no stationary
	// noise about levels, and their long-run variance is not known.
	maxLevelRho = 0.8
)

// levelChanges searches each segment between the changes kept for a change
// of level that the windows of Segment's score, n rows a side, see too
// weakly (a shift of one or two spreads), by binary segmentation of whole
// segments. In the segment [s, e) of N rows each column y is clipped to its
// median ± levelClip robust standard deviations (one outlier is not a
// change of mean) and centred. A split at row b is searched with the
// statistic of a step alone,
//
//	χ²_c(b) = g₂²/(C·V_c),   g₂ = Σ_{t ≥ b} y(t),   C = M − M²/N,
//
// M = e − b, V_c the long-run variance of the column's residuals about a
// straight line (longRunVariance), and located at the largest
// Σ_c max(0, χ²_c(b) − ln N): by the columns that carry the change (the sum
// of all adds the noise of the others, the largest alone ignores those that
// shift with it). The split is then tested in the model a trend would need
// (final): y on a constant, t, t² and the step, the polynomial's degree
// raised from 0 while the next term lowers the residual sum of squares by
// more than V·ln N (the Schwarz criterion of one coefficient), V from the
// residuals of the fullest model; the statistic is the step's drop of the
// residual sum of squares in the chosen model over V, and 0 when those
// residuals are persistent (lag-1 autocorrelation above maxLevelRho: a
// random walk, a slow season). A ramp or a curve, which a step would fit,
// is thus read as one, and a segment without a trend loses no power to it
// (a step at mid-segment shares three quarters of its square with t).
// A column that Segment de-trended (robustDetrend: a steep trend, whose
// estimated slope leaves what a step would fit) is left to the other
// rules: its statistics are 0. Where no column's χ² exceeds ln N the split
// is placed at the largest of the combined ratio below instead.
// Both sides must hold at least minLen rows; the split is kept when the
// larger of Σ_c χ²_c/penalty and max_c χ²_c/onePenalty exceeds 1 (as in
// spreadChanges), and the two halves are searched again. The changes found
// are returned in time order, with Calibrated that ratio times penalty and
// Rule RuleLevel.
func (sg *segmenter) levelChanges(ctx context.Context, keep []Change, minLen int, penalty, onePenalty float64) ([]Change, error) {
	alone := sg.dim > 1 && !math.IsInf(onePenalty, 1)
	var add []Change
	var search func(s, e int) error
	search = func(s, e int) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("changepoint: level: %w", err)
		}
		N := e - s
		if N < 2*minLen {
			return nil
		}
		cols := make([]levelColumn, sg.dim)
		for j := range sg.dim {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("changepoint: level: %w", err)
			}
			cols[j] = sg.levelColumn(j, s, e)
		}
		// The split of the largest statistic, at the search's V, located
		// by the columns that carry it: Σ_c max(0, χ²_c − ln N) (the sum
		// of all would add the noise of the others, the largest alone
		// ignore those that shift with it); by the test's own ratio where
		// no column passes ln N.
		stats := make([]float64, sg.dim)
		top, bestAt := 0.0, -1
		soft, softAt := 0.0, -1
		kappa := math.Log(float64(N))
		for b := s + minLen; e-b >= minLen; b++ {
			sum := 0.0
			for j := range cols {
				stats[j] = cols[j].stepStat(b - s)
				sum += max(0, stats[j]-kappa)
			}
			if r := combine(stats, penalty, onePenalty, alone); r > top {
				top, bestAt = r, b
			}
			if sum > soft {
				soft, softAt = sum, b
			}
		}
		if softAt >= 0 {
			bestAt = softAt
		}
		if bestAt < 0 {
			return nil
		}
		for j := range cols {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("changepoint: level: %w", err)
			}
			stats[j] = cols[j].final(bestAt - s)
		}
		v := combine(stats, penalty, onePenalty, alone)
		if !(v > 1) {
			return nil
		}
		add = append(add, Change{Time: bestAt, Calibrated: v * penalty, Rule: RuleLevel})
		if err := search(s, bestAt); err != nil {
			return err
		}
		return search(bestAt, e)
	}
	if err := sg.eachSegment(keep, search); err != nil {
		return nil, err
	}
	slices.SortFunc(add, func(a, b Change) int { return a.Time - b.Time })
	return add, nil
}

// combine returns the larger of Σ stats/penalty and, when alone,
// max stats/onePenalty.
func combine(stats []float64, penalty, onePenalty float64, alone bool) float64 {
	sum, top := 0.0, 0.0
	for _, v := range stats {
		sum += v
		top = math.Max(top, v)
	}
	r := sum / penalty
	if alone {
		r = math.Max(r, top/onePenalty)
	}
	return r
}

// levelColumn holds one column of a segment for the level rule: its clipped
// values y centred on their mean, their prefix sums py (py[i] = Σ_{j<i} y[j])
// and v, the long-run variance of the residuals of a straight line, which
// weighs the column in the search.
type levelColumn struct {
	y, py []float64
	v     float64
}

// levelColumn prepares column c of rows [s, e).
func (sg *segmenter) levelColumn(c, s, e int) levelColumn {
	n := e - s
	y := make([]float64, n)
	for i := range y {
		y[i] = sg.x.At(s+i, c)
	}
	med, sd := medianSpread(y)
	if sd > 0 {
		for i, v := range y {
			y[i] = math.Max(med-levelClip*sd, math.Min(med+levelClip*sd, v))
		}
	}
	mean := 0.0
	for _, v := range y {
		mean += v
	}
	mean /= float64(n)
	col := levelColumn{y: y, py: make([]float64, n+1)}
	var a, g1 float64
	mid := float64(n-1) / 2
	for i := range y {
		y[i] -= mean
		col.py[i+1] = col.py[i] + y[i]
		a += (float64(i) - mid) * (float64(i) - mid)
		g1 += (float64(i) - mid) * y[i]
	}
	res := make([]float64, n)
	for i := range y {
		res[i] = y[i] - g1/a*(float64(i)-mid)
	}
	col.v, _ = longRunVariance(res)
	if sg.slopes != nil && sg.slopes[c] != 0 {
		// What a steep trend leaves (its slope is estimated to a few
		// spreads over the series) a step would fit: the column is left
		// to the other rules.
		col.v = 0
	}
	return col
}

// stepStat returns the statistic of a step alone at offset b, at the
// column's search variance: g₂²/(C·V), g₂ the sum of the centred values
// from b on and C = M − M²/N.
func (col *levelColumn) stepStat(b int) float64 {
	n := len(col.y)
	m := float64(n - b)
	cc := m - m*m/float64(n)
	g2 := col.py[n] - col.py[b]
	if !(col.v > 0) || !(cc > 0) {
		return 0
	}
	return g2 * g2 / (cc * col.v)
}

// final returns the step's statistic at offset b in the model chosen
// there (see levelChanges): V from the residuals of the fullest model
// (quadratic and step), the polynomial's degree p raised from 0 while the
// next term's drop of the residual sum of squares exceeds V·ln N, and the
// statistic the step's drop in that model over V; 0 when the residuals are
// persistent (ρ > maxLevelRho).
func (col *levelColumn) final(b int) float64 {
	n := len(col.y)
	if !(col.v > 0) {
		return 0
	}
	// Regressors: the step, then 1, t and t² on [−1, 1]; the fits are
	// solved from their 4 × 4 cross products (well conditioned: t and
	// t² − 1/3 are nearly orthogonal on [−1, 1]), so that a segment of N
	// rows costs O(N) time and no N-row matrix.
	reg := func(i int) [4]float64 {
		t := 2*float64(i)/float64(max(n-1, 1)) - 1
		u := 0.0
		if i >= b {
			u = 1
		}
		return [4]float64{u, 1, t, t*t - 1.0/3}
	}
	var g [4][4]float64
	var xy [4]float64
	yy := 0.0
	for i, y := range col.y {
		x := reg(i)
		for a := range 4 {
			xy[a] += x[a] * y
			for c := range a + 1 {
				g[a][c] += x[a] * x[c]
			}
		}
		yy += y * y
	}
	// fit returns the coefficients of the regressors listed and the
	// residual sum of squares y'y − β'X'y.
	fit := func(cols []int) ([]float64, float64) {
		k := len(cols)
		sym := mat.NewSymDense(k, nil)
		rhs := mat.NewVecDense(k, nil)
		for a, ca := range cols {
			rhs.SetVec(a, xy[ca])
			for c, cc := range cols[:a+1] {
				sym.SetSym(a, c, g[max(ca, cc)][min(ca, cc)])
			}
		}
		var ch mat.Cholesky
		if !ch.Factorize(sym) {
			return nil, math.NaN()
		}
		var beta mat.VecDense
		if err := ch.SolveVecTo(&beta, rhs); err != nil {
			return nil, math.NaN()
		}
		return beta.RawVector().Data, yy - mat.Dot(&beta, rhs)
	}
	withStep := [][]int{{0, 1}, {0, 1, 2}, {0, 1, 2, 3}}
	without := [][]int{{1}, {1, 2}, {1, 2, 3}}
	var step [3]float64
	var full []float64
	for p := range step {
		full, step[p] = fit(withStep[p])
	}
	if math.IsNaN(step[2]) {
		return 0
	}
	// The long-run variance of the fullest model's residuals (their mean
	// is 0: the model has a constant).
	var s2, s1, prev float64
	for i, y := range col.y {
		x := reg(i)
		r := y
		for a := range 4 {
			r -= full[a] * x[a]
		}
		s2 += r * r
		if i > 0 {
			s1 += r * prev
		}
		prev = r
	}
	v, rho := longRunFromMoments(s2, s1, n)
	if !(v > 0) || rho > maxLevelRho {
		return 0
	}
	limit := v * math.Log(float64(n))
	p := 0
	for p < 2 && step[p]-step[p+1] > limit {
		p++
	}
	_, none := fit(without[p])
	return math.Max(0, none-step[p]) / v
}

// longRunVariance returns σ²·(1 + ρ)/(1 − ρ), the long-run variance of
// AR(1) noise, for the residuals r (clipped, so that moments are safe), and
// ρ: σ² their variance and ρ their lag-1 autocorrelation (longRunFromMoments).
func longRunVariance(r []float64) (v, rho float64) {
	if len(r) < 3 {
		return 0, 0
	}
	m := 0.0
	for _, x := range r {
		m += x
	}
	m /= float64(len(r))
	var s2, s1 float64
	for i, x := range r {
		s2 += (x - m) * (x - m)
		if i > 0 {
			s1 += (x - m) * (r[i-1] - m)
		}
	}
	return longRunFromMoments(s2, s1, len(r))
}

// longRunFromMoments returns σ²·(1 + ρ)/(1 − ρ) and ρ from the sum of
// squares s2 of n centred residuals and the sum s1 of their lag-1 products:
// σ² = s2/n, ρ = s1/s2 (at least 0); 0, 0 when they do not vary, when
// n < 3 or when ρ reaches 1.
func longRunFromMoments(s2, s1 float64, n int) (v, rho float64) {
	if n < 3 || !(s2 > 0) {
		return 0, 0
	}
	rho = max(0, s1/s2)
	if rho >= 1 {
		return 0, 0
	}
	return s2 / float64(n) * (1 + rho) / (1 - rho), rho
}
