// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/indices"
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
// so the data contribute Var(ψ)/N; with the first draw's fitted ratio ĝ on
// lsmiDataRows rows drawn afresh, the expectations are averages over the
// other rows' y- and x-values. Under independence r ≡ 1 and ψ is constant:
// the term vanishes, as the estimator's first-order error does. Then
//
//	StdErr² = DrawStdErr² + Var(ψ)/N + ((PlugIn − SMI)/2)²,
//
// PlugIn − SMI = (ρ/2)‖θ‖² being the difference between two estimates of
// SMI from the same fit, whose size is the scale of the regularisation's
// bias.
func (m *lsmiModel) addDataError(res *LSMIResult, f *lsmiFit) error {
	res.DrawStdErr = res.StdErr
	rows := indices.Sample(m.x.n, min(m.x.n, lsmiDataRows), false, f.rnd)
	psi, err := m.influence(f.centres, f.theta, rows)
	if err != nil {
		return err
	}
	_, se := summary.MeanStdErr(psi) // se² = Var(ψ)/len(psi)
	v := se * se * float64(len(psi)) / float64(m.x.pop)
	gap := (res.PlugIn - res.SMI) / 2
	res.StdErr = math.Sqrt(res.StdErr*res.StdErr + v + gap*gap)
	return nil
}

// influence returns ψ at the given rows for the ratio
// g(x, y) = K(x, u)ᵀ Θ L(y, v) with centre rows idx: G_ij = g(xᵢ, yⱼ) over
// every pair of the rows, and ψᵢ = G_ii − ½ mean_{j≠i} G_ij² − ½ mean_{j≠i} G_ji².
// With a single row there is no other: ψ is G_ii.
func (m *lsmiModel) influence(idx []int, theta *mat.Dense, rows []int) ([]float64, error) {
	u, err := m.x.rows(idx)
	if err != nil {
		return nil, err
	}
	v, err := m.y.rows(idx)
	if err != nil {
		return nil, err
	}
	xr, err := m.x.rows(rows)
	if err != nil {
		return nil, err
	}
	yr, err := m.y.rows(rows)
	if err != nil {
		return nil, err
	}
	var kx, ly, t, g mat.Dense
	m.gx.MatrixTo(&kx, xr, u)
	m.gy.MatrixTo(&ly, yr, v)
	t.Mul(&kx, theta)
	g.Mul(&t, ly.T())
	r := len(rows)
	psi := make([]float64, r)
	if r == 1 {
		psi[0] = g.At(0, 0)
		return psi, nil
	}
	col := make([]float64, r) // Σ_{j≠i} G_ji²
	for i := range r {
		row := g.RawRowView(i)
		for j, gij := range row {
			if j != i {
				psi[i] -= gij * gij / 2
				col[j] += gij * gij
			}
		}
	}
	for i := range r {
		psi[i] = g.At(i, i) + psi[i]/float64(r-1) - col[i]/2/float64(r-1)
	}
	return psi, nil
}
