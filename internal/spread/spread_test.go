// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package spread

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOf checks each rule against its value computed by hand, the MAD
// against the standard deviation of normal draws, and that one outlier
// moves neither the centre nor the spread by more than one order
// statistic's step.
func TestOf(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	const n = 4001
	normal := make([]float64, n)
	for i := range normal {
		normal[i] = 3 + 2*rnd.NormFloat64()
	}
	// The MAD of n normal draws has a relative standard error of about
	// 1.17/√n = 1.8%: 10% is more than 5 of them; the median's standard
	// error is 1.25·2/√n = 0.04.
	s := Of(slices.Clone(normal))
	if s.Rule != MAD || math.Abs(s.Units()/2-1) > 0.1 || math.Abs(s.Centre-3) > 0.2 || s.Pow2 != 1 {
		t.Errorf("normal(3, 2²): %+v, want centre 3, spread 2 by mad", s)
	}
	// One outlier: the median and the MAD move by at most one step between
	// neighbouring order statistics, far less than 1% of the spread.
	spoilt := slices.Clone(normal)
	spoilt[17] = 1e12
	o := Of(spoilt)
	if o.Rule != MAD || math.Abs(o.Spread/s.Spread-1) > 0.01 || math.Abs(o.Centre-s.Centre) > 0.01*s.Spread {
		t.Errorf("one outlier of 1e12: %+v, against %+v without it", o, s)
	}

	// 60 zeros and 40 ones: the MAD is 0; type-7 quartiles are
	// x(25.75) = 0 and x(75.25) = 1 (1-based), so the IQR is 1.
	v := make([]float64, 100)
	for i := 60; i < 100; i++ {
		v[i] = 1
	}
	if got := Of(v); got.Rule != IQR || got.Spread != 1/IQRNormal || got.Centre != 0 {
		t.Errorf("60 zeros, 40 ones: %+v, want spread 1/1.349 by iqr", got)
	}
	// 95 zeros and 5 ones: MAD and IQR are 0; the root mean square
	// deviation from the median 0 is √0.05.
	for i := range v {
		v[i] = 0
		if i%20 == 0 {
			v[i] = 1
		}
	}
	if got := Of(v); got.Rule != SD || math.Abs(got.Spread-math.Sqrt(0.05)) > 1e-15 || got.Centre != 0 {
		t.Errorf("95 zeros, 5 ones: %+v, want spread √0.05 by sd", got)
	}
	if got := Of([]float64{7, 7, 7}); got.Rule != Constant || got.Spread != 1 || got.Centre != 7 || got.Apply(7) != 0 {
		t.Errorf("constant 7: %+v, want centred only", got)
	}

	// Values near the largest float neither overflow nor lose their spread.
	h := Of([]float64{-1.7e308, -1e308, 0, 1e308, 1.7e308})
	if got := h.Units(); math.IsInf(got, 0) || math.Abs(got/(MADNormal*1e308)-1) > 1e-12 {
		t.Errorf("huge values: spread %g, want %g", got, MADNormal*1e308)
	}
	if got := h.Apply(1e308); math.Abs(got-1/MADNormal) > 1e-12 {
		t.Errorf("huge values: 1e308 scaled to %g, want %g", got, 1/MADNormal)
	}
	// Apply holds an outlier far beyond the spread at ±MaxMagnitude.
	tiny := Scale{Pow2: 1, Spread: 1e-300, Rule: MAD}
	if got := tiny.Apply(-1e300); got != -MaxMagnitude {
		t.Errorf("Apply(-1e300) at spread 1e-300 = %g, want %g", got, -MaxMagnitude)
	}
}

// TestQuantile checks type-7 quantiles against order statistics by hand.
func TestQuantile(t *testing.T) {
	s := []float64{1, 2, 4, 8}
	for _, c := range []struct{ p, want float64 }{{0, 1}, {0.5, 3}, {0.25, 1.75}, {1, 8}, {2.0 / 3, 4}} {
		if got := Quantile(s, c.p); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("Quantile(%v, %g) = %g, want %g", s, c.p, got, c.want)
		}
	}
}

func ExampleOf() {
	// A column in dollars with one wild value: the median and the MAD
	// ignore it (median 51 000, MAD 7000 by hand), where the standard
	// deviation would be about 3.2e8.
	income := []float64{41e3, 52e3, 38e3, 61e3, 47e3, 55e3, 44e3, 1e9, 50e3, 58e3}
	s := Of(slices.Clone(income))
	fmt.Printf("centre %.0f, spread %.0f (%s)\n", s.Centre, s.Units(), s.Rule)
	fmt.Printf("52000 becomes %.3f\n", s.Apply(52e3))
	// Output:
	// centre 51000, spread 10378 (mad)
	// 52000 becomes 0.096
}

// FuzzOf checks that any finite values give a positive finite Spread (in
// units of Pow2: Units may exceed the largest float64 for values near
// ±1.8e308), a centre within the values' range, and scaled values within
// ±MaxMagnitude.
func FuzzOf(f *testing.F) {
	f.Add(1.0, 2.0, 3.0, 1e308)
	f.Add(0.0, 0.0, 0.0, 0.0)
	f.Add(-1.7e308, 5e-324, 1.7e308, 1.0)
	f.Fuzz(func(t *testing.T, a, b, c, d float64) {
		v := []float64{a, b, c, d}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return
			}
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		s := Of(slices.Clone(v))
		if !(s.Spread > 0) || math.IsInf(s.Spread, 0) || s.Centre*s.Pow2 < lo || s.Centre*s.Pow2 > hi {
			t.Fatalf("Of(%v) = %+v", v, s)
		}
		for _, x := range v {
			if y := s.Apply(x); math.IsNaN(y) || math.Abs(y) > MaxMagnitude {
				t.Fatalf("Of(%v).Apply(%g) = %g", v, x, y)
			}
		}
	})
}
