// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package qmin

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestNystromExactOnLowRank(t *testing.T) {
	// A = UUᵀ has rank 3: a rank-k Nyström approximation with k ≥ 3 columns
	// spanning its range reproduces it, so both forms give z* (Woodbury).
	for _, n := range []int{50, 2000} {
		p := newLowRank(n, rand.New(rand.NewPCG(uint64(n), 3)))
		want := p.woodbury()
		for _, form := range []NystromForm{NystromPinv, NystromStable} {
			got, err := Nystrom(p, form, &Settings{K: 10})
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-want) > 1e-8*math.Abs(want) {
				t.Errorf("n=%d %v: %v, z* %v", n, form, got, want)
			}
		}
	}
}

// gaussProblem is a full-rank positive definite kernel problem:
// A_ij = exp(−(xᵢ − xⱼ)²/0.02), d = 0.01, b = sin 3x.
func gaussProblem(n int, rnd *rand.Rand) *Dense {
	x := make([]float64, n)
	for i := range x {
		x[i] = rnd.Float64()
	}
	a := mat.NewDense(n, n, nil)
	d, b := make([]float64, n), make([]float64, n)
	for i := range n {
		for j := range n {
			a.Set(i, j, math.Exp(-(x[i]-x[j])*(x[i]-x[j])/0.02))
		}
		d[i], b[i] = 0.01, math.Sin(3*x[i])
	}
	p, _ := NewDense(a, d, b)
	return p
}

func TestNystromApproachesExact(t *testing.T) {
	// The stable form's error against Exact falls as k grows, to near zero
	// once the rank-k approximation captures the kernel matrix (whose
	// eigenvalues decay fast).
	p := gaussProblem(400, rand.New(rand.NewPCG(4, 4)))
	exact, err := Exact(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	prev := math.Inf(1)
	for _, k := range []int{5, 10, 20, 40} {
		e := 0.0
		for seed := range 5 {
			z, err := Nystrom(p, NystromStable, &Settings{K: k, Src: rand.NewPCG(uint64(seed), 1)})
			if err != nil {
				t.Fatal(err)
			}
			e += math.Abs(z-exact.Value) / math.Abs(exact.Value) / 5
		}
		t.Logf("k=%d: relative error %.2e", k, e)
		if e > prev*1.01 {
			t.Errorf("k=%d: error %.3g grew from %.3g", k, e, prev)
		}
		prev = e
	}
	if prev > 1e-3 {
		t.Errorf("k=40: relative error %.3g", prev)
	}
}

func TestNystromErrors(t *testing.T) {
	p := gaussProblem(20, rand.New(rand.NewPCG(5, 5)))
	if _, err := Nystrom(p, NystromStable, &Settings{K: 21}); !errors.Is(err, ErrSettings) {
		t.Errorf("k > n: %v", err)
	}
	if _, err := Nystrom(p, NystromForm(9), nil); !errors.Is(err, ErrSettings) {
		t.Errorf("bad form: %v", err)
	}
	neg := Funcs{N: 5, A: func(int, int) float64 { return 1 }, D: func(int) float64 { return 0 }, B: func(int) float64 { return 1 }}
	if _, err := Nystrom(neg, NystromStable, &Settings{K: 2}); !errors.Is(err, ErrSettings) {
		t.Errorf("d = 0: %v", err)
	}
}
