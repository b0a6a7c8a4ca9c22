// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package summary

// The variance of a mean under a two-stage sample: units drawn
// independently with probability proportional to their rows, rows within
// them. Its first-order error is a sum of the rows' centred and scaled
// influences eᵢ = (ψᵢ − ψ̄)/n; the draws, not the rows, are independent,
// so the sums zⱼ of eᵢ over the rows of each draw j are the observations,
// and the ultimate-cluster estimator of the variance is
//
//	V_units = D/(D−1) Σⱼ zⱼ²   (over the D draws; Σⱼ zⱼ = 0),
//
// against V_iid = Σᵢ eᵢ²·n/(n−1) were the rows independent (each row a
// cluster of one). V_units/V_iid is the design effect.

// ClusterVariance returns D/(D−1) Σⱼ zⱼ² for the sums z of the D
// independent draws, which sum to zero: the variance of their total. Zero
// for fewer than two draws.
func ClusterVariance(z []float64) float64 {
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

// AddByCluster adds each e[i] to z[units[i]].
func AddByCluster(z, e []float64, units []int) {
	for i, v := range e {
		z[units[i]] += v
	}
}

// Design returns the variances V_iid and V_units of the sum of the
// centred and scaled influences e of the rows of a two-stage sample, the
// draw of row i being units[i], of draws draws.
func Design(e []float64, units []int, draws int) (vIID, vUnits float64) {
	z := make([]float64, draws)
	AddByCluster(z, e, units)
	return ClusterVariance(e), ClusterVariance(z)
}

// Centre replaces each vᵢ of the n values v by (vᵢ − v̄)/n, the centred
// and scaled influences whose sum is the first-order error of their mean,
// and returns v.
func Centre(v []float64) []float64 {
	var mean float64
	for i, x := range v {
		mean += (x - mean) / float64(i+1)
	}
	for i := range v {
		v[i] = (v[i] - mean) / float64(len(v))
	}
	return v
}
