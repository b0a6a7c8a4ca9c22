// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestExpNonPositive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 8))
	x := []float64{0, math.Copysign(0, -1), -1e-300, -1e-17, -math.Ln2 / 128, -math.Ln2 / 64, -1, -707.9, -708, -708.1, -745, math.Inf(-1), 1e-3, 3, math.NaN()}
	for range 200000 {
		x = append(x, -700*math.Pow(rnd.Float64(), 3))
	}
	y := make([]float64, len(x))
	expNonPositive(y, x)
	worst := 0.0
	for i, v := range x {
		want := math.Exp(v)
		switch {
		case math.IsNaN(v):
			if !math.IsNaN(y[i]) {
				t.Errorf("exp(NaN) = %v", y[i])
			}
		case v < -708:
			if y[i] != 0 {
				t.Errorf("exp(%v) = %v, want 0 (flushed)", v, y[i])
			}
		default:
			e := math.Abs(y[i]-want) / want
			worst = math.Max(worst, e)
			if e > 1e-15 {
				t.Errorf("exp(%v) = %v, math.Exp %v: relative error %g", v, y[i], want, e)
			}
		}
	}
	t.Logf("worst relative error %.3g", worst)
}

func BenchmarkExp(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, 100000)
	for i := range x {
		x[i] = -30 * rnd.Float64() * rnd.Float64()
	}
	y := make([]float64, len(x))
	b.Run("math.Exp", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				y[i] = math.Exp(v)
			}
		}
	})
	b.Run("expNonPositive", func(b *testing.B) {
		for b.Loop() {
			expNonPositive(y, x)
		}
	})
}
