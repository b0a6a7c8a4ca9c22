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

func TestNystromMatchesDenseForm(t *testing.T) {
	// A full-rank A = GGᵀ/n (G n×n standard normal), whose blocks are well
	// conditioned, d ~ U[½, 3/2], b ~ U[−1, 1]. For the index set S that
	// Nystrom draws (the same draw from the same source), both Woodbury
	// forms must equal the dense value −¼cᵀ(D + CW⁻¹Cᵀ)⁻¹c, computed here by
	// forming the n×n matrix and a Cholesky solve.
	const n, k = 120, 15
	rnd := rand.New(rand.NewPCG(12, 12))
	g := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			g.Set(i, j, rnd.NormFloat64())
		}
	}
	var a mat.Dense
	a.Mul(g, g.T())
	a.Scale(1/float64(n), &a)
	d, b := make([]float64, n), make([]float64, n)
	for i := range n {
		d[i], b[i] = 0.5+rnd.Float64(), 2*rnd.Float64()-1
	}
	p, err := NewDense(&a, d, b)
	if err != nil {
		t.Fatal(err)
	}
	src := func() rand.Source { return rand.NewPCG(13, 13) }
	idx, err := Sample(n, k, false, rand.New(src()))
	if err != nil {
		t.Fatal(err)
	}
	c := mat.NewDense(n, k, nil)
	w := mat.NewDense(k, k, nil)
	for i := range n {
		for j, s := range idx {
			c.Set(i, j, a.At(i, s))
		}
	}
	for i, s := range idx {
		for j, r := range idx {
			w.Set(i, j, a.At(s, r))
		}
	}
	var winv, cw, m mat.Dense
	if err := winv.Inverse(w); err != nil {
		t.Fatal(err)
	}
	cw.Mul(c, &winv)
	m.Mul(&cw, c.T())
	sym := mat.NewSymDense(n, nil)
	cv := mat.NewVecDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			sym.SetSym(i, j, (m.At(i, j)+m.At(j, i))/2)
		}
		sym.SetSym(i, i, sym.At(i, i)+float64(n)*d[i])
		cv.SetVec(i, float64(n)*b[i])
	}
	var ch mat.Cholesky
	if !ch.Factorize(sym) {
		t.Fatal("D + CW⁻¹Cᵀ is not positive definite")
	}
	var x mat.VecDense
	if err := ch.SolveVecTo(&x, cv); err != nil {
		t.Fatal(err)
	}
	want := -mat.Dot(cv, &x) / 4
	for _, form := range []NystromForm{NystromPinv, NystromStable} {
		got, err := Nystrom(p, form, &Settings{K: k, Src: src()})
		if err != nil {
			t.Fatal(err)
		}
		// Well-conditioned k×k systems: agreement to rounding, relative.
		if math.Abs(got-want) > 1e-10*math.Abs(want) {
			t.Errorf("%v: %v, dense %v", form, got, want)
		}
	}
}
