// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package tabular

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/spread"
)

func TestStandardizeRobust(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 2))
	const n = 4001
	x := mat.NewDense(n, 4, nil)
	for i := range n {
		x.Set(i, 0, 3+2*rnd.NormFloat64()) // normal, sd 2
		x.Set(i, 1, 7)                     // constant
		b := 0.0
		if i%20 == 0 {
			b = 1
		}
		x.Set(i, 2, b)                         // 5% ones: MAD and IQR 0
		x.Set(i, 3, 1e5*(2*rnd.NormFloat64())) // normal, sd 2e5, with one outlier below
	}
	x.Set(17, 0, 1e12) // one outlier cannot move the robust centre and spread
	x.Set(5, 3, -1e305)
	a := Standardize(nil, x)
	// The MAD of n normal draws has a relative standard error of about
	// 1.17/√n = 1.8%: 10% is more than 5 of them.
	for _, c := range []struct {
		col          int
		centre, sd   float64
		how          spread.Rule
		centreMargin float64
	}{
		{0, 3, 2, spread.MAD, 0.2},
		{1, 7, 1, spread.Constant, 0},
		{2, 0, math.Sqrt(0.05 * 0.95), spread.SD, 0},
		{3, 0, 2e5, spread.MAD, 2e4},
	} {
		s := a.Cols[c.col]
		got, centre := s.Units(), s.Centre*s.Pow2
		if s.Rule != c.how || math.Abs(got/c.sd-1) > 0.1 || math.Abs(centre-c.centre) > c.centreMargin {
			t.Errorf("column %d: centre %g, spread %g by %s; want %g, %g by %s", c.col, centre, got, s.Rule, c.centre, c.sd, c.how)
		}
	}
	for i := range n {
		for j := range 4 {
			if v := x.At(i, j); math.IsNaN(v) || math.Abs(v) > spread.MaxMagnitude {
				t.Fatalf("row %d, column %d: %g after standardising", i, j, v)
			}
		}
	}
	if v := x.At(1, 1); v != 0 {
		t.Errorf("a constant column is centred: %g", v)
	}
	// Values near the largest float neither overflow nor lose their spread.
	h := mat.NewDense(5, 1, []float64{-1.7e308, -1e308, 0, 1e308, 1.7e308})
	a = Standardize(nil, h)
	if got := a.Spreads()[0]; math.IsInf(got, 0) || math.Abs(got/(spread.MADNormal*1e308)-1) > 1e-12 {
		t.Errorf("huge values: spread %g, want %g", got, spread.MADNormal*1e308)
	}
	if got := h.At(3, 0); math.Abs(got-1/spread.MADNormal) > 1e-12 {
		t.Errorf("huge values: 1e308 standardised to %g, want %g", got, 1/spread.MADNormal)
	}
}

func TestIDLike(t *testing.T) {
	t.Parallel()
	col := func(f func(i int) float64) *mat.Dense {
		x := mat.NewDense(100, 1, nil)
		for i := range 100 {
			x.Set(i, 0, f(i))
		}
		return x
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	perm := rnd.Perm(100000)
	for _, c := range []struct {
		name string
		x    *mat.Dense
		pop  int
		want bool
	}{
		{"row numbers", col(func(i int) float64 { return float64(i + 1) }), 100, true},
		{"increasing, sparse", col(func(i int) float64 { return float64(1000 * i) }), 100, true},
		{"a sample of ids of a larger file", col(func(i int) float64 { return float64(perm[i]) }), 100000, true},
		{"a shuffled measurement", col(func(i int) float64 { return float64(perm[i]) }), 100, false},
		{"repeats", col(func(i int) float64 { return float64(i / 2) }), 100, false},
		{"fractions", col(func(i int) float64 { return float64(i) + 0.5 }), 100, false},
		{"normal", col(func(int) float64 { return rnd.NormFloat64() }), 100, false},
	} {
		if got := IDLike(mat.Col(nil, 0, c.x), c.pop); got != c.want {
			t.Errorf("%s: IDLike %v, want %v", c.name, got, c.want)

		}
	}
}
