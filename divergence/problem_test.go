// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/qmin"
)

func TestPEProblem(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(9, 9))
	x := normal{[]float64{0, 0}, []float64{1, 1}}.sample(80, rnd)
	y := normal{[]float64{0.5, 0}, []float64{1, 1}}.sample(60, rnd)
	s := &PESettings{Sigma: 0.9, Settings: Settings{Lambda: 0.4, M: AllPoints}}
	p, err := NewPEProblem(x, y, 0.5, s)
	if err != nil {
		t.Fatal(err)
	}
	want := directPE(x, y, 0.5, 0.9, 0.4)
	// The exact minimum through qmin.
	ex, err := qmin.Exact(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.PE(ex.Value); math.Abs(got-want) > 1e-10 {
		t.Errorf("qmin.Exact: PE %v, direct %v", got, want)
	}
	// Columns agree with the full restriction, with exact and with sampled
	// averages (where both draw the averaging points from the generator of
	// single-entry queries), at α = 0.5 and α = 0.
	all := indices.Range(80)
	sampled := &PESettings{Sigma: 0.9, Settings: Settings{Lambda: 0.4, M: 50}}
	for _, sc := range []struct {
		s     *PESettings
		alpha float64
	}{{s, 0.5}, {sampled, 0.5}, {sampled, 0}} {
		pc, err := NewPEProblem(x, y, sc.alpha, sc.s)
		if err != nil {
			t.Fatal(err)
		}
		a := mat.NewSymDense(80, nil)
		if err := pc.Restrict(a, make([]float64, 80), make([]float64, 80), all, rand.New(rand.NewPCG(1, 2))); err != nil {
			t.Fatal(err)
		}
		cols := []int{3, 17, 3, 79}
		c := mat.NewDense(80, 4, nil)
		if err := pc.Columns(c, cols); err != nil {
			t.Fatal(err)
		}
		for i := range 80 {
			for j, col := range cols {
				if math.Abs(c.At(i, j)-a.At(i, col)) > 1e-12 {
					t.Fatalf("M=%d α=%v: Columns[%d,%d] = %v, Restrict %v", sc.s.M, sc.alpha, i, j, c.At(i, j), a.At(i, col))
				}
			}
		}
	}
	// Nyström with every column is exact in exact arithmetic. The stable
	// form is, to rounding; the paper's form goes through W⁺ of an
	// ill-conditioned kernel block and loses digits (5e-6 here).
	for _, tc := range []struct {
		form qmin.NystromForm
		tol  float64
	}{{qmin.NystromStable, 1e-9}, {qmin.NystromPinv, 1e-4}} {
		z, err := qmin.Nystrom(p, tc.form, &qmin.Settings{K: 80})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.PE(z); math.Abs(got-want) > tc.tol {
			t.Errorf("%v with k = n: PE %v, direct %v", tc.form, got, want)
		}
	}
	if _, err := NewPEProblem(x, y, 0.5, &PESettings{Sigma: 1}); err == nil {
		t.Error("no λ: no error")
	}
}
