// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/summary"
)

// copulaRows is the number of rows LSMI's Gaussian-copula model is fitted
// on (every row when there are fewer): its cost is O(copulaRows·(d log copulaRows + d² + copulaShifts·dx)),
// about 12 ms (BenchmarkCopulaFit), independent of n.
const copulaRows = 10_000

// copulaShifts is the number of pairings of x-values with other rows'
// y-values over which E_{p(x)p(y)}[g²] is averaged.
const copulaShifts = 20

// copulaFit is the one-function squared-loss fit of the density ratio by
// the Gaussian copula of the rows' normal scores (docs/DESIGN.md §3).
type copulaFit struct {
	// smi is ½ (E_p̂[g])² / E_q̂[g²] − ½, the SMI of the fitted ratio θg.
	smi float64
	// stderr is its delta-method standard error, and designEffect that of
	// LSMIResult (zero for rows drawn independently).
	stderr, designEffect float64
	// rows is the number of rows it was fitted on.
	rows int
	// rho1 is the fitted copula's largest canonical correlation
	// (firstCanonical), which LowerBound judges (copulaStrongRho).
	rho1 float64
	// refusal says why the model does not apply when fitCopula's ok is
	// false.
	refusal string
}

// fitCopula fits LSMI's second model (docs/DESIGN.md §3): with z the normal
// scores of the columns of rows drawn from the pairs (zⱼ = Φ⁻¹((mid-rank + 1)/(m + 1))
// within the m rows), R their correlation matrix and
//
//	g(x, y) = N(z; 0, R) / (N(z_x; 0, R_xx) N(z_y; 0, R_yy)),
//
// the ratio of the Gaussian copula with correlation R, the squared-loss fit
// of θg has θ = E_p[g]/E_q[g²] and SMI ½ E_p[g]²/E_q[g²] − ½: E_p over the
// pairs, E_q over copulaShifts pairings of each row's x with another row's
// y. g is one basis function chosen from the data; the fit is a least-squares
// projection of the true ratio, as the kernel model's is, and exact (in
// expectation over the averages) when the copula is Gaussian. ok is false
// when a column holds MaxClasses or fewer distinct values (class labels, for
// which a copula of normal scores means nothing) or the scores' correlation
// matrix is singular (a column repeated, or a monotone function of
// another), and f.refusal then says which: the kernel model stands alone.
func fitCopula(ctx context.Context, px, py *points, rnd *rand.Rand) (f copulaFit, ok bool, err error) {
	for _, p := range []*points{px, py} {
		if p.cats != nil && slices.Contains(p.cats, true) {
			f.refusal = p.name + " has category columns (Categorical)"
			return f, false, nil
		}
	}
	rows := indices.Sample(px.n, min(px.n, copulaRows), false, rnd)
	slices.Sort(rows)
	z, refusal, err := copulaScores(px, py, rows)
	if err != nil || refusal != "" {
		f.refusal = refusal
		return f, false, err
	}
	if err := ctx.Err(); err != nil {
		return f, false, err
	}
	prec, logc, ok := copulaDensity(z, px.dim)
	if !ok {
		f.refusal = "the normal scores' correlation matrix is singular: a column repeats another, or is a monotone function of another"
		return f, false, nil
	}
	f.rho1 = firstCanonical(scoreCorrelation(z), px.dim)
	m := len(rows)
	logg := copulaLogRatio(z, px.dim, prec, logc)
	g := make([]float64, m)
	var hp float64
	for i := range m {
		g[i] = math.Exp(logg(i, i))
		hp += g[i]
	}
	hp /= float64(m)
	q, err := copulaPairings(ctx, logg, m, rnd)
	if err != nil {
		return f, false, err
	}
	ns := float64(q.shifts)
	hq := q.sum
	hq /= ns * float64(m)
	if !(hq > 0) || math.IsInf(hq, 0) || math.IsInf(hp, 0) {
		f.refusal = fmt.Sprintf("its averages E_p[g] = %v and E_q[g²] = %v are out of range", hp, hq)
		return f, false, nil
	}
	f.smi, f.rows = hp*hp/hq/2-0.5, m
	// T = ½ hp²/hq − ½ has dT = (hp/hq) dhp − (hp²/(2hq²)) dhq; the
	// influence of row i on hp is gᵢ − hp, on the two-sample average hq
	// E_Y[g(xᵢ, Y)²] + E_X[g(X, yᵢ)²] − 2hq.
	a, b := hp/hq, hp*hp/(2*hq*hq)
	psi := make([]float64, m)
	for i := range m {
		psi[i] = a*(g[i]-hp) - b*(q.ex[i]/ns+q.ey[i]/ns-2*hq)
	}
	var v float64
	v, f.designEffect = copulaVariance(px, py, rows, psi)
	f.stderr = math.Sqrt(v)
	if math.IsNaN(f.smi) || math.IsInf(f.smi, 0) || math.IsNaN(f.stderr) || math.IsInf(f.stderr, 0) {
		f.refusal = fmt.Sprintf("its estimate is %v ± %v", f.smi, f.stderr)
		return f, false, nil
	}
	return f, true, nil
}

// copulaScores returns fitCopula's normal scores of the rows rows of px and
// py, an m × (dx+dy) matrix with px's columns first, or, when a column holds
// MaxClasses or fewer distinct values, a refusal saying which.
func copulaScores(px, py *points, rows []int) (z *mat.Dense, refusal string, err error) {
	xr, err := px.rows(rows)
	if err != nil {
		return nil, "", err
	}
	yr, err := py.rows(rows)
	if err != nil {
		return nil, "", err
	}
	m, dx, dy := len(rows), px.dim, py.dim
	d := dx + dy
	z = mat.NewDense(m, d, nil)
	col := make([]float64, m)
	for c := range d {
		p, pc := px, c
		if c < dx {
			mat.Col(col, c, xr)
		} else {
			p, pc = py, c-dx
			mat.Col(col, pc, yr)
		}
		if !normalScores(col) {
			return nil, fmt.Sprintf("%s column %d holds %d or fewer distinct values", p.name, pc, MaxClasses), nil
		}
		z.SetCol(c, col)
	}
	return z, "", nil
}

// copulaLogRatio returns log g(xᵢ, yⱼ), the log of the fitted copula ratio
// at the x of row i and the y of row j of the normal scores z (dx columns
// of x first), from the precision matrix prec and log constant logc of
// copulaDensity.
func copulaLogRatio(z *mat.Dense, dx int, prec *mat.Dense, logc float64) func(i, j int) float64 {
	m, d := z.Dims()
	zx := z.Slice(0, m, 0, dx).(*mat.Dense)
	zy := z.Slice(0, m, dx, d).(*mat.Dense)
	// zᵀPz = zxᵀP_xx zx + 2 zxᵀ(P_xy zy) + zyᵀP_yy zy: the two quadratic
	// forms and P_xy zy once per row, so that a pair costs O(dx), not O(d²).
	var qx, qy mat.VecDense
	var wy mat.Dense
	quadratic := func(dst *mat.VecDense, a, p mat.Matrix) {
		var t mat.Dense
		t.Mul(a, p)
		t.MulElem(&t, a)
		r, c := t.Dims()
		dst.ReuseAsVec(r)
		for i := range r {
			dst.SetVec(i, mat.Sum(t.Slice(i, i+1, 0, c)))
		}
	}
	quadratic(&qx, zx, prec.Slice(0, dx, 0, dx))
	quadratic(&qy, zy, prec.Slice(dx, d, dx, d))
	wy.Mul(zy, prec.Slice(dx, d, 0, dx)) // row j: (P_yx zyⱼ)ᵀ = zyⱼᵀ P_yx
	// Contiguous copies for the pair loop, which runs 20m times.
	ax, ay := make([]float64, m), make([]float64, m)
	zxf, wyf := make([]float64, m*dx), make([]float64, m*dx)
	for i := range m {
		ax[i], ay[i] = logc-qx.AtVec(i)/2, -qy.AtVec(i)/2
		copy(zxf[i*dx:], zx.RawRowView(i))
		copy(wyf[i*dx:], wy.RawRowView(i))
	}
	return func(i, j int) float64 {
		if dx == 1 {
			return ax[i] + ay[j] - zxf[i]*wyf[j]
		}
		return ax[i] + ay[j] - floats.Dot(zxf[i*dx:(i+1)*dx], wyf[j*dx:(j+1)*dx])
	}
}

// copulaPairs holds the sums of g² over fitCopula's pairings of x-values
// with other rows' y-values.
type copulaPairs struct {
	// ex and ey are each row's share as the x and as the y of a pair.
	ex, ey []float64
	// sum is the sum of the values v = g².
	sum float64
	// shifts is the number of pairings of the m rows.
	shifts int
}

// copulaPairings sums g² = exp(2 logg) for E_q[g²] over copulaShifts
// pairings of the m rows in a random order, o(k) ↦ o((k + sₜ) mod m),
// shifts drawn from rnd without repeats from 1…m−1, then the order; ex
// and ey collect each row's share as the x and as the y of a pair, for
// the influence function. The order is random because the rows are in the
// data's: in a file sorted by x, a small shift of the row indices would
// pair each x with the y of a row of nearly the same x, a sample of the
// joint rather than of the product of marginals. It checks ctx before
// each pairing.
func copulaPairings(ctx context.Context, logg func(i, j int) float64, m int, rnd *rand.Rand) (copulaPairs, error) {
	shifts := indices.Sample(m-1, min(copulaShifts, m-1), false, rnd)
	order := rnd.Perm(m)
	q := copulaPairs{ex: make([]float64, m), ey: make([]float64, m), shifts: len(shifts)}
	for _, s := range shifts {
		if err := ctx.Err(); err != nil {
			return copulaPairs{}, err
		}
		for k, i := range order {
			l := k + s + 1
			if l >= m {
				l -= m
			}
			j := order[l]
			v := math.Exp(2 * logg(i, j))
			q.ex[i] += v
			q.ey[j] += v
			q.sum += v
		}
	}
	return q, nil
}

// copulaVariance returns the variance of fitCopula's estimate from its
// influence values psi on the rows rows, Var(ψ)/m plus the excess of the
// sampling design of px and py when it has one (pairDesign), and that
// design's effect (zero for rows drawn independently).
func copulaVariance(px, py *points, rows []int, psi []float64) (v, designEffect float64) {
	_, se := summary.MeanStdErr(psi)
	v = se * se // Var(ψ)/m
	if units, draws, strata := pairDesign(px, py); units != nil {
		u := make([]int, len(psi))
		for i, r := range rows {
			u[i] = units[r]
		}
		vIID, vUnits := summary.Design(summary.Centre(psi), u, draws, strata)
		var excess float64
		designEffect, excess = designExcess(vIID, vUnits, u)
		v += excess
	}
	return v, designEffect
}

// normalScores replaces the values v by their normal scores
// Φ⁻¹((r + 1)/(m + 1)), r the mid-rank from 0 (ties share the mean of
// their ranks), and reports false, leaving v unchanged, when v holds
// MaxClasses or fewer distinct values.
func normalScores(v []float64) bool {
	m := len(v)
	type entry struct {
		v float64
		i int
	}
	order := make([]entry, m)
	for i, x := range v {
		order[i] = entry{x, i}
	}
	slices.SortFunc(order, func(a, b entry) int { return cmp.Compare(a.v, b.v) })
	rank := make([]float64, m)
	distinct := 0
	for lo := 0; lo < m; {
		hi := lo + 1
		for hi < m && order[hi].v == order[lo].v {
			hi++
		}
		mid := float64(lo+hi-1) / 2
		for _, e := range order[lo:hi] {
			rank[e.i] = mid
		}
		distinct++
		lo = hi
	}
	if distinct <= MaxClasses {
		return false
	}
	norm := distuv.UnitNormal
	for i, r := range rank {
		v[i] = norm.Quantile((r + 1) / float64(m+1))
	}
	return true
}

// copulaDensity returns, for the normal scores z (one row per row, x's dx
// columns first), the precision P = R⁻¹ − diag(R_xx⁻¹, R_yy⁻¹) and the
// constant log c = ½(log|R_xx| + log|R_yy| − log|R|) of log g = log c − ½ zᵀPz,
// R the scores' correlation matrix. ok is false when R or a diagonal block
// of it is singular to working precision (condition above 10¹⁴).
func copulaDensity(z *mat.Dense, dx int) (prec *mat.Dense, logc float64, ok bool) {
	_, d := z.Dims()
	r := scoreCorrelation(z)
	// A repeated column makes R singular, but rounding can leave a pivot
	// of its factor a few ulps above zero (condition ~10¹⁶) while the
	// same columns' diagonal block factorises to an exact zero pivot:
	// each of the three factorisations is checked, and a condition above
	// 10¹⁴ counts as singular. Distinct ranks are far from it: one swap of
	// adjacent ranks among m = 10⁴ rows leaves 1 − ρ ≈ 12/m³, a condition
	// about 2·10¹¹.
	inverse := func(a mat.Symmetric) (*mat.SymDense, float64, bool) {
		var ch mat.Cholesky
		if !ch.Factorize(a) || !(ch.Cond() <= 1e14) {
			return nil, 0, false
		}
		var inv mat.SymDense
		if ch.InverseTo(&inv) != nil {
			return nil, 0, false
		}
		return &inv, ch.LogDet(), true
	}
	ri, ld, ok := inverse(r)
	if !ok {
		return nil, 0, false
	}
	rxi, ldx, okx := inverse(r.SliceSym(0, dx))
	ryi, ldy, oky := inverse(r.SliceSym(dx, d))
	if !okx || !oky {
		return nil, 0, false
	}
	prec = mat.NewDense(d, d, nil)
	for i := range d {
		for j := range d {
			v := ri.At(i, j)
			switch {
			case i < dx && j < dx:
				v -= rxi.At(i, j)
			case i >= dx && j >= dx:
				v -= ryi.At(i-dx, j-dx)
			}
			prec.Set(i, j, v)
		}
	}
	return prec, 0.5 * (ldx + ldy - ld), true
}

// scoreCorrelation returns R, the correlation matrix of the normal scores z
// (one row per row) from their second moments about zero, the scores' mean.
func scoreCorrelation(z *mat.Dense) *mat.SymDense {
	m, d := z.Dims()
	var cov mat.SymDense
	cov.SymOuterK(1/float64(m), z.T())
	r := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			r.SetSym(i, j, cov.At(i, j)/math.Sqrt(cov.At(i, i)*cov.At(j, j)))
		}
	}
	return r
}

// firstCanonical returns the largest canonical correlation between the
// first dx columns and the others of the correlation matrix r: the square
// root of the largest eigenvalue of Rxx⁻¹RxyRyy⁻¹Ryx (NaN when a diagonal
// block is singular). The Gaussian copula ratio g of that correlation has,
// under the product of the marginals, the tail P(g² > t) ~ t^{−(1+ρ)/(2ρ)}
// (its largest values lie along the canonical diagonal), so the mean of g²
// that the copula model's estimate divides by has a finite variance only
// for ρ < ⅓ and, as ρ nears 1, a tail index near 1: its sample mean then
// lies below its expectation on most samples, at any number of rows.
func firstCanonical(r *mat.SymDense, dx int) float64 {
	d := r.SymmetricDim()
	var rxx, ryy mat.Dense
	rxx.CloneFrom(r.SliceSym(0, dx))
	ryy.CloneFrom(r.SliceSym(dx, d))
	rxy := mat.DenseCopyOf(r).Slice(0, dx, dx, d)
	var a, b, prod mat.Dense
	if a.Solve(&rxx, rxy) != nil || b.Solve(&ryy, rxy.T()) != nil {
		return math.NaN()
	}
	prod.Mul(&a, &b)
	var e mat.Eigen
	if !e.Factorize(&prod, mat.EigenNone) {
		return math.NaN()
	}
	top := 0.0
	for _, v := range e.Values(nil) {
		top = math.Max(top, real(v))
	}
	return math.Sqrt(math.Min(1, top))
}
