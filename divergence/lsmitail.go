// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// Where a fit's E_q[g²], the average of the squared ratio over pairs of one
// row's x with another row's y, rests on a small effective share of its
// pairs, (Σv)²/(P·Σv²) for the P values v = g², the ratio is large on a
// thin set: at strong dependence, or where the true ratio is unbounded
// (heavy tails, a non-smooth link such as y = |x| + ε). The fit then
// misses part of the ratio and the estimate lies below the truth by more
// than its standard error (issue 37: −17% to −45% on such cases, z down to
// −8). The thresholds separate, on 10⁴ rows (TestLSMIStudy), the cases
// whose estimate stays within 10% of the truth from those that do not:
// the kernel model's share was 0.2–0.7 on sin 3x + 0.3ε (once below 0.1)
// and normals of ρ ≤ 0.5, 0.001–0.07 at ρ ≥ 0.7, on sin 2x₁ + 0.5x₂ + 0.4ε
// (once just above 0.1, unflagged at −23%) and on |x| + 0.5ε; the copula
// model's 0.03–0.15 at ρ = 0.5, 0.0001–0.005 at ρ = 0.9. A false flag
// costs less than a miss: the kernel's threshold sits at 0.15.
const (
	lsmiTailShare   = 0.15
	copulaTailShare = 0.005
)

// choose reports the copula model c when its estimate exceeds the kernel
// model's (both are squared-loss projections of the same ratio, so the
// larger is the better fit, docs/DESIGN.md §3). The larger of two noisy
// estimates is biased up by up to half of their spread where they agree to
// within it: where the gap between them is within twice its standard
// error, half the gap joins StdErr in quadrature, so that the bar covers
// the choice.
func (r *LSMIResult) choose(c *copulaFit) {
	gap := math.Abs(c.smi - r.KernelSMI)
	noise := math.Hypot(r.StdErr, c.stderr)
	if c.smi > r.SMI {
		r.Model, r.SMI, r.StdErr, r.DesignEffect = ModelCopula, c.smi, c.stderr, c.designEffect
	}
	if gap <= 2*noise {
		r.StdErr = math.Hypot(r.StdErr, gap/2)
	}
}

// judgeTail sets LowerBound, with a warning, when the reported model's
// E_q[g²] rests on few pairs (see lsmiTailShare); c is the copula fit, nil
// when there is none.
func (r *LSMIResult) judgeTail(c *copulaFit) {
	var share, limit float64
	switch {
	case r.Model == ModelCopula && c != nil:
		share, limit = c.ess/float64(c.pairs), copulaTailShare
	case r.Model == ModelKernel && r.tailESS > 0:
		share, limit = r.tailESS, lsmiTailShare
	default:
		return
	}
	if share >= limit {
		return
	}
	r.LowerBound = true
	r.Warnings = append(r.Warnings, fmt.Sprintf("the %s model's fitted density ratio is large on few rows (its mean square over pairs of rows rests on an effective %.2g%% of them, below %.2g%%): dependence this strong or an unbounded ratio (heavy tails, a kink such as y = |x| + noise) puts the truth above smi by more than stderr; read smi as a lower bound", r.Model, 100*share, 100*limit))
}

// spreadRatioWarn is the ratio of two numeric columns' standard deviations
// above which LSMI and RelativePE warn: one kernel width then sees the
// wider column alone (relevanceX can widen a column's kernel, not narrow
// it; RelativePE has one width for all).
const spreadRatioWarn = 100

// spreadWarning returns a warning when the numeric columns of p (before
// scaling: p is the sample as given) differ in spread by more than
// spreadRatioWarn, from up to 2000 rows evenly spaced (no random draw, so
// that the estimate's draws do not move); "" otherwise. what names what
// the narrower column's signal is ("dependence", "difference").
func spreadWarning(p *points, what string) (string, error) {
	if p.dim < 2 {
		return "", nil
	}
	step := max(1, p.n/2000)
	rows := make([]int, 0, p.n/step+1)
	for i := 0; i < p.n; i += step {
		rows = append(rows, i)
	}
	v, err := p.rows(rows)
	if err != nil {
		return "", err
	}
	lo, hi := -1, -1
	sds := make([]float64, p.dim)
	col := make([]float64, len(rows))
	for j := range p.dim {
		if p.isCategory(j) {
			continue
		}
		mat.Col(col, j, v)
		_, sds[j] = stat.MeanStdDev(col, nil)
		if !(sds[j] > 0) {
			continue
		}
		if lo < 0 || sds[j] < sds[lo] {
			lo = j
		}
		if hi < 0 || sds[j] > sds[hi] {
			hi = j
		}
	}
	if lo < 0 || sds[hi] <= spreadRatioWarn*sds[lo] {
		return "", nil
	}
	return fmt.Sprintf("the columns of %s differ in spread by a factor of %.3g (column %d against column %d): one kernel width cannot see the narrower column, whose %s is then missed; standardise the columns (the command's default --standardize) or rescale them", p.name, sds[hi]/sds[lo], hi, lo, what), nil
}

// addSpreadWarnings appends spreadWarning's warnings of px and py.
func (r *LSMIResult) addSpreadWarnings(px, py *points) error {
	for _, p := range []*points{px, py} {
		w, err := spreadWarning(p, "dependence")
		if err != nil {
			return err
		}
		if w != "" {
			r.Warnings = append(r.Warnings, w)
		}
	}
	return nil
}
