// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package qmin

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/testtier"
)

// lowRank is the problem A = UUᵀ, d, b built from latent points xᵢ ~ U[0,1]:
// Uᵢ = (1, cos πxᵢ, sin πxᵢ), dᵢ = ½ + xᵢ, bᵢ = sin 2πxᵢ. A is a smooth
// positive semidefinite "graphon", so z*/n² has a limit as n grows, and
// M = UUᵀ + n·diag(d) is positive definite, so that Woodbury's identity gives
// z* = −¼ cᵀM⁻¹c (c = n·b) in O(n) time: a truth independent of the solvers.
type lowRank struct {
	u    [][3]float64
	d, b []float64
}

func newLowRank(n int, rnd *rand.Rand) *lowRank {
	p := &lowRank{u: make([][3]float64, n), d: make([]float64, n), b: make([]float64, n)}
	for i := range n {
		x := rnd.Float64()
		p.u[i] = [3]float64{1, math.Cos(math.Pi * x), math.Sin(math.Pi * x)}
		p.d[i] = 0.5 + x
		p.b[i] = math.Sin(2 * math.Pi * x)
	}
	return p
}

func (p *lowRank) Dim() int { return len(p.d) }
func (p *lowRank) AAt(i, j int) float64 {
	return p.u[i][0]*p.u[j][0] + p.u[i][1]*p.u[j][1] + p.u[i][2]*p.u[j][2]
}
func (p *lowRank) DAt(i int) float64 { return p.d[i] }
func (p *lowRank) BAt(i int) float64 { return p.b[i] }

// woodbury returns z* = −¼ cᵀ(D + UUᵀ)⁻¹c with D = n·diag(d), c = n·b:
// (D + UUᵀ)⁻¹ = D⁻¹ − D⁻¹U(I + UᵀD⁻¹U)⁻¹UᵀD⁻¹.
func (p *lowRank) woodbury() float64 {
	n := float64(len(p.d))
	var small [9]float64 // I + UᵀD⁻¹U
	var w [3]float64     // UᵀD⁻¹c
	cdc := 0.0           // cᵀD⁻¹c
	for i := range p.d {
		di, ci := n*p.d[i], n*p.b[i]
		cdc += ci * ci / di
		for r := range 3 {
			w[r] += p.u[i][r] * ci / di
			for s := range 3 {
				small[3*r+s] += p.u[i][r] * p.u[i][s] / di
			}
		}
	}
	for r := range 3 {
		small[4*r]++
	}
	x := mat.NewVecDense(3, nil)
	if err := x.SolveVec(mat.NewDense(3, 3, small[:]), mat.NewVecDense(3, w[:])); err != nil {
		panic(err)
	}
	return -(cdc - mat.Dot(mat.NewVecDense(3, w[:]), x)) / 4
}

func TestExactAgainstWoodbury(t *testing.T) {
	for _, n := range []int{1, 2, 30, 400} {
		p := newLowRank(n, rand.New(rand.NewPCG(uint64(n), 9)))
		sol, err := Exact(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := p.woodbury()
		if math.Abs(sol.Value-want) > 1e-10*math.Abs(want) {
			t.Errorf("n=%d: Exact %v, Woodbury %v", n, sol.Value, want)
		}
	}
}

func TestEstimateConstantProblemIsExact(t *testing.T) {
	// A = a·11ᵀ, d = δ·1, b = β·1: the restricted problem has the same form,
	// with minimiser v = −β/(2(a+δ))·1, so every draw returns exactly
	// z* = −n²β²/(4(a+δ)), with or without replacement.
	a, delta, beta := 0.7, 0.4, -1.3
	for _, n := range []int{1, 10, 1_000_000_000} {
		p := Funcs{N: n,
			A: func(int, int) float64 { return a },
			D: func(int) float64 { return delta },
			B: func(int) float64 { return beta },
		}
		want := -float64(n) * float64(n) * beta * beta / (4 * (a + delta))
		for _, replace := range []bool{true, false} {
			s := &Settings{K: min(n, 25), WithoutReplacement: !replace}
			res, err := Estimate(p, s)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(res.Value-want) > 1e-12*math.Abs(want) || res.StdErr > 1e-12*math.Abs(want) {
				t.Errorf("n=%d replace=%v: %v ± %v, want %v", n, replace, res.Value, res.StdErr, want)
			}
		}
	}
}

func TestEstimateErrorFallsWithKAndIsFlatInN(t *testing.T) {
	testtier.SkipUnderRace(t)
	// The error per n², |(n²/k²)z̃ − z*|/n², averaged over problems and draws,
	// must fall as k grows (like k^{-1/2}: a sampling error) and stay at the
	// same level whatever n is (Theorem 4.2).
	ks := []int{10, 20, 40, 80, 160}
	ns := []int{200, 500, 1000, 2000, 100_000}
	const problems, draws = 8, 25
	errs := make([][]float64, len(ns))
	for a, n := range ns {
		errs[a] = make([]float64, len(ks))
		for seed := range problems {
			p := newLowRank(n, rand.New(rand.NewPCG(uint64(seed), uint64(n))))
			truth := p.woodbury()
			for b, k := range ks {
				res, err := Estimate(p, &Settings{K: k, Draws: draws, Src: rand.NewPCG(uint64(seed), uint64(k))})
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range res.Draws {
					errs[a][b] += math.Abs(d.Value-truth) / float64(n) / float64(n) / (problems * draws)
				}
			}
		}
		t.Logf("n=%6d: error/n² for k=%v: %.4f", n, ks, errs[a])
	}
	// Each mean is over 200 draws whose spread is about their mean, so it
	// carries a relative error of about 1/√200 ≈ 7%. Doubling k should cut
	// the error by about 1/√2 ≈ 0.71: require at least 0.85, two standard
	// errors of the ratio away; from k = 10 to 160 require a factor 2.5 of the
	// expected 4.
	for a, n := range ns {
		for b := 1; b < len(ks); b++ {
			if r := errs[a][b] / errs[a][b-1]; r > 0.85 {
				t.Errorf("n=%d: error at k=%d is %.2f of that at k=%d", n, ks[b], r, ks[b-1])
			}
		}
		if r := errs[a][0] / errs[a][len(ks)-1]; r < 2.5 {
			t.Errorf("n=%d: error falls only by %.2f from k=10 to 160", n, r)
		}
	}
	// Flat in n: the largest and smallest mean error over n at each k within
	// a factor 1.4 (five 7% estimates of the same number rarely spread
	// further than ±20%).
	checkFlatInN(t, ks, errs, 1.4)
}

// checkFlatInN fails unless, at each k, the mean errors errs[a][b] over the
// values of n (a) lie within a factor maxRatio of each other.
func checkFlatInN(t *testing.T, ks []int, errs [][]float64, maxRatio float64) {
	t.Helper()
	for b, k := range ks {
		lo, hi := math.Inf(1), 0.0
		for a := range errs {
			lo, hi = math.Min(lo, errs[a][b]), math.Max(hi, errs[a][b])
		}
		if hi/lo > maxRatio {
			t.Errorf("k=%d: error per n² ranges from %.4f to %.4f over n", k, lo, hi)
		}
	}
}

func TestEstimateWithoutReplacementAllIndicesIsExact(t *testing.T) {
	p := newLowRank(60, rand.New(rand.NewPCG(5, 5)))
	res, err := Estimate(p, &Settings{K: 60, Draws: 3, WithoutReplacement: true})
	if err != nil {
		t.Fatal(err)
	}
	want := p.woodbury()
	if math.Abs(res.Value-want) > 1e-10*math.Abs(want) {
		t.Errorf("k = n without replacement: %v, want %v", res.Value, want)
	}
	for _, d := range res.Draws {
		seen := map[int]bool{}
		for _, i := range d.Indices {
			if seen[i] {
				t.Fatalf("index %d drawn twice without replacement", i)
			}
			seen[i] = true
		}
	}
}

func TestEstimateDeterministic(t *testing.T) {
	// The same seed gives bit-identical results with any number of workers,
	// through the entry path and through Restrict alike.
	p := newLowRank(5000, rand.New(rand.NewPCG(7, 7)))
	var first *Result
	for _, workers := range []int{1, 2, 8} {
		res, err := Estimate(p, &Settings{K: 30, Draws: 16, Workers: workers, Src: rand.NewPCG(42, 0)})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
			continue
		}
		if res.Value != first.Value || res.StdErr != first.StdErr {
			t.Errorf("workers=%d: %v ± %v, workers=1: %v ± %v", workers, res.Value, res.StdErr, first.Value, first.StdErr)
		}
	}
	dense := mat.NewDense(60, 60, nil)
	q := newLowRank(60, rand.New(rand.NewPCG(8, 8)))
	for i := range 60 {
		for j := range 60 {
			dense.Set(i, j, q.AAt(i, j))
		}
	}
	dp, err := NewDense(dense, q.d, q.b)
	if err != nil {
		t.Fatal(err)
	}
	r1, err1 := Estimate(dp, &Settings{K: 20, Src: rand.NewPCG(1, 1)})
	r2, err2 := Estimate(q, &Settings{K: 20, Src: rand.NewPCG(1, 1)})
	if err1 != nil || err2 != nil || r1.Value != r2.Value {
		t.Errorf("Dense (Restrict) %v, entries %v (%v, %v)", r1.Value, r2.Value, err1, err2)
	}
}

func TestEstimateBox(t *testing.T) {
	// With a box that the unconstrained minimiser of every restricted problem
	// fits in, the box changes nothing; with a tight box the estimate rises.
	p := newLowRank(1000, rand.New(rand.NewPCG(9, 9)))
	free, err := Estimate(p, &Settings{K: 40})
	if err != nil {
		t.Fatal(err)
	}
	loose, err := Estimate(p, &Settings{K: 40, Box: 100})
	if err != nil {
		t.Fatal(err)
	}
	tight, err := Estimate(p, &Settings{K: 40, Box: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(loose.Value-free.Value) > 1e-9*math.Abs(free.Value) || !loose.Certified {
		t.Errorf("loose box %v (certified %v), free %v", loose.Value, loose.Certified, free.Value)
	}
	if !(tight.Value > free.Value) || !tight.Certified {
		t.Errorf("tight box %v (certified %v) not above free %v", tight.Value, tight.Certified, free.Value)
	}
	for _, d := range tight.Draws {
		for _, v := range d.Restricted.V {
			if math.Abs(v) > 0.05 {
				t.Fatalf("minimiser %v outside the box", v)
			}
		}
	}
}

func TestEstimateErrors(t *testing.T) {
	good := newLowRank(10, rand.New(rand.NewPCG(1, 1)))
	nan := Funcs{N: 10,
		A: func(i, j int) float64 {
			if i == 3 && j == 3 {
				return math.NaN()
			}
			return 0
		},
		D: func(int) float64 { return 1 },
		B: func(int) float64 { return 1 },
	}
	infB := Funcs{N: 5, A: func(int, int) float64 { return 0 }, D: func(int) float64 { return 1 }, B: func(int) float64 { return math.Inf(-1) }}
	indefinite := Funcs{N: 5, A: func(int, int) float64 { return 0 }, D: func(int) float64 { return -1 }, B: func(int) float64 { return 1 }}
	for _, tc := range []struct {
		name string
		p    Problem
		s    Settings
		want error
		text string
	}{
		{"k < 1", good, Settings{K: -3}, ErrSettings, "K = -3"},
		{"k too large", good, Settings{K: MaxK + 1}, ErrTooLarge, "MaxK"},
		{"k > n without replacement", good, Settings{K: 11, WithoutReplacement: true}, ErrSettings, "distinct"},
		{"draws < 1", good, Settings{Draws: -1}, ErrSettings, "Draws = -1"},
		{"n < 1", Funcs{N: 0}, Settings{}, ErrShape, "n = 0"},
		{"negative box", good, Settings{Box: -1}, ErrSettings, "Box = -1"},
		{"NaN box", good, Settings{Box: math.NaN()}, ErrSettings, "box"},
		{"NaN entry", nan, Settings{K: 10, WithoutReplacement: true}, ErrNonFinite, "A[3,3]"},
		{"Inf entry of b", infB, Settings{K: 2}, ErrNonFinite, "b["},
		{"indefinite", indefinite, Settings{K: 3}, ErrUnbounded, "negative eigenvalue"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Estimate(tc.p, &tc.s)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.text) || !strings.HasPrefix(msg, "qmin: ") {
				t.Errorf("message %q lacks %q", msg, tc.text)
			}
		})
	}
	if _, err := Exact(Funcs{N: MaxK + 1}, nil); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Exact above MaxK: %v", err)
	}
	if _, err := NewDense(mat.NewDense(2, 3, nil), []float64{1, 2}, []float64{1, 2}); !errors.Is(err, ErrShape) {
		t.Errorf("NewDense non-square: %v", err)
	}
	if _, err := NewDense(mat.NewDense(2, 2, nil), []float64{1, 2}, []float64{1}); !errors.Is(err, ErrShape) {
		t.Errorf("NewDense short b: %v", err)
	}
}

var sink float64

// BenchmarkEstimate shows the cost of an estimate at fixed k staying flat as
// n grows from 10³ to 10⁹: the problem's entries come from a formula, so no
// n×n matrix is stored.
func BenchmarkEstimate(b *testing.B) {
	for _, n := range []int{1e3, 1e5, 1e7, 1e9} {
		p := Funcs{N: n,
			A: func(i, j int) float64 { return math.Cos(float64(i-j) / float64(n)) },
			D: func(i int) float64 { return 1 + float64(i%7)/7 },
			B: func(i int) float64 { return math.Sin(float64(i)) },
		}
		b.Run(fmt.Sprintf("n=%.0e/k=40", float64(n)), func(b *testing.B) {
			s := &Settings{K: 40, Draws: 1, Src: rand.NewPCG(1, 1)}
			for b.Loop() {
				res, err := Estimate(p, s)
				if err != nil {
					b.Fatal(err)
				}
				sink = res.Value
			}
		})
	}
}

// randomConvex is a dense problem with A symmetric, A_ij ~ U[−1, 1],
// d_i ~ U[½, 3/2] and b_i ~ U[−1, 1]. The eigenvalues of a k×k block of A
// lie within about ±1.2√k, below k·min d = k/2 for k ≥ 6, so every
// restricted problem of Estimate (k ≥ 10) and the whole problem are
// strictly convex.
func randomConvex(n int, rnd *rand.Rand) *Dense {
	a := mat.NewDense(n, n, nil)
	d, b := make([]float64, n), make([]float64, n)
	for i := range n {
		for j := i; j < n; j++ {
			v := 2*rnd.Float64() - 1
			a.Set(i, j, v)
			a.Set(j, i, v)
		}
		d[i], b[i] = 0.5+rnd.Float64(), 2*rnd.Float64()-1
	}
	p, err := NewDense(a, d, b)
	if err != nil {
		panic(err)
	}
	return p
}

func TestEstimateAgainstExactOnRandomConvex(t *testing.T) {
	testtier.SkipUnderRace(t)
	// Full-rank random problems, against Exact (a Cholesky solve of the
	// whole problem): the error per n² falls as k grows and stays at the
	// same level for n = 200 … 2000.
	ks := []int{10, 40, 160}
	ns := []int{200, 500, 1000, 2000}
	const problems, draws = 4, 25
	errs := make([][]float64, len(ns))
	for a, n := range ns {
		errs[a] = make([]float64, len(ks))
		for seed := range problems {
			p := randomConvex(n, rand.New(rand.NewPCG(uint64(seed), uint64(n)+7)))
			exact, err := Exact(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if exact.Method != Cholesky {
				t.Fatalf("n=%d: the whole problem was solved by %v, not Cholesky", n, exact.Method)
			}
			for b, k := range ks {
				res, err := Estimate(p, &Settings{K: k, Draws: draws, Src: rand.NewPCG(uint64(seed), uint64(k))})
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range res.Draws {
					errs[a][b] += math.Abs(d.Value-exact.Value) / float64(n) / float64(n) / (problems * draws)
				}
			}
		}
		t.Logf("n=%4d: error/n² for k=%v: %.4f", n, ks, errs[a])
	}
	// Means over 100 draws each (relative error about 10%); quadrupling k
	// should halve the error (a sampling error ~ k^{-1/2}): require 0.7.
	// Flat in n: within a factor 1.5 over n at each k.
	for a, n := range ns {
		for b := 1; b < len(ks); b++ {
			if r := errs[a][b] / errs[a][b-1]; r > 0.7 {
				t.Errorf("n=%d: error at k=%d is %.2f of that at k=%d", n, ks[b], r, ks[b-1])
			}
		}
	}
	checkFlatInN(t, ks, errs, 1.5)
}

func TestOnlySymmetricPartMatters(t *testing.T) {
	// vᵀAv = vᵀsym(A)v: an asymmetric A and its symmetric part give the
	// same restricted problems, so the same estimates and exact minima.
	rnd := rand.New(rand.NewPCG(11, 11))
	const n = 60
	sym := randomConvex(n, rnd)
	asym := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			// A_ij = S_ij + E_ij with E antisymmetric: sym(A) = S.
			e := float64(i - j)
			asym.Set(i, j, sym.AAt(i, j)+e)
		}
	}
	d, b := make([]float64, n), make([]float64, n)
	for i := range n {
		d[i], b[i] = sym.DAt(i), sym.BAt(i)
	}
	ap, err := NewDense(asym, d, b)
	if err != nil {
		t.Fatal(err)
	}
	// sym(A) = ((S + E) + (S − E)ᵀ)/2 equals S up to the rounding of the
	// sums: agreement to 1e-12, relative.
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }
	for _, s := range []Settings{{K: 20}, {K: 20, Box: 0.3}} {
		e1, err1 := Estimate(sym, &s)
		e2, err2 := Estimate(ap, &s)
		if err1 != nil || err2 != nil || !close(e2.Value, e1.Value) {
			t.Errorf("box %v: Estimate %v (symmetric) vs %v, %v %v", s.Box, e1.Value, e2.Value, err1, err2)
		}
		x1, err1 := Exact(sym, &s)
		x2, err2 := Exact(ap, &s)
		if err1 != nil || err2 != nil || !close(x2.Value, x1.Value) {
			t.Errorf("box %v: Exact %v (symmetric) vs %v, %v %v", s.Box, x1.Value, x2.Value, err1, err2)
		}
	}
}

func TestRestrictedAndSizeErrors(t *testing.T) {
	p := randomConvex(5, rand.New(rand.NewPCG(14, 14)))
	for _, tc := range []struct {
		idx  []int
		want error
	}{{nil, ErrShape}, {[]int{0, 5}, ErrShape}, {[]int{-1}, ErrShape}, {make([]int, MaxK+1), ErrTooLarge}} {
		if _, _, err := Restricted(p, tc.idx, nil); !errors.Is(err, tc.want) {
			t.Errorf("Restricted(%d indices): %v, want %v", len(tc.idx), err, tc.want)
		}
	}
	if _, err := Estimate(p, &Settings{K: MaxK, Draws: MaxDraws}); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "MaxDrawEntries") {
		t.Errorf("draws × k too large: %v", err)
	}
	huge := Funcs{N: 1e9, A: func(int, int) float64 { return 0 }, D: func(int) float64 { return 1 }, B: func(int) float64 { return 1 }}
	if _, err := Nystrom(huge, NystromStable, &Settings{K: 100}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Nyström with n·k = 1e11: %v", err)
	}
}
