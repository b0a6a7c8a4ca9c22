// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/parallel"
	"github.com/sublinear/pearson/internal/summary"
)

// lsmiDataRows is the number of rows over which LSMI's data error is
// estimated: the fitted ratio is evaluated on every pair of their x- and
// y-values, O(rows²·k), so the cost stays independent of n and below one
// draw's.
const lsmiDataRows = 256

// lsmiFit is the fit of LSMI's draws, with the first draw's centre rows and
// weights, and a generator for the rows of the data error.
type lsmiFit struct {
	fit
	noise   []float64 // the first draw's noise bias (noiseBias), zero for the others
	centres []int
	theta   *mat.Dense
	rnd     *rand.Rand
}

// addDataError moves res.StdErr, the draws' spread, to res.DrawStdErr and
// adds to it the sampling error of the data, which the draws, resampling the
// same rows, do not see, and an allowance for the regularisation's bias
// (docs/DESIGN.md §3). SMI = ½∫p²/(p_x p_y) − ½ has the influence function
//
//	ψ(x, y) = r(x, y) − ½ E_Y[r(x, Y)²] − ½ E_X[r(X, y)²],  r = p/(p_x p_y),
//
// so the data contribute Var(ψ)/n, n the rows the estimate is computed from
// (the kept rows of a Subsample, not the Rows of the data set it stands
// for: the kept rows are the sample); with the first draw's fitted ratio ĝ on
// lsmiDataRows rows drawn afresh, the expectations are averages over the
// other rows' y- and x-values. Under independence r ≡ 1 and ψ is constant:
// the term vanishes, as the estimator's first-order error does. Then
//
//	StdErr² = DrawStdErr² + Var(ψ)/n + ((PlugIn − SMI)/2)² + (b/2)²,
//
// PlugIn − SMI = (ρ/2)‖θ‖² being the difference between two estimates of
// SMI from the same fit, whose size is the scale of the regularisation's
// bias; and half the averages' noise bias b (noiseBias) joins in quadrature
// too: the value is biased up by b (+6% of the truth on sin 3x + 0.3ε,
// +7% on a circle) and down by the k-centre basis's shortfall, which
// offsets it on some cases (sin 3x: net +0.0%) and not on others (circle:
// net +4.3%, ±2·StdErr covering 12 of 20 runs without the term), and no
// statistic of one sample tells them apart (issue 37).
//
// For rows drawn in two stages (Subsample.Units), the draws' spread treats
// the n kept rows as independent, which they are not; designVariance gives
// the variances V_iid and V_units of the kept rows' mean of ψ were they
// independent and under the design, Var(ψ)/n is V_iid, and
//
//	StdErr² = DrawStdErr² + Var(ψ)/n + max(0, V_units − V_iid) + ((PlugIn − SMI)/2)² + (b/2)²,
//
// with res.DesignEffect = V_units/V_iid (docs/DESIGN.md §7). When every
// kept row came from one draw, V_units has no estimate: the excess is left
// out, DesignEffect is NaN and a warning says so.
func (m *lsmiModel) addDataError(ctx context.Context, res *LSMIResult, f *lsmiFit) error {
	res.DrawStdErr = res.StdErr
	var v, extra float64
	if units, draws, strata := pairDesign(m.x, m.y); units != nil {
		vIID, vUnits, ess, err := m.designVariance(ctx, f, units, draws, strata)
		if err != nil {
			return err
		}
		res.tailESS = ess
		v = vIID // V_iid = Var(ψ)/n: the estimate is a function of the n kept rows
		res.DesignEffect, extra = designExcess(vIID, vUnits, units)
		if !twoUnits(units) {
			res.Warnings = append(res.Warnings, oneUnitWarning)
		}
	} else {
		rows := indices.Sample(m.x.n, min(m.x.n, lsmiDataRows), false, f.rnd)
		psi, ess, err := m.influence(f.centres, f.theta, rows)
		if err != nil {
			return err
		}
		res.tailESS = ess
		_, se := summary.MeanStdErr(psi)                 // se² = Var(ψ)/len(psi)
		v = se * se * float64(len(psi)) / float64(m.x.n) // Var(ψ)/n, n the rows kept
	}
	res.noise = f.noise[0]
	gap, noise := (res.PlugIn-res.SMI)/2, res.noise/2
	res.StdErr = math.Sqrt(res.StdErr*res.StdErr + v + extra + gap*gap + noise*noise)
	return nil
}

// oneUnitWarning is LSMIResult's warning when every row came from one
// draw of a two-stage design.
const oneUnitWarning = "every row came from one unit draw: the variance between draws cannot be estimated, so the standard error treats the rows as independent"

// twoUnits reports whether units holds two or more distinct draws.
func twoUnits(units []int) bool {
	for _, u := range units {
		if u != units[0] {
			return true
		}
	}
	return false
}

// pairDesign returns the two-stage design of the pairs px, py: that of x,
// or of y when x has none (Rank's feature columns carry none; its target
// does); nil units for independent rows.
func pairDesign(px, py *points) (units []int, draws int, strata []int) {
	if px.units != nil {
		return px.units, px.draws, px.strata
	}
	return py.units, py.draws, py.strata
}

// designExcess returns the design effect V_units/V_iid of an estimate
// whose influences ψ, at rows from the draws units, have the variances
// vIID and vUnits (summary.Design), and the excess max(0, V_units − V_iid)
// its variance gains from the design. When one draw holds every row the
// variance between draws has no estimate: the effect is NaN (LSMIResult
// warns) and the excess 0, the error bar that of independent rows; when ψ
// does not vary, the effect is 1.
func designExcess(vIID, vUnits float64, units []int) (effect, excess float64) {
	switch {
	case !twoUnits(units):
		return math.NaN(), 0
	case vIID > 0:
		return vUnits / vIID, math.Max(0, vUnits-vIID)
	default:
		return 1, math.Max(0, vUnits-vIID)
	}
}

// lsmiMomentRows is the number of rows over which designVariance averages
// the expectations E_Y[ĝ(x, Y)²] and E_X[ĝ(X, y)²].
const lsmiMomentRows = 1024

// designVariance returns V_iid and V_units (see summary.Design) of the mean
// of ψ over the n kept rows, drawn in two stages: units[i] is the draw of
// row i, of draws draws. Unlike addDataError's iid term, which needs Var(ψ)
// alone and takes it from lsmiDataRows rows, V_units needs ψ at every kept
// row: a draw's sum of ψ, estimated from a few of its rows, would carry a
// subsampling error about r/s times the variance between draws for s of its
// r rows (r is hundreds at the defaults), which would bury a design effect
// near 1. With g(x, y) = aₓᵀb_y, aₓ = Θᵀ K(u, x) and b_y = L(v, y),
//
//	ψᵢ = aᵢᵀbᵢ − ½ aᵢᵀ C_b aᵢ − ½ bᵢᵀ C_a bᵢ,   C_b = E[b bᵀ], C_a = E[a aᵀ],
//
// the second moments averaged over lsmiMomentRows kept rows drawn at
// random: O(n·k²) for all the rows, in blocks on GOMAXPROCS goroutines,
// instead of the O(n²·k) of every pair. It returns too the effective
// share of influence (the tail's, LowerBound's) on lsmiDataRows of those
// rows: a sampled file is read in two stages, and its flag must not be
// lost.
func (m *lsmiModel) designVariance(ctx context.Context, f *lsmiFit, units []int, draws int, strata []int) (vIID, vUnits, ess float64, err error) {
	rows := indices.Sample(m.x.n, min(m.x.n, lsmiMomentRows), false, f.rnd)
	if _, ess, err = m.influence(f.centres, f.theta, rows[:min(len(rows), lsmiDataRows)]); err != nil {
		return 0, 0, 0, err
	}
	a, b, err := m.factors(f.centres, f.theta, rows)
	if err != nil {
		return 0, 0, 0, err
	}
	k := len(f.centres)
	var ca, cb mat.SymDense
	ca.SymOuterK(1/float64(len(rows)), a.T())
	cb.SymOuterK(1/float64(len(rows)), b.T())
	n := m.x.n
	psi := make([]float64, n)
	blocks := (n + blockRows - 1) / blockRows
	errs := make([]error, blocks)
	// Each block on its own goroutine writes only its rows' ψ, with the same
	// arithmetic whatever the number of goroutines; a cancellation stops the
	// pass within a block's time (tens of milliseconds at k = 100).
	err = parallel.ForContext(ctx, blocks, parallel.Workers(0), func(blk int) {
		lo, hi := blk*blockRows, min(n, (blk+1)*blockRows)
		block := indices.Range(hi - lo)
		for i := range block {
			block[i] += lo
		}
		a, b, err := m.factors(f.centres, f.theta, block)
		if err != nil {
			errs[blk] = err
			return
		}
		var pa, pb mat.Dense
		pa.Mul(a, &cb)
		pb.Mul(b, &ca)
		for i, row := range block {
			ai, bi := a.RawRowView(i), b.RawRowView(i)
			qa, qb := pa.RawRowView(i), pb.RawRowView(i)
			var g, sa, sb float64
			for l := range k {
				g += ai[l] * bi[l]
				sa += qa[l] * ai[l]
				sb += qb[l] * bi[l]
			}
			psi[row] = g - sa/2 - sb/2
		}
	})
	if err != nil {
		return 0, 0, 0, err
	}
	for _, err := range errs {
		if err != nil {
			return 0, 0, 0, err
		}
	}
	vIID, vUnits = summary.Design(summary.Centre(psi), units, draws, strata)
	return vIID, vUnits, ess, nil
}

// factors returns, at the given rows, the factors of the ratio
// g(x, y) = K(x, u)ᵀ Θ L(y, v) with centre rows idx: the rows of
// A = K(x, u)Θ and of B = L(y, v), so that g(xᵢ, yⱼ) = (ABᵀ)ᵢⱼ.
func (m *lsmiModel) factors(idx []int, theta *mat.Dense, rows []int) (a, b *mat.Dense, err error) {
	u, err := m.x.rows(idx)
	if err != nil {
		return nil, nil, err
	}
	v, err := m.y.rows(idx)
	if err != nil {
		return nil, nil, err
	}
	xr, err := m.x.rows(rows)
	if err != nil {
		return nil, nil, err
	}
	yr, err := m.y.rows(rows)
	if err != nil {
		return nil, nil, err
	}
	var kx mat.Dense
	a, b = &mat.Dense{}, &mat.Dense{}
	m.gx.MatrixTo(&kx, xr, u)
	m.gy.MatrixTo(b, yr, v)
	a.Mul(&kx, theta)
	return a, b, nil
}

// influence returns ψ at the given rows for the ratio
// g(x, y) = K(x, u)ᵀ Θ L(y, v) with centre rows idx: G_ij = g(xᵢ, yⱼ) over
// every pair of the rows, and ψᵢ = G_ii − ½ mean_{j≠i} G_ij² − ½ mean_{j≠i} G_ji².
// With a single row there is no other: ψ is G_ii.
func (m *lsmiModel) influence(idx []int, theta *mat.Dense, rows []int) ([]float64, float64, error) {
	a, b, err := m.factors(idx, theta, rows)
	if err != nil {
		return nil, 0, err
	}
	var g mat.Dense
	g.Mul(a, b.T())
	r := len(rows)
	psi := make([]float64, r)
	if r == 1 {
		psi[0] = g.At(0, 0)
		return psi, 1, nil
	}
	col := make([]float64, r) // Σ_{j≠i} G_ji²
	var s2, s4 float64
	for i := range r {
		row := g.RawRowView(i)
		for j, gij := range row {
			if j != i {
				v := gij * gij
				psi[i] -= v / 2
				col[j] += v
				s2 += v
				s4 += v * v
			}
		}
	}
	for i := range r {
		psi[i] = g.At(i, i) + psi[i]/float64(r-1) - col[i]/2/float64(r-1)
	}
	return psi, s2 * s2 / s4 / float64(r*(r-1)), nil
}

// noiseBias returns the upward bias of a draw's value ½ĥᵀAĥ − ½,
// A = (H + ρI)⁻¹, from the noise of ĥ, the mean of φᵢ = K(xᵢ, u) ⊗ L(yᵢ, v)
// over the P pairs: E[ĥᵀAĥ] = hᵀAh + tr(AΣ)/P, Σ = Cov(φ), so the bias is
// ½tr(AΣ)/P, estimated by ½(mean φᵢᵀAφᵢ − ĥᵀAĥ)/(P − 1) with hAh = ĥᵀAĥ.
// In the eigenbases, φ̃ᵢ = (Uxᵀkᵢ) ⊗ (Uyᵀlᵢ) and
// φ̃ᵢᵀAφ̃ᵢ = Σ_ab (Uxᵀkᵢ)²_a (Uyᵀlᵢ)²_b / (λx_a λy_b + ρ): O(P·k²), a pass
// over the pairs like the one that made ĥ (the y side's kernel values are
// kept in yd). It is the "V" estimate's excess over the U-statistic of
// docs/RESULTS.md's table of levers; the error bar takes it as an
// allowance (addDataError).
func (m *lsmiModel) noiseBias(u *mat.Dense, pairRows []int, yd drawY, ex eigenSide, ridge, hAh float64) (float64, error) {
	k, _ := u.Dims()
	ey := yd.ey
	w := mat.NewDense(k, k, nil)
	for a, lx := range ex.val {
		row := w.RawRowView(a)
		for b, ly := range ey.val {
			row[b] = 1 / (lx*ly + ridge)
		}
	}
	var q float64
	var kt, kr, lr, wl mat.Dense
	err := eachRows(pairRows, func(lo int, rows []int) error {
		xb, err := m.x.rows(rows)
		if err != nil {
			return err
		}
		kt.Reset()
		m.gx.MatrixTo(&kt, u, xb)
		kr.Reset()
		kr.Mul(ex.u.T(), &kt)
		lr.Reset()
		lr.Mul(ey.u.T(), yd.lt.Slice(0, k, lo, lo+len(rows)))
		raw := lr.RawMatrix()
		for i := range raw.Rows {
			r := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
			for j, v := range r {
				r[j] = v * v
			}
		}
		wl.Reset()
		wl.Mul(w, &lr)
		for a := range k {
			ka, wa := kr.RawRowView(a), wl.RawRowView(a)
			for i, v := range ka {
				q += v * v * wa[i]
			}
		}
		return nil
	})
	p := float64(len(pairRows))
	if p < 2 {
		return 0, err
	}
	return math.Max(0, (q/p-hAh)/2/(p-1)), err
}
