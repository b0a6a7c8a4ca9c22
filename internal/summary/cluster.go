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

// StrataVariance returns the variance of the total of the sums z of D
// draws stratified as strata[j] (the stratum of draw j, 0 to S − 1, each
// stratum holding two draws or more): the within-stratum estimator
//
//	V = Σ_h m_h/(m_h−1) Σ_{j∈h} (zⱼ − z̄_h)²   (m_h draws in stratum h),
//
// which is unbiased when the draws of a stratum are independent and alike
// (two draws in each of D/2 strata), and conservative when each "stratum"
// collapses adjacent strata of one draw each (the collapsed-strata
// estimator: for a pair, (z_a − z_b)² estimates Var z_a + Var z_b plus
// the square of the difference of their expectations). With strata nil it
// is ClusterVariance(z), the draws independent and alike. It panics if a
// stratum holds a single draw.
func StrataVariance(z []float64, strata []int) float64 {
	if strata == nil {
		return ClusterVariance(z)
	}
	if len(strata) != len(z) {
		panic("summary: StrataVariance: a stratum per draw is needed")
	}
	s := 0
	for _, h := range strata {
		s = max(s, h+1)
	}
	sum, m := make([]float64, s), make([]int, s)
	for j, h := range strata {
		sum[h] += z[j]
		m[h]++
	}
	for h := range sum {
		if m[h] == 1 {
			panic("summary: StrataVariance: a stratum of one draw")
		}
		if m[h] > 0 {
			sum[h] /= float64(m[h])
		}
	}
	var v float64
	for j, h := range strata {
		d := z[j] - sum[h]
		v += d * d * float64(m[h]) / float64(m[h]-1)
	}
	return v
}

// PairedStrata returns the strata of StrataVariance for d draws taken in
// order along a dataset: draws 2k and 2k + 1 form stratum k, the last
// three one stratum when d is odd. Nil for fewer than four draws: one
// stratum, ClusterVariance.
func PairedStrata(d int) []int {
	if d < 4 {
		return nil
	}
	s := make([]int, d)
	for j := range s {
		s[j] = min(j/2, d/2-1)
	}
	return s
}

// AddByCluster adds each e[i] to z[units[i]].
func AddByCluster(z, e []float64, units []int) {
	for i, v := range e {
		z[units[i]] += v
	}
}

// Design returns the variances V_iid and V_units of the sum of the
// centred and scaled influences e of the rows of a two-stage sample, the
// draw of row i being units[i], of draws draws in the strata strata (see
// StrataVariance; nil: the draws independent and alike).
func Design(e []float64, units []int, draws int, strata []int) (vIID, vUnits float64) {
	z := make([]float64, draws)
	AddByCluster(z, e, units)
	return ClusterVariance(e), StrataVariance(z, strata)
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
