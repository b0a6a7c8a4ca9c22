// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/summary"
)

// unitError returns the standard error of a divergence estimate res of the
// samples P and Q with the extra variance of a two-stage sample of a
// Parquet input (rows taken in units: row groups or pages drawn at random,
// rows within them; see dataset.NewParquetAt), and the design effect: the
// variance of the estimate's linearisation under the two-stage design over
// its variance were the kept rows independent. ok is false, and stderr is
// res.StdErr, when neither sample was drawn in units.
//
// The estimate is, to first order, a mean of the influences
// ψ_P = r̂ − ½αr̂² over the kept rows of P plus a mean of
// ψ_Q = −½(1−α)r̂² over those of Q (the delta method that
// divergence.PEResult.StdErr uses). Its rows are not independent: the rows
// of a unit resemble each other when the file is ordered, and the draws of
// a unit, not its rows, are the independent observations. With
// eᵢ = (ψᵢ − ψ̄)/n for each of the n kept rows of a sample, and zⱼ the sum
// of eᵢ over the rows of draw j, the variance of the estimate under the
// design is the ultimate-cluster estimator
//
//	V_units = D/(D−1) Σⱼ zⱼ²   (over the D draws; Σⱼ zⱼ = 0),
//
// and were the rows independent, V_iid = Σᵢ eᵢ²·n/(n−1). When P and Q are
// groups of one file, a draw's unit holds rows of both and zⱼ sums both
// samples' eᵢ, so that their covariance counts; samples from different
// files have independent draws and their variances add. A sample read in
// full, or sampled row by row, contributes V_iid to both.
//
// res.StdErr already holds the data's sampling error as if the kept rows
// were independent (the draws resample them), with the estimator's own
// Monte Carlo error and the allowance for the regularisation's bias; the
// design adds what that misses, the variance between units:
//
//	stderr = √(res.StdErr² + max(0, V_units − V_iid)).
//
// Taking max(res.StdErr, √V_units) instead would drop the Monte Carlo and
// bias parts whenever the design's variance is comparable to them. The
// linearisation holds σ, λ and the fitted ratio at the estimate's values,
// which a jackknife over the draws would also do to stay affordable, and
// it costs one evaluation of r̂ at the kept rows instead of a refit per
// replicate. That evaluation, over every kept row, is the costly part:
// Ratio.Eval runs it on GOMAXPROCS goroutines, with the same values as on
// one. When every kept row came from a single draw, the variance between
// draws has no estimate: stderr is res.StdErr and deff is NaN.
func unitError(res *divergence.PEResult, p, q sample, shared bool) (stderr, deff float64, ok bool) {
	if (p.units == nil && q.units == nil) || res.Ratio == nil {
		return res.StdErr, 1, false
	}
	if !manyDraws(p, q, shared) {
		return res.StdErr, math.NaN(), true
	}
	a := res.Alpha
	rp, err := res.Ratio.Eval(p.x)
	if err != nil {
		return res.StdErr, 1, false
	}
	rq, err := res.Ratio.Eval(q.x)
	if err != nil {
		return res.StdErr, 1, false
	}
	ep := influence(rp, func(r float64) float64 { return r - a*r*r/2 })
	eq := influence(rq, func(r float64) float64 { return -(1 - a) * r * r / 2 })
	vIID := summary.ClusterVariance(ep) + summary.ClusterVariance(eq) // rows as clusters of one
	var vUnits float64
	switch {
	case shared && p.units != nil && q.units != nil:
		z := make([]float64, max(p.draws, q.draws))
		summary.AddByCluster(z, ep, p.units)
		summary.AddByCluster(z, eq, q.units)
		vUnits = summary.ClusterVariance(z)
	default:
		vUnits = sampleUnitVariance(ep, p) + sampleUnitVariance(eq, q)
	}
	if vIID <= 0 {
		return res.StdErr, 1, true
	}
	stderr = math.Sqrt(res.StdErr*res.StdErr + math.Max(0, vUnits-vIID))
	return stderr, vUnits / vIID, true
}

// manyDraws reports whether the variance between the unit draws of P and
// Q can be estimated: whether the draws the kept rows came from are at
// least two, counting the two samples' draws together when they are
// groups of one file (shared) and each sample drawn in units on its own
// otherwise. With a single draw unitError leaves the error bar that of
// independent rows and reports the design effect as NaN, with
// oneUnitWarning in the output.
func manyDraws(p, q sample, shared bool) bool {
	many := func(units ...[]int) bool {
		first := -1
		for _, us := range units {
			for _, u := range us {
				switch {
				case first < 0:
					first = u
				case u != first:
					return true
				}
			}
		}
		return false
	}
	if shared {
		return many(p.units, q.units)
	}
	return (p.units == nil || many(p.units)) && (q.units == nil || many(q.units))
}

// oneUnitWarning is the warning of a result whose design effect is NaN.
const oneUnitWarning = "every kept row came from one unit draw: the variance between draws cannot be estimated, so the standard error treats the rows as independent"

// influence returns eᵢ = (ψ(vᵢ) − ψ̄)/n for the values v = r̂(xᵢ) at the
// n kept rows of a sample, in place of v.
func influence(v []float64, psi func(float64) float64) []float64 {
	for i, r := range v {
		v[i] = psi(r)
	}
	return summary.Centre(v)
}

// sampleUnitVariance is the variance of the mean of one sample's influences
// e under its design: by draws when it was sampled in units, as independent
// rows otherwise.
func sampleUnitVariance(e []float64, s sample) float64 {
	if s.units == nil {
		return summary.ClusterVariance(e)
	}
	_, v := summary.Design(e, s.units, s.draws)
	return v
}

// withDesign returns x, the estimators' matrix of the kept rows of in, with
// in's two-stage design attached (divergence.Subsample.Units) when it was
// sampled in units: LSMI, the independence test and Rank then add the
// variance between units to their error bars themselves, by the same
// ultimate-cluster estimate over the influences of LSMI (docs/DESIGN.md §7).
func withDesign(x mat.Matrix, in sample) mat.Matrix {
	if in.units == nil {
		return x
	}
	s, ok := x.(divergence.Subsample)
	if !ok {
		r, _ := x.Dims()
		s = divergence.Subsample{Matrix: x, Rows: r}
	}
	s.Units, s.UnitDraws = in.units, in.draws
	return s
}
