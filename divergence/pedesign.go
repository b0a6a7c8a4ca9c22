// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/summary"
)

// peOneUnitWarning is PEResult's warning when every kept row came from one
// draw of a two-stage design.
const peOneUnitWarning = "every kept row came from one unit draw: the variance between draws cannot be estimated, so the standard error treats the rows as independent"

// addUnitError adds to res.StdErr, for samples p and q drawn in two stages
// (Subsample.Units), the variance between the unit draws that the draws'
// spread misses, and sets res.DesignEffect: the variance of the estimate's
// linearisation under the two-stage design over its variance were the kept
// rows independent. It leaves res as it is when neither sample was drawn in
// units.
//
// The estimate is, to first order, a mean of the influences
// ψ_P = r̂ − ½αr̂² over the kept rows of P plus a mean of
// ψ_Q = −½(1−α)r̂² over those of Q (the delta method of StdErr). Its rows
// are not independent: the rows of a unit resemble each other when the data
// set is ordered, and the draws of a unit, not its rows, are the
// independent observations. With eᵢ = (ψᵢ − ψ̄)/n for each of the n kept
// rows of a sample, and zⱼ the sum of eᵢ over the rows of draw j, the
// variance of the estimate under the design is the ultimate-cluster
// estimator
//
//	V_units = D/(D−1) Σⱼ zⱼ²   (over the D draws; Σⱼ zⱼ = 0),
//
// and were the rows independent, V_iid = Σᵢ eᵢ²·n/(n−1). When P and Q are
// groups of one two-stage sample (Subsample.SharedDraws on both), a draw's
// unit holds rows of both and zⱼ sums both samples' eᵢ, so that their
// covariance counts; samples drawn apart have independent draws and their
// variances add. A sample without units contributes V_iid to both.
//
// StdErr already holds the data's sampling error as if the kept rows were
// independent (the draws resample them), with the estimator's own Monte
// Carlo error and the allowance for the regularisation's bias; the design
// adds what that misses, the variance between units:
//
//	StdErr = √(StdErr² + max(0, V_units − V_iid)),  DesignEffect = V_units/V_iid.
//
// Taking max(StdErr, √V_units) instead would drop the Monte Carlo and bias
// parts whenever the design's variance is comparable to them. The
// linearisation holds σ, λ and the fitted ratio at the estimate's values,
// which a jackknife over the draws would also do to stay affordable, and it
// costs one evaluation of r̂ at the kept rows instead of a refit per
// replicate. When every kept row came from a single draw, the variance
// between draws has no estimate: StdErr is left as it is, DesignEffect is
// NaN and a warning says so.
func addUnitError(res *PEResult, p, q mat.Matrix, pp, qq *points) error {
	pu, pOK := p.(Subsample)
	qu, qOK := q.(Subsample)
	if (!pOK || pu.Units == nil) && (!qOK || qu.Units == nil) || res.Ratio == nil {
		return nil
	}
	shared := pOK && qOK && pu.SharedDraws && qu.SharedDraws
	if !manyDraws(pp, qq, shared) {
		res.DesignEffect = math.NaN()
		res.Warnings = append(res.Warnings, peOneUnitWarning)
		return nil
	}
	a := res.Alpha
	rp, err := res.Ratio.Eval(pp.x)
	if err != nil {
		return err
	}
	rq, err := res.Ratio.Eval(qq.x)
	if err != nil {
		return err
	}
	ep := influence(rp, func(r float64) float64 { return r - a*r*r/2 })
	eq := influence(rq, func(r float64) float64 { return -(1 - a) * r * r / 2 })
	vIID := summary.ClusterVariance(ep) + summary.ClusterVariance(eq) // rows as clusters of one
	var vUnits float64
	switch {
	case shared && pp.units != nil && qq.units != nil:
		z := make([]float64, max(pp.draws, qq.draws))
		summary.AddByCluster(z, ep, pp.units)
		summary.AddByCluster(z, eq, qq.units)
		vUnits = summary.StrataVariance(z, sharedStrata(pp, qq, len(z)))
	default:
		vUnits = unitVariance(ep, pp) + unitVariance(eq, qq)
	}
	if vIID <= 0 {
		res.DesignEffect = 1
		return nil
	}
	res.StdErr = math.Sqrt(res.StdErr*res.StdErr + math.Max(0, vUnits-vIID))
	res.DesignEffect = vUnits / vIID
	return nil
}

// manyDraws reports whether the variance between the unit draws of p and
// q can be estimated: whether the draws the kept rows came from are at
// least two, counting the two samples' draws together when they share them
// and each sample drawn in units on its own otherwise.
func manyDraws(p, q *points, shared bool) bool {
	if shared {
		return twoUnits(append(append([]int(nil), p.units...), q.units...))
	}
	return (p.units == nil || twoUnits(p.units)) && (q.units == nil || twoUnits(q.units))
}

// sharedStrata returns the strata of the d draws that p and q share: those
// of either (they are groups of one sample), nil when neither gives d.
func sharedStrata(p, q *points, d int) []int {
	switch {
	case len(p.strata) == d:
		return p.strata
	case len(q.strata) == d:
		return q.strata
	}
	return nil
}

// influence returns eᵢ = (ψ(vᵢ) − ψ̄)/n for the values v = r̂(xᵢ) at the
// n kept rows of a sample, in place of v.
func influence(v []float64, psi func(float64) float64) []float64 {
	for i, r := range v {
		v[i] = psi(r)
	}
	return summary.Centre(v)
}

// unitVariance is the variance of the mean of one sample's influences e
// under its design: by draws when it was drawn in units, as independent
// rows otherwise.
func unitVariance(e []float64, s *points) float64 {
	if s.units == nil {
		return summary.ClusterVariance(e)
	}
	_, v := summary.Design(e, s.units, s.draws, s.strata)
	return v
}
