// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package qmin

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// f evaluates vᵀMv + cᵀv directly, independently of the solvers.
func f(m mat.Symmetric, c, v []float64) float64 {
	n := len(c)
	s := 0.0
	for i := range n {
		for j := range n {
			s += v[i] * m.At(i, j) * v[j]
		}
		s += c[i] * v[i]
	}
	return s
}

func randomSym(n int, rnd *rand.Rand, shift float64) *mat.SymDense {
	m := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			m.SetSym(i, j, 2*rnd.Float64()-1)
		}
		m.SetSym(i, i, m.At(i, i)+shift)
	}
	return m
}

func randomVec(n int, rnd *rand.Rand) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 2*rnd.Float64() - 1
	}
	return v
}

func TestMinimizeQuadraticClosedForm(t *testing.T) {
	// f(v) = a‖v‖² + β·Σv over Rⁿ: v = −β/(2a), min = −nβ²/(4a).
	for _, n := range []int{1, 3, 50} {
		a, beta := 2.5, -1.5
		m := mat.NewSymDense(n, nil)
		c := make([]float64, n)
		for i := range n {
			m.SetSym(i, i, a)
			c[i] = beta
		}
		sol, err := MinimizeQuadratic(m, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := -float64(n) * beta * beta / (4 * a)
		if math.Abs(sol.Value-want) > 1e-12*math.Abs(want) || sol.Method != Cholesky || !sol.Certified {
			t.Errorf("n=%d: got %v by %v, want %v by cholesky", n, sol.Value, sol.Method, want)
		}
		for i, v := range sol.V {
			if math.Abs(v+beta/(2*a)) > 1e-12 {
				t.Errorf("n=%d: v[%d] = %v, want %v", n, i, v, -beta/(2*a))
			}
		}
	}
}

func TestMinimizeQuadraticRandomPD(t *testing.T) {
	// Stationarity 2Mv + c = 0 and, since M is positive definite, a value no
	// larger than at nearby perturbations.
	rnd := rand.New(rand.NewPCG(1, 1))
	for trial := range 20 {
		n := 1 + rnd.IntN(30)
		m := randomSym(n, rnd, float64(n))
		c := randomVec(n, rnd)
		sol, err := MinimizeQuadratic(m, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		g := make([]float64, n)
		mv := mat.NewVecDense(n, nil)
		mv.MulVec(m, mat.NewVecDense(n, sol.V))
		for i := range n {
			g[i] = 2*mv.AtVec(i) + c[i]
			if math.Abs(g[i]) > 1e-10 {
				t.Fatalf("trial %d: gradient %v at %d", trial, g[i], i)
			}
		}
		if got := f(m, c, sol.V); math.Abs(got-sol.Value) > 1e-10*(1+math.Abs(got)) {
			t.Fatalf("trial %d: Value %v but f(V) = %v", trial, sol.Value, got)
		}
	}
}

func TestMinimizeQuadraticSingular(t *testing.T) {
	// M = uuᵀ with u = (1, 1): f(v) = (v₁+v₂)² + cᵀv.
	m := mat.NewSymDense(2, []float64{1, 1, 1, 1})
	// c = (2, 2) lies in the range: f = s² + 2s with s = v₁+v₂, min −1.
	sol, err := MinimizeQuadratic(m, []float64{2, 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(sol.Value+1) > 1e-12 || sol.Method != Pseudoinverse {
		t.Errorf("got %v by %v, want -1 by pseudoinverse", sol.Value, sol.Method)
	}
	// The minimiser of least norm: v₁ = v₂ = −1/2.
	if math.Abs(sol.V[0]+0.5) > 1e-12 || math.Abs(sol.V[1]+0.5) > 1e-12 {
		t.Errorf("minimiser %v, want (-0.5, -0.5)", sol.V)
	}
	// c = (1, −1) is along the null space: unbounded.
	if _, err := MinimizeQuadratic(m, []float64{1, -1}, nil); !errors.Is(err, ErrUnbounded) {
		t.Errorf("c outside the range: err = %v, want ErrUnbounded", err)
	}
	// The zero matrix: bounded only for c = 0.
	z := mat.NewSymDense(3, nil)
	if sol, err := MinimizeQuadratic(z, make([]float64, 3), nil); err != nil || sol.Value != 0 {
		t.Errorf("zero problem: %v, %v", sol.Value, err)
	}
	if _, err := MinimizeQuadratic(z, []float64{0, 1e-300, 0}, nil); !errors.Is(err, ErrUnbounded) {
		t.Errorf("zero matrix, c ≠ 0: err = %v, want ErrUnbounded", err)
	}
}

func TestMinimizeQuadraticIllConditioned(t *testing.T) {
	// diag(1, 10⁻¹³) is positive definite, so f has a minimum (−2.5·10¹² for
	// c = (0, 1)), but its condition number 10¹³ is beyond what the package
	// trusts: not ErrUnbounded, which would be false, but ErrIllConditioned.
	m := mat.NewSymDense(2, []float64{1, 0, 0, 1e-13})
	_, err := MinimizeQuadratic(m, []float64{0, 1}, nil)
	if !errors.Is(err, ErrIllConditioned) || errors.Is(err, ErrUnbounded) {
		t.Errorf("err = %v, want ErrIllConditioned", err)
	}
	// c in the well-conditioned direction only: the minimum −¼ is exact.
	sol, err := MinimizeQuadratic(m, []float64{1, 0}, nil)
	if err != nil || math.Abs(sol.Value+0.25) > 1e-15 {
		t.Errorf("c = (1, 0): %v, %v, want -0.25", sol.Value, err)
	}
}

func TestMinimizeQuadraticErrors(t *testing.T) {
	indef := mat.NewSymDense(2, []float64{1, 0, 0, -1})
	if _, err := MinimizeQuadratic(indef, []float64{0, 0}, nil); !errors.Is(err, ErrUnbounded) {
		t.Errorf("indefinite: err = %v", err)
	}
	pd := mat.NewSymDense(2, []float64{1, 0, 0, 1})
	if _, err := MinimizeQuadratic(pd, []float64{0, math.NaN()}, nil); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN in c: err = %v", err)
	}
	if _, err := MinimizeQuadratic(mat.NewSymDense(2, []float64{1, math.Inf(1), math.Inf(1), 1}), []float64{0, 0}, nil); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Inf in M: err = %v", err)
	}
	if _, err := MinimizeQuadratic(pd, []float64{0}, nil); !errors.Is(err, ErrShape) {
		t.Errorf("length mismatch: err = %v", err)
	}
	if _, err := MinimizeQuadratic(pd, []float64{0, 0}, &Settings{Box: -1}); !errors.Is(err, ErrSettings) {
		t.Errorf("negative box: err = %v", err)
	}
	// Overflow in the solution is reported, not returned as Inf.
	tiny := mat.NewSymDense(1, []float64{1e-300})
	if _, err := MinimizeQuadratic(tiny, []float64{1e300}, nil); !errors.Is(err, ErrNonFinite) {
		t.Errorf("overflow: err = %v", err)
	}
}

// bruteForceBox returns the global minimum of vᵀMv + cᵀv over [−K, K]ⁿ by
// enumerating every face of the box: each coordinate at −K, at K or free. On
// a face, a minimum in the relative interior is a stationary point of the
// restriction, which must then be positive semidefinite; every other minimum
// lies on a smaller face. The global minimum is the least of these candidates.
func bruteForceBox(m *mat.SymDense, c []float64, k float64) float64 {
	n := len(c)
	best := math.Inf(1)
	state := make([]int, n) // 0 free, 1 at −K, 2 at K
	for {
		var free []int
		v := make([]float64, n)
		for i, s := range state {
			switch s {
			case 0:
				free = append(free, i)
			case 1:
				v[i] = -k
			case 2:
				v[i] = k
			}
		}
		if len(free) == 0 {
			best = math.Min(best, f(m, c, v))
		} else {
			// Stationary on the face: M_FF v_F = −(c_F + 2 M_FB v_B)/2.
			nf := len(free)
			mf := mat.NewSymDense(nf, nil)
			rhs := make([]float64, nf)
			for a, i := range free {
				for b := a; b < nf; b++ {
					mf.SetSym(a, b, m.At(i, free[b]))
				}
				rhs[a] = c[i]
				for j := range n {
					if state[j] != 0 {
						rhs[a] += 2 * m.At(i, j) * v[j]
					}
				}
			}
			var es mat.EigenSym
			es.Factorize(mf, false)
			vals := es.Values(nil)
			if vals[0] > 1e-9 {
				var ch mat.Cholesky
				ch.Factorize(mf)
				x := mat.NewVecDense(nf, nil)
				ch.SolveVecTo(x, mat.NewVecDense(nf, rhs))
				ok := true
				for a, i := range free {
					v[i] = -x.AtVec(a) / 2
					ok = ok && math.Abs(v[i]) <= k
				}
				if ok {
					best = math.Min(best, f(m, c, v))
				}
			}
		}
		// Next state in base 3.
		i := 0
		for ; i < n; i++ {
			state[i]++
			if state[i] < 3 {
				break
			}
			state[i] = 0
		}
		if i == n {
			return best
		}
	}
}

// checkKKT verifies the first-order conditions of a box minimum: gᵢ = 0 inside,
// gᵢ ≥ 0 at −K and gᵢ ≤ 0 at K, where g = 2Mv + c.
func checkKKT(t *testing.T, m *mat.SymDense, c, v []float64, k float64) {
	t.Helper()
	n := len(c)
	for i := range n {
		g := c[i]
		for j := range n {
			g += 2 * m.At(i, j) * v[j]
		}
		tol := 1e-8 * (1 + math.Abs(c[i]) + float64(n)*k)
		switch {
		case math.Abs(v[i]) > k:
			t.Errorf("v[%d] = %v outside the box [−%v, %v]", i, v[i], k, k)
		case v[i] == -k && g < -tol, v[i] == k && g > tol:
			t.Errorf("v[%d] = %v at a bound with gradient %v pointing inside", i, v[i], g)
		case math.Abs(v[i]) < k && math.Abs(g) > tol:
			t.Errorf("v[%d] = %v inside with gradient %v", i, v[i], g)
		}
	}
}

func TestBoxConvexAgainstBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 2))
	for trial := range 300 {
		n := 1 + rnd.IntN(6)
		k := 0.1 + rnd.Float64()
		var m *mat.SymDense
		if trial%3 == 0 {
			// Positive semidefinite and singular: GᵀG with G of rank < n.
			r := max(1, n-1-rnd.IntN(2))
			g := mat.NewDense(r, n, randomVec(r*n, rnd))
			m = mat.NewSymDense(n, nil)
			m.SymOuterK(1, g.T())
		} else {
			m = randomSym(n, rnd, float64(n))
		}
		c := randomVec(n, rnd)
		for i := range c {
			c[i] *= 2 * float64(n)
		}
		sol, err := MinimizeQuadratic(m, c, &Settings{Box: k})
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		want := bruteForceBox(m, c, k)
		if !sol.Certified {
			t.Errorf("trial %d: convex problem not certified (gap %v)", trial, sol.Gap)
		}
		if math.Abs(sol.Value-want) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("trial %d (n=%d): got %v by %v, brute force %v", trial, n, sol.Value, sol.Method, want)
		}
		if got := f(m, c, sol.V); math.Abs(got-sol.Value) > 1e-9*(1+math.Abs(got)) {
			t.Errorf("trial %d: Value %v but f(V) = %v", trial, sol.Value, got)
		}
		checkKKT(t, m, c, sol.V, k)
	}
}

func TestBoxNonConvexAgainstBruteForce(t *testing.T) {
	// The paper's synthetic problems: M = sym(A) + n·diag(d), A ~ U[−1,1],
	// d ~ U[0,1], c = n·b, b ~ U[−1,1], over [−1, 1]ⁿ, and over boxes whose
	// half-width is not a power of two (where v + (K − v) is often not K, so
	// that a minimiser must be put on the bound exactly to be certified). The
	// local solver must never claim a value below the global minimum, must
	// find it in almost every small case, and may certify it only when it is
	// the global minimum.
	for _, tc := range []struct {
		box    float64
		trials int
	}{{1, 300}, {0.37, 150}, {3.3, 150}} {
		t.Run(fmt.Sprintf("K=%v", tc.box), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(3, math.Float64bits(tc.box)))
			found, nonConvex, certified := 0, 0, 0
			for trial := range tc.trials {
				n := 2 + rnd.IntN(6)
				m := randomSym(n, rnd, 0)
				for i := range n {
					m.SetSym(i, i, m.At(i, i)+float64(n)*0.3*rnd.Float64())
				}
				c := randomVec(n, rnd)
				for i := range c {
					c[i] *= float64(n)
				}
				sol, err := MinimizeQuadratic(m, c, &Settings{Box: tc.box, Src: rand.NewPCG(uint64(trial), 0)})
				if err != nil {
					t.Fatalf("trial %d: %v", trial, err)
				}
				want := bruteForceBox(m, c, tc.box)
				if sol.Value < want-1e-9*(1+math.Abs(want)) {
					t.Fatalf("trial %d: value %v below the global minimum %v", trial, sol.Value, want)
				}
				if sol.Method == BoxLocal {
					nonConvex++
					if sol.Certified {
						certified++
						if sol.Value-want > sol.Gap+1e-9*(1+math.Abs(want)) {
							t.Errorf("trial %d: certified %v (gap %v) but the global minimum is %v", trial, sol.Value, sol.Gap, want)
						}
					}
				}
				if math.Abs(sol.Value-want) <= 1e-9*(1+math.Abs(want)) {
					found++
				}
				checkKKT(t, m, c, sol.V, tc.box)
			}
			if nonConvex < tc.trials/3 {
				t.Fatalf("only %d of %d problems were non-convex: the test does not test the local solver", nonConvex, tc.trials)
			}
			// Eight restarts on at most seven coordinates: the global minimum
			// should be missed rarely; 2% allows a few deceptive problems.
			if found < tc.trials*98/100 {
				t.Errorf("global minimum found in %d of %d problems (%d non-convex)", found, tc.trials, nonConvex)
			}
			t.Logf("global minimum found in %d of %d problems (%d non-convex, %d of them certified)", found, tc.trials, nonConvex, certified)
			if certified == 0 {
				t.Error("no non-convex minimum was certified: the certificate is never tried")
			}
		})
	}
}

func TestCertifyNeedsFirstOrderConditions(t *testing.T) {
	// f(v) = v² + v on [−1, 1] is convex with its minimum −¼ at v = −½. At
	// v = 1 the gradient 3 points into the box: not a minimum, though
	// M + |g|/(2K) = 2.5 is positive definite. The certificate must refuse it.
	m := mat.NewSymDense(1, []float64{1})
	q := newQuad(m, []float64{1}, 1)
	g := make([]float64, 1)
	q.grad(g, []float64{1})
	if ok, _ := q.certify(m, []float64{1}, g); ok {
		t.Error("certified v = 1, where the gradient points into the box")
	}
	// f(v) = −v² + v: v = −1 (g = 3, pointing out) is the global minimum −2,
	// and M + D = −1 + 3/2 ≥ 0 certifies it; v = 1 (g = −1, pointing out) is
	// a local minimum of value 0 that M + D = −½ cannot certify.
	m = mat.NewSymDense(1, []float64{-1})
	q = newQuad(m, []float64{1}, 1)
	for _, tc := range []struct {
		v    float64
		want bool
	}{{-1, true}, {1, false}} {
		q.grad(g, []float64{tc.v})
		if ok, gap := q.certify(m, []float64{tc.v}, g); ok != tc.want || gap < 0 || gap > 1e-10 {
			t.Errorf("v = %v: certified %v with gap %v, want %v", tc.v, ok, gap, tc.want)
		}
	}
}

func TestBoxActiveSetLarger(t *testing.T) {
	// A larger convex problem with many active bounds, against the KKT
	// conditions and the duality gap.
	rnd := rand.New(rand.NewPCG(4, 4))
	n := 120
	m := randomSym(n, rnd, 0)
	m.SymOuterK(1, mat.NewDense(n, n, randomVec(n*n, rnd)))
	c := randomVec(n, rnd)
	for i := range c {
		c[i] *= 50
	}
	sol, err := MinimizeQuadratic(m, c, &Settings{Box: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Method != BoxConvex || !sol.Certified {
		t.Errorf("method %v certified %v gap %v", sol.Method, sol.Certified, sol.Gap)
	}
	active := 0
	for _, v := range sol.V {
		if math.Abs(v) == 0.5 {
			active++
		}
	}
	if active == 0 || active == n {
		t.Errorf("%d of %d bounds active: the test does not exercise the active set", active, n)
	}
	checkKKT(t, m, c, sol.V, 0.5)
}

// BenchmarkMinimizeQuadratic times the k-dimensional solve alone, for the
// positive definite matrices of kernel problems.
func BenchmarkMinimizeQuadratic(b *testing.B) {
	for _, k := range []int{20, 40, 80, 160} {
		rnd := rand.New(rand.NewPCG(1, uint64(k)))
		m := randomSym(k, rnd, float64(k))
		c := randomVec(k, rnd)
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			for b.Loop() {
				if _, err := MinimizeQuadratic(m, c, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestNearSingularFallsBack(t *testing.T) {
	// M = 11ᵀ + εI (k×k), c = −1: condition number k/ε, far beyond what
	// Cholesky is trusted with. The eigenvalues are k + ε (along 1, where c
	// lies) and ε, so min = −¼ cᵀM⁻¹c = −¼ k/(k + ε) ≈ −¼; the pseudoinverse
	// drops the ε directions, which c does not touch.
	for _, eps := range []float64{1e-14, 1e-300, 0} {
		k := 50
		m := mat.NewSymDense(k, nil)
		c := make([]float64, k)
		for i := range k {
			for j := i; j < k; j++ {
				m.SetSym(i, j, 1)
			}
			m.SetSym(i, i, 1+eps)
			c[i] = -1
		}
		sol, err := MinimizeQuadratic(m, c, nil)
		if err != nil {
			t.Fatalf("ε = %g: %v", eps, err)
		}
		if math.Abs(sol.Value+0.25) > 1e-10 || sol.Method != Pseudoinverse {
			t.Errorf("ε = %g: %v by %v, want -0.25 by pseudoinverse", eps, sol.Value, sol.Method)
		}
	}
	// The same through Estimate, where repeated indices make every
	// restricted block singular: A = 11ᵀ, d = 1e-15, b = −1.
	p := Funcs{N: 1000, A: func(int, int) float64 { return 1 }, D: func(int) float64 { return 1e-15 }, B: func(int) float64 { return -1 }}
	res, err := Estimate(p, &Settings{K: 30, Draws: 5})
	if err != nil {
		t.Fatal(err)
	}
	// z* = −¼ (n·b)ᵀ(11ᵀ + n·d·I)⁻¹(n·b) ≈ −n²/4.
	if want := -1e6 / 4; math.Abs(res.Value-want) > 1e-6*math.Abs(want) {
		t.Errorf("Estimate: %v, want %v", res.Value, want)
	}
}
