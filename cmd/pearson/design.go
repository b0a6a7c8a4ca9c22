// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math"

	"github.com/sublinear/pearson/divergence"
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
// one.
func unitError(res *divergence.PEResult, p, q sample, shared bool) (stderr, deff float64, ok bool) {
	if (p.units == nil && q.units == nil) || res.Ratio == nil {
		return res.StdErr, 1, false
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
	vIID := iidVariance(ep) + iidVariance(eq)
	var vUnits float64
	switch {
	case shared && p.units != nil && q.units != nil:
		z := make([]float64, max(p.draws, q.draws))
		addByDraw(z, ep, p.units)
		addByDraw(z, eq, q.units)
		vUnits = clusterVariance(z)
	default:
		vUnits = sampleUnitVariance(ep, p) + sampleUnitVariance(eq, q)
	}
	if vIID <= 0 {
		return res.StdErr, 1, true
	}
	stderr = math.Sqrt(res.StdErr*res.StdErr + math.Max(0, vUnits-vIID))
	return stderr, vUnits / vIID, true
}

// influence returns eᵢ = (ψ(vᵢ) − ψ̄)/n for the values v = r̂(xᵢ) at the
// n kept rows of a sample, in place of v.
func influence(v []float64, psi func(float64) float64) []float64 {
	var mean float64
	for i, r := range v {
		v[i] = psi(r)
		mean += (v[i] - mean) / float64(i+1)
	}
	for i := range v {
		v[i] = (v[i] - mean) / float64(len(v))
	}
	return v
}

// iidVariance is Σᵢ eᵢ²·n/(n−1): the variance of a mean of independent
// rows, from their centred and scaled influences e; each row is a cluster
// of one.
func iidVariance(e []float64) float64 { return clusterVariance(e) }

// sampleUnitVariance is the variance of the mean of one sample's influences
// e under its design: by draws when it was sampled in units, as independent
// rows otherwise.
func sampleUnitVariance(e []float64, s sample) float64 {
	if s.units == nil {
		return iidVariance(e)
	}
	z := make([]float64, s.draws)
	addByDraw(z, e, s.units)
	return clusterVariance(z)
}

// addByDraw adds each eᵢ to z at its draw.
func addByDraw(z, e []float64, units []int) {
	for i, v := range e {
		z[units[i]] += v
	}
}

// clusterVariance is D/(D−1) Σⱼ zⱼ² for the D draws' sums z, which sum to
// zero.
func clusterVariance(z []float64) float64 {
	d := len(z)
	if d < 2 {
		return 0
	}
	var s float64
	for _, v := range z {
		s += v * v
	}
	return s * float64(d) / float64(d-1)
}
