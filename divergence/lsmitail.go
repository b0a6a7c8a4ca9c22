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

// Where the kernel fit's E_q[g²], the average of the squared ratio over
// pairs of one row's x with another row's y, rests on a small effective
// share of its pairs, (Σv)²/(P·Σv²) for the P values v = g², the ratio is
// large on a thin set: at strong dependence, or where the true ratio is
// unbounded (heavy tails, a non-smooth link such as y = |x| + ε). The
// k-centre fit then misses part of the ratio and the estimate lies below
// the truth by more than its standard error (issue 37: −17% to −45%, z down
// to −15). The share is computed on lsmiDataRows rows whatever n, but it
// is the fit's, and a fit is smoother than the ratio: measured over 20
// runs a case (BenchmarkLSMICoverage, the kernel model reported), it was
// 0.003–0.12 on |x| + 0.5ε (−37%, unbounded ratio) against 0.08–0.16 on
// |x| + 0.1ε on (−1, 1) (+1.5%, bounded) at 10⁴ rows, and 0.004–0.14
// against 0.09–0.17 at 10³; 0.11–0.30 on sin 3x + 0.3ε, 0.16–0.30 on the
// circle, 0.09–0.37 at ρ = 0.5. The missed and the accurate overlap, and a
// miss costs more than a false flag: the threshold stays at 0.15, above
// the misses, and flags most runs of the bounded |x| + 0.1ε (a threshold
// of 0.06, tried, cut those flags and left 6 of 20 runs of |x| + 0.5ε at
// 10³ rows unflagged at −40%).
//
// The copula model's ratio is g, the Gaussian copula of correlation R, and
// its weakness is known in closed form: with ρ₁ the largest canonical
// correlation of R, g² has under the product of the marginals a tail of
// index (1 + ρ₁)/(2ρ₁) (firstCanonical), and the sample mean E_q[g²] it
// divides by falls short of its expectation on most samples as the index
// nears 1. Measured (TestCopulaGaussian, 100 runs at 10⁴ rows): ±2·StdErr
// covers 97/100 at ρ = 0.8 (index 1.125, −6.8%) and 85/100 at 0.9 (index
// 1.056, −19%); at 10³ rows ρ = 0.9 and 0.95 miss by −22% to −50%. The
// index converges to its value at any n, unlike the share of E_q[g²]'s
// pairings that flagged it before (that share grows as rows fall: at 10³
// rows half the runs at ρ = 0.95 went unflagged), so the copula model is
// flagged when ρ₁ ≥ copulaStrongRho, between 0.8 and 0.9.
const (
	lsmiTailShare   = 0.15
	copulaStrongRho = 0.85
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

// judgeTail sets LowerBound, with a warning, when the reported model
// cannot reach the value (see lsmiTailShare and copulaStrongRho); c is the
// copula fit, nil when there is none.
func (r *LSMIResult) judgeTail(c *copulaFit) {
	switch {
	case r.Model == ModelCopula && c != nil:
		if !(c.rho1 >= copulaStrongRho) {
			return
		}
		r.LowerBound = true
		r.Warnings = append(r.Warnings, fmt.Sprintf("the Gaussian-copula model's largest canonical correlation is %.3g, at least %.3g: its density ratio's mean square then rests on a tail too heavy for the rows to average, which puts the truth above smi by more than stderr; read smi as a lower bound", c.rho1, copulaStrongRho))
	case r.Model == ModelKernel && r.tailESS > 0:
		r.share = r.tailESS
		if r.share >= lsmiTailShare {
			return
		}
		r.LowerBound = true
		r.Warnings = append(r.Warnings, fmt.Sprintf("the kernel model's fitted density ratio is large on few rows (its mean square over pairs of rows rests on an effective %.2g%% of them, below %.2g%%): dependence this strong or an unbounded ratio (heavy tails, a kink such as y = |x| + noise) puts the truth above smi by more than stderr; read smi as a lower bound", 100*r.share, 100*lsmiTailShare))
	}
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
