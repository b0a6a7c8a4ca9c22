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

// spreadPenaltyPerParam sets the scaled deviance a change of spread must
// exceed (spreadChanges): spreadPenaltyPerParam·(d + 1)·ln T for d columns
// and T rows, twice the Schwarz criterion of d spreads and a location, for
// the autocorrelation of differences and the search over every row.
const spreadPenaltyPerParam = 2.0

// spreadLocal is the half-width, in differences, of the local mean each
// difference is taken relative to when the spread rule estimates their
// lag-1 autocorrelation (longRun).
const spreadLocal = 25

// spreadClip caps each absolute difference at spreadClip times the
// column's median one (its mean if the median is 0): one outlier, which
// enters two differences, is not a change of spread (a single 10⁶ in a
// column of unit noise made two, TestSegmentOutlier), while a change of
// spread by a factor 3 loses only the few differences of the wider side
// above the cap. Chosen on the tuning seeds: 5, 8 and 12 all leave an
// outlier alone, and 5 cost the variance family one change of spread in
// 20 series (F1 0.907 against 0.932).
const spreadClip = 8.0

// spreadMinSide is the fewest differences on either side of a change of
// spread (or the window, if larger): below some 25 the dispersion φ and
// the χ² law of the deviance are poor, and short series gave false alarms
// (TestSegmentPlacement's series of 20 and 60 rows at the window alone).
const spreadMinSide = 25

// spreadChanges searches each segment between the changes kept for a change
// of spread, by binary segmentation of the absolute first differences
// y(r) = |x(r) − x(r−1)| of each column, whose mean a change of spread by a
// factor f multiplies by f: a split at row b of the segment [s, e) compares
// their means a₁ over rows s+1 … b−1 and a₂ over rows b+1 … e−1 (N₁ and N₂
// of them; the difference that straddles b is left out, so that a change
// of level is not one of spread) by the scaled deviance of a Gamma
// quasi-likelihood (a GLM with Var y = φ·a²),
//
//	LR(b) = Σ_columns 2·[N·ln a − N₁·ln a₁ − N₂·ln a₂] / φ,
//	φ = [Σ₁ (y − a₁)²/a₁² + Σ₂ (y − a₂)²/a₂²] / (N − 2),
//
// a the mean over both sides: asymptotically χ² with one degree of freedom
// per column at a fixed b whatever the law of y, so that heavy tails, an
// outlier (which enters two differences) or a sparse series raise φ rather
// than the ratio; the deviance of the best split is then divided by
// (1 + ρ)/(1 − ρ), ρ the lag-1 autocorrelation of the relative residuals
// (y − a₁)/a₁ and (y − a₂)/a₂ when positive (longRun), for the dependence
// between neighbouring differences. A split is kept when its LR is the segment's highest and
// exceeds penalty, both sides holding at least minLen differences; the two
// halves are then searched again. Differences are blind to trends, seasons
// of constant amplitude and random walks, and a change of spread shifts
// their log scale over whole segments, where the windows of Segment's
// score see only n rows: that score reads a factor 3 at 5 to 10 calibrated
// units, under the penalty of 2·ln T. With d > 1 columns the sum over
// columns dilutes a change in one of them, so each column's deviance is
// also tested alone, against onePenalty (Segment: 2·spreadPenaltyPerParam·ln T
// + 2·ln d, the penalty of one column and the choice among d; +Inf turns
// the test off): a split is ranked, and
// kept, by the larger of LR/penalty and max_c LR_c/that penalty (after the
// long-run factor), reported as that ratio times penalty. The changes
// found are returned in time order, with Calibrated their LR and Rule
// RuleSpread.
func (sg *segmenter) spreadChanges(ctx context.Context, keep []Change, minLen int, penalty, onePenalty float64) ([]Change, error) {
	// abs[c][t] and sq[c][t] are the sums of y(r) and y(r)² of column c
	// over rows 1 ≤ r ≤ t.
	abs, sq := make([][]float64, sg.dim), make([][]float64, sg.dim)
	sg.diffCap = make([]float64, sg.dim)
	for c := range sg.dim {
		a, q := make([]float64, sg.rows), make([]float64, sg.rows)
		sg.diffCap[c] = spreadCap(sg.x, c)
		for r := 1; r < sg.rows; r++ {
			y := sg.absDiff(r, c)
			a[r], q[r] = a[r-1]+y, q[r-1]+y*y
		}
		abs[c], sq[c] = a, q
	}
	// sums returns the sums of y and y² over rows lo … hi (inclusive).
	sums := func(c, lo, hi int) (float64, float64) {
		return abs[c][hi] - abs[c][lo-1], sq[c][hi] - sq[c][lo-1]
	}
	// With several columns a change in one of them is also tested alone,
	// its deviance against onePenalty (+Inf: not); a split is ranked by the
	// larger of its two deviances over their penalties.
	alone := sg.dim > 1 && !math.IsInf(onePenalty, 1)
	var add []Change
	var search func(s, e int) error
	search = func(s, e int) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("changepoint: spread: %w", err)
		}
		best := Change{Calibrated: math.Inf(-1)}
		for b := s + 1 + minLen; e-1-b >= minLen; b++ {
			n1, n2 := float64(b-s-1), float64(e-1-b)
			lr, top := 0.0, 0.0
			ok := true
			for c := range sg.dim {
				s1, q1 := sums(c, s+1, b-1)
				s2, q2 := sums(c, b+1, e-1)
				a1, a2 := s1/n1, s2/n2
				if !(a1 > 0 && a2 > 0) {
					ok = false
					break
				}
				phi := ((q1/(a1*a1) - n1) + (q2/(a2*a2) - n2)) / (n1 + n2 - 2)
				if !(phi > 0) {
					ok = false
					break
				}
				a := (n1*a1 + n2*a2) / (n1 + n2)
				lc := 2 * ((n1+n2)*math.Log(a) - n1*math.Log(a1) - n2*math.Log(a2)) / phi
				lr += lc
				top = math.Max(top, lc)
			}
			if ok && alone {
				// In units of the penalty: the larger excess.
				lr = math.Max(lr/penalty, top/onePenalty)
			}
			if ok && lr > best.Calibrated {
				best = Change{Time: b, Calibrated: lr, Rule: RuleSpread}
			}
		}
		if math.IsInf(best.Calibrated, -1) {
			return nil
		}
		// Neighbouring differences share a row, and the spread of a
		// series comes in bursts: the deviance is divided by the long-run
		// factor (1 + ρ)/(1 − ρ) of AR(1) residuals, ρ the lag-1
		// autocorrelation of the relative residuals (y − a)/a of the
		// two-mean fit (when positive).
		best.Calibrated /= sg.longRun(abs, s, best.Time, e)
		if alone {
			// Back to the scale of the summed deviance.
			best.Calibrated *= penalty
		}
		if !(best.Calibrated > penalty) {
			return nil
		}
		add = append(add, best)
		if err := search(s, best.Time); err != nil {
			return err
		}
		return search(best.Time, e)
	}
	if err := sg.eachSegment(keep, search); err != nil {
		return nil, err
	}
	slices.SortFunc(add, func(a, b Change) int { return a.Time - b.Time })
	return add, nil
}

// longRun returns (1 + ρ)/(1 − ρ), the long-run factor of AR(1) residuals
// (ρ kept in [0, 0.95]), ρ the lag-1 autocorrelation, pooled
// over the columns, of the relative residuals r(y) = (y − a)/a of the
// absolute differences of rows s+1 … b−1 and b+1 … e−1, a the mean of
// those within spreadLocal rows on the same side, pairs within one side
// only; abs holds their prefix sums.
func (sg *segmenter) longRun(abs [][]float64, s, b, e int) float64 {
	var num, den float64
	for c := range sg.dim {
		side := func(lo, hi int) {
			// Each difference relative to the mean of those within
			// spreadLocal rows on its side: a change of spread the split
			// leaves (a segment with two) is no dependence.
			prev := 0.0
			for r := lo; r <= hi; r++ {
				a0, a1 := max(lo, r-spreadLocal), min(hi, r+spreadLocal)
				a := (abs[c][a1] - abs[c][a0-1]) / float64(a1-a0+1)
				if !(a > 0) {
					continue
				}
				v := (sg.absDiff(r, c) - a) / a
				den += v * v
				if r > lo {
					num += v * prev
				}
				prev = v
			}
		}
		side(s+1, b-1)
		side(b+1, e-1)
	}
	if !(den > 0) {
		return 1
	}
	rho := math.Max(0, math.Min(0.95, num/den))
	return (1 + rho) / (1 - rho)
}

// spreadCap returns the cap of column c's absolute differences
// (spreadClip), or +Inf if they are all 0.
func spreadCap(x *mat.Dense, c int) float64 {
	rows, _ := x.Dims()
	if rows < 2 {
		return math.Inf(1)
	}
	d := make([]float64, rows-1)
	mean := 0.0
	for r := 1; r < rows; r++ {
		d[r-1] = math.Abs(x.At(r, c) - x.At(r-1, c))
		mean += d[r-1] / float64(rows-1)
	}
	m := median(d)
	if m == 0 {
		m = mean
	}
	if m == 0 {
		return math.Inf(1)
	}
	return spreadClip * m
}

// absDiff returns |x(r) − x(r−1)| of column c, capped (spreadCap).
func (sg *segmenter) absDiff(r, c int) float64 {
	return math.Min(sg.diffCap[c], math.Abs(sg.x.At(r, c)-sg.x.At(r-1, c)))
}

// eachSegment calls search(start, end) for every segment of the series
// between the changes keep (sorted by time): rows [0, keep[0].Time), …,
// [keep[last].Time, rows). The whole-segment rules (spreadChanges,
// levelChanges) search each in turn.
func (sg *segmenter) eachSegment(keep []Change, search func(start, end int) error) error {
	start := 0
	for i := 0; i <= len(keep); i++ {
		end := sg.rows
		if i < len(keep) {
			end = keep[i].Time
		}
		if err := search(start, end); err != nil {
			return err
		}
		start = end
	}
	return nil
}
