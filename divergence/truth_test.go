// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// The truths the estimators are checked against, computed independently of
// them by numerical integration: PE_α(P‖Q) = ½∫ p²/q_α dx − ½, q_α = αp + (1−α)q.

// normal is a normal distribution on Rᵈ with a diagonal covariance.
type normal struct {
	mean, sd []float64
}

func (g normal) pdf(x []float64) float64 {
	p := 1.0
	for i, v := range x {
		p *= distuv.Normal{Mu: g.mean[i], Sigma: g.sd[i]}.Prob(v)
	}
	return p
}

func (g normal) sample(n int, rnd *rand.Rand) *mat.Dense {
	x := mat.NewDense(n, len(g.mean), nil)
	for i := range n {
		for j := range g.mean {
			x.Set(i, j, g.mean[j]+g.sd[j]*rnd.NormFloat64())
		}
	}
	return x
}

// truePE integrates ½ p²/q_α − ½ over a box covering ±12 standard deviations
// of both distributions, with a tensor-product Gauss–Legendre rule of
// 400 points per axis (in one or two dimensions).
func truePE(alpha float64, p, q normal) float64 {
	d := len(p.mean)
	lo, hi := make([]float64, d), make([]float64, d)
	for i := range d {
		lo[i] = math.Min(p.mean[i]-12*p.sd[i], q.mean[i]-12*q.sd[i])
		hi[i] = math.Max(p.mean[i]+12*p.sd[i], q.mean[i]+12*q.sd[i])
	}
	f := func(x []float64) float64 {
		pp := p.pdf(x)
		qa := alpha*pp + (1-alpha)*q.pdf(x)
		if qa == 0 {
			return 0
		}
		return pp * pp / qa
	}
	const n = 400
	var integral float64
	switch d {
	case 1:
		integral = quad.Fixed(func(x float64) float64 { return f([]float64{x}) }, lo[0], hi[0], n, quad.Legendre{}, 0)
	case 2:
		integral = quad.Fixed(func(x float64) float64 {
			return quad.Fixed(func(y float64) float64 { return f([]float64{x, y}) }, lo[1], hi[1], n, quad.Legendre{}, 0)
		}, lo[0], hi[0], n, quad.Legendre{}, 0)
	default:
		panic("truePE: one or two dimensions")
	}
	return integral/2 - 0.5
}

func TestTruePEQuadrature(t *testing.T) {
	t.Parallel()
	// For α = 0 and equal variances, ∫p²/q = exp(δ²) with δ the shift in
	// standard deviations, in any dimension: PE₀ = ½(exp(δ²) − 1).
	for _, tc := range []struct {
		p, q  normal
		delta float64
	}{
		{normal{[]float64{1}, []float64{0.5}}, normal{[]float64{1.5}, []float64{0.5}}, 1},
		{normal{[]float64{0}, []float64{2}}, normal{[]float64{1}, []float64{2}}, 0.5},
		{normal{[]float64{0, 0}, []float64{1, 1}}, normal{[]float64{0.6, -0.8}, []float64{1, 1}}, 1},
	} {
		want := (math.Exp(tc.delta*tc.delta) - 1) / 2
		if got := truePE(0, tc.p, tc.q); math.Abs(got-want) > 1e-9 {
			t.Errorf("PE₀(%v‖%v) = %.12f, closed form %.12f", tc.p, tc.q, got, want)
		}
	}
	// Identical distributions: zero for every α.
	g := normal{[]float64{0.3}, []float64{1.7}}
	for _, a := range []float64{0, 0.5, 0.9} {
		if got := truePE(a, g, g); math.Abs(got) > 1e-12 {
			t.Errorf("PE_%v(P‖P) = %v", a, got)
		}
	}
}
