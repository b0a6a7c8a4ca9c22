// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package summary

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestStrataVariance checks the within-stratum estimator against its
// closed forms for pairs ((z_a − z_b)² each) and a triple (3/2 Σ (zⱼ − z̄)²),
// against ClusterVariance without strata, and, by simulation, that it is
// unbiased for the variance of a total of two independent draws per stratum
// whose strata have unlike means (where one stratum, ClusterVariance, would
// count the differences between strata).
func TestStrataVariance(t *testing.T) {
	z := []float64{1, 3, -2, 0, 5, 4, -11}
	strata := PairedStrata(len(z))
	if want := []int{0, 0, 1, 1, 2, 2, 2}; !equalInts(strata, want) {
		t.Fatalf("PairedStrata(7) = %v, want %v", strata, want)
	}
	want := 4.0 + 4 + 1.5*(math.Pow(5+2./3, 2)+math.Pow(4+2./3, 2)+math.Pow(-11+2./3, 2))
	if v := StrataVariance(z, strata); math.Abs(v-want) > 1e-12*want {
		t.Errorf("StrataVariance = %v, want %v", v, want)
	}
	if PairedStrata(3) != nil {
		t.Errorf("PairedStrata(3) is not one stratum")
	}
	if StrataVariance(z, nil) != ClusterVariance(z) {
		t.Errorf("without strata: %v, want ClusterVariance %v", StrataVariance(z, nil), ClusterVariance(z))
	}
	// Simulation: 4 strata of means 0, 3, 6, 9 and standard deviations
	// 1, 2, 3, 4, two draws each; the total's variance is 2·(1+4+9+16) = 60.
	r := rand.New(rand.NewPCG(1, 2))
	const reps = 20000
	mean := 0.0
	zs := make([]float64, 8)
	st := PairedStrata(8)
	for range reps {
		for j := range zs {
			h := float64(j / 2)
			zs[j] = 3*h + (h+1)*r.NormFloat64()
		}
		mean += StrataVariance(zs, st) / reps
	}
	// The estimate's own variance: Σ_h Var((z_a − z_b)²) = Σ_h 2·(2σ_h²)² = 2400,
	// so the mean of reps has a standard error √(2400/reps) ≈ 0.35.
	if math.Abs(mean-60) > 4*math.Sqrt(2400/float64(reps)) {
		t.Errorf("mean of StrataVariance %.2f, want 60", mean)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
