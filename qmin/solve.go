// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package qmin

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/isnil"
)

// Method says how a minimum was found.
type Method int

const (
	// Cholesky: M is positive definite and v = −M⁻¹c/2.
	Cholesky Method = iota + 1
	// Pseudoinverse: M is positive semidefinite and numerically singular, c
	// lies in its range and v = −M⁺c/2 is the minimiser of least norm.
	Pseudoinverse
	// BoxConvex: a box constraint on a convex function, solved to optimality
	// by an active-set method and certified by its duality gap.
	BoxConvex
	// BoxLocal: a box constraint on a non-convex function: the best of
	// several local minima found by coordinate descent, certified when a
	// diagonal shift convexifies the problem around it (see Solution).
	BoxLocal
)

// String returns the method's name.
func (m Method) String() string {
	switch m {
	case Cholesky:
		return "cholesky"
	case Pseudoinverse:
		return "pseudoinverse"
	case BoxConvex:
		return "box-convex"
	case BoxLocal:
		return "box-local"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Solution is the minimum of a quadratic function f(v) = vᵀMv + cᵀv.
type Solution struct {
	// Value is f(V).
	Value float64
	// V is the minimiser found.
	V []float64
	// Method is how it was found.
	Method Method
	// Certified reports that Value is the global minimum, to within Gap.
	// The unconstrained methods always certify their result, and BoxConvex
	// does when its Frank–Wolfe gap is within rounding of zero (in every
	// test so far). A BoxLocal minimum v is certified when it meets the
	// first-order conditions and M + D is positive semidefinite, where D is
	// diagonal with D_ii = |gᵢ|/(2K) for the coordinates at a bound
	// (g = 2Mv + c) and 0 for the others: then uᵀ(M + D)u + cᵀu − Σᵢ D_iiK²,
	// which lies below f on the box and equals it at v, is convex with its
	// minimum at v.
	Certified bool
	// Gap bounds Value − min f from above when Certified: zero for the
	// unconstrained methods, the Frank–Wolfe duality gap for BoxConvex, the
	// bound 2K‖ρ‖₁ + 4τnK² of the certificate for BoxLocal (ρ the residual
	// gradient, τ the tolerance of the factorisation). It is zero and
	// meaningless when not Certified.
	Gap float64
}

const (
	// condMax is the largest condition number for which the Cholesky path
	// is trusted; beyond it the eigendecomposition decides.
	condMax = 1e12
	// eigTol is the relative size below which an eigenvalue counts as zero.
	eigTol = 1e-12
	// rangeTol is the relative size of a component of c along the null
	// space of M above which c is outside the range of M.
	rangeTol = 1e-8
	// gapTol is the relative duality gap below which a convex box solution
	// is certified.
	gapTol = 1e-9
	// defaultRestarts is the number of starts of the non-convex box solver.
	defaultRestarts = 8
)

// MinimizeQuadratic returns the minimum of f(v) = vᵀMv + cᵀv over Rⁿ, or over
// the box [−s.Box, s.Box]ⁿ when s.Box > 0, where n = len(c).
//
// Without a box: when M is positive definite the minimiser is −M⁻¹c/2, by
// Cholesky factorisation. When M is positive semidefinite and numerically
// singular (an eigenvalue below 10⁻¹² times the largest), the minimum is finite
// if and only if c lies in the range of M; c is taken to lie there when its
// component along the numerical null space is at most 10⁻⁸‖c‖, and then the
// minimiser of least norm is −M⁺c/2. Otherwise, and whenever M has a negative
// eigenvalue, the function is unbounded below and the error wraps
// ErrUnbounded; except that when a Cholesky factorisation of M succeeds
// (M is positive definite as computed, but with condition number above
// 10¹²), no minimum can be trusted either way and the error wraps
// ErrIllConditioned.
//
// With a box: a convex problem is solved to optimality by an active-set
// method started from coordinate descent, and certified by the duality gap
// Σᵢ gᵢvᵢ + K|gᵢ| ≥ f(v) − min f, where g = 2Mv + c. A non-convex problem is
// solved by coordinate descent from s.Restarts starting points (the origin and
// random points of the box drawn from s.Src); the best local minimum is
// returned, and certified global when a diagonal shift supported on its
// coordinates at the bounds convexifies the problem without moving its
// minimum (see Solution.Certified).
//
// Only s.Box, s.Restarts and s.Src are used; s may be nil.
func MinimizeQuadratic(m mat.Symmetric, c []float64, s *Settings) (Solution, error) {
	if s == nil {
		s = &Settings{}
	}
	if isnil.Is(m) {
		return Solution{}, fmt.Errorf("qmin: %w: M is nil", ErrShape)
	}
	n := m.SymmetricDim()
	if n != len(c) {
		return Solution{}, fmt.Errorf("qmin: %w: M is %d×%d but c has %d entries", ErrShape, n, n, len(c))
	}
	if n < 1 {
		return Solution{}, fmt.Errorf("qmin: %w: dimension %d < 1", ErrShape, n)
	}
	if err := s.validateBox(); err != nil {
		return Solution{}, err
	}
	ms := mat.NewSymDense(n, nil)
	ms.CopySym(m)
	for i := range n {
		for j := i; j < n; j++ {
			if v := ms.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return Solution{}, fmt.Errorf("qmin: %w: M[%d,%d] = %v", ErrNonFinite, i, j, v)
			}
		}
		if math.IsNaN(c[i]) || math.IsInf(c[i], 0) {
			return Solution{}, fmt.Errorf("qmin: %w: c[%d] = %v", ErrNonFinite, i, c[i])
		}
	}
	sol, err := minimize(ms, c, s.Box, s.restarts(), rand.New(s.source()))
	if err != nil {
		return Solution{}, fmt.Errorf("qmin: %w", err)
	}
	return sol, nil
}

// minimize is MinimizeQuadratic on validated, finite input; it changes
// neither m nor c. Its errors, like those of the other unexported functions,
// lack the package prefix, which the exported functions add.
func minimize(m *mat.SymDense, c []float64, box float64, restarts int, rnd *rand.Rand) (Solution, error) {
	var sol Solution
	var err error
	if box == 0 {
		sol, err = unconstrained(m, c)
	} else {
		sol, err = boxed(m, c, box, restarts, rnd)
	}
	if err != nil {
		return Solution{}, err
	}
	if math.IsNaN(sol.Value) || math.IsInf(sol.Value, 0) {
		return Solution{}, fmt.Errorf("%w: the minimum overflowed (%v): rescale the problem", ErrNonFinite, sol.Value)
	}
	return sol, nil
}

// unconstrained minimises vᵀMv + cᵀv over Rⁿ.
func unconstrained(m *mat.SymDense, c []float64) (Solution, error) {
	if v, ok := choleskySolve(m, c); ok {
		return Solution{Value: floats.Dot(c, v) / 2, V: v, Method: Cholesky, Certified: true}, nil
	}
	e, err := eigen(m)
	if err != nil {
		return Solution{}, err
	}
	if e.min < -e.tol {
		return Solution{}, fmt.Errorf("%w: the matrix has the negative eigenvalue %.3g (largest magnitude %.3g)", ErrUnbounded, e.min, e.maxAbs)
	}
	v, ok, along := e.pinvSolve(c)
	if !ok {
		var ch mat.Cholesky
		if ch.Factorize(m) {
			// Positive definite as computed, so bounded, but too close to
			// singular for its weakest directions to be resolved.
			return Solution{}, fmt.Errorf("%w: the matrix is positive definite with condition number %.3g, and the linear term has a component %.3g (of norm %.3g) along eigenvalues below %.0e times the largest: the minimum is not determined to working precision; regularise the problem", ErrIllConditioned, ch.Cond(), along, floats.Norm(c, 2), eigTol)
		}
		return Solution{}, fmt.Errorf("%w: the matrix is singular and the linear term has a component %.3g (of norm %.3g) along its null space", ErrUnbounded, along, floats.Norm(c, 2))
	}
	return Solution{Value: floats.Dot(c, v) / 2, V: v, Method: Pseudoinverse, Certified: true}, nil
}

// choleskySolve returns v = −M⁻¹c/2 when M is positive definite and well
// conditioned.
func choleskySolve(m mat.Symmetric, c []float64) ([]float64, bool) {
	var ch mat.Cholesky
	if !ch.Factorize(m) || ch.Cond() > condMax {
		return nil, false
	}
	v := make([]float64, len(c))
	dst := mat.NewVecDense(len(v), v)
	if err := ch.SolveVecTo(dst, mat.NewVecDense(len(c), c)); err != nil {
		return nil, false
	}
	floats.Scale(-0.5, v)
	return v, true
}

// eigenSystem is the eigendecomposition of a symmetric matrix with the
// package's numerical tolerances.
type eigenSystem struct {
	values      []float64
	vectors     *mat.Dense
	min, maxAbs float64
	tol         float64 // eigenvalues of magnitude ≤ tol count as zero
}

func eigen(m mat.Symmetric) (eigenSystem, error) {
	var es mat.EigenSym
	if !es.Factorize(m, true) {
		return eigenSystem{}, fmt.Errorf("%w: the eigendecomposition did not converge", ErrNonFinite)
	}
	e := eigenSystem{values: es.Values(nil), vectors: &mat.Dense{}}
	es.VectorsTo(e.vectors)
	e.min = math.Inf(1)
	for _, l := range e.values {
		e.min = math.Min(e.min, l)
		e.maxAbs = math.Max(e.maxAbs, math.Abs(l))
	}
	e.tol = eigTol * e.maxAbs
	return e, nil
}

// pinvSolve returns v = −M⁺c/2, whether c lies in the numerical range of M,
// and the size of its largest component along the null space.
func (e eigenSystem) pinvSolve(c []float64) (v []float64, ok bool, along float64) {
	v, along = e.pinvHalf(c)
	if along > rangeTol*floats.Norm(c, 2) {
		return nil, false, along
	}
	return v, true, along
}

// pinvHalf returns v = −M⁺c/2, whatever c, and the size of the largest
// component of c along the numerical null space of M.
func (e eigenSystem) pinvHalf(c []float64) (v []float64, along float64) {
	n := len(c)
	w := make([]float64, n)
	wv := mat.NewVecDense(n, w)
	wv.MulVec(e.vectors.T(), mat.NewVecDense(n, c))
	for i, l := range e.values {
		if math.Abs(l) <= e.tol {
			along = math.Max(along, math.Abs(w[i]))
			w[i] = 0
			continue
		}
		w[i] = -w[i] / (2 * l)
	}
	v = make([]float64, n)
	mat.NewVecDense(n, v).MulVec(e.vectors, wv)
	return v, along
}

// certify tries to prove that v, a point meeting the first-order conditions
// of the box, is the global minimum of a non-convex problem. Let D be
// diagonal with D_ii = |gᵢ|/(2K) for the coordinates at a bound whose
// gradient points out of the box (gᵢvᵢ ≤ 0) and 0 for the others. Then
//
//	r(u) = uᵀ(M + D)u + cᵀu − Σᵢ D_ii K²
//
// lies below f on the box and equals it at v, and its gradient ρ at v is gᵢ
// on the coordinates without D and zero on the others. When M + D + τI is
// positive semidefinite (one Cholesky factorisation decides it, with the
// tolerance τ of semidefinite), r(u) + τ‖u − v‖² is convex, so for every u
// in the box
//
//	f(u) ≥ r(u) ≥ f(v) + ρᵀ(u − v) − τ‖u − v‖² ≥ f(v) − 2K‖ρ‖₁ − 4τnK²,
//
// and that bound is the Gap returned. A point whose gradient on a free
// coordinate, or on a bound one pointing into the box, exceeds rounding size
// is not stationary, and is not certified.
func (q *quad) certify(m *mat.SymDense, v, g []float64) (bool, float64) {
	n := q.n
	md := mat.NewSymDense(n, nil)
	md.CopySym(m)
	rho := 0.0
	for i := range n {
		if math.Abs(v[i]) == q.k && g[i]*v[i] <= 0 {
			md.SetSym(i, i, md.At(i, i)+math.Abs(g[i])/(2*q.k))
			continue
		}
		if math.Abs(g[i]) > 1e-9*(1+math.Abs(q.c[i])+floats.Norm(q.m[i*n:(i+1)*n], 1)*q.k) {
			return false, 0 // not a stationary point in this coordinate
		}
		rho += math.Abs(g[i])
	}
	tau, ok := semidefiniteShift(md)
	if !ok {
		return false, 0
	}
	return true, 2*q.k*rho + 4*tau*float64(n)*q.k*q.k
}

// semidefinite reports whether M is positive semidefinite to the package's
// tolerance: whether M + τI, τ = eigTol·‖M‖∞ (which bounds every
// eigenvalue's magnitude), has a Cholesky factorisation. That costs at most
// a third of n³ and usually stops at the first negative pivot of an
// indefinite matrix, where an eigendecomposition would cost thirty times
// more.
func semidefinite(m *mat.SymDense) bool {
	_, ok := semidefiniteShift(m)
	return ok
}

// semidefiniteShift is semidefinite, also returning the shift τ tried.
func semidefiniteShift(m *mat.SymDense) (float64, bool) {
	n := m.SymmetricDim()
	norm := 0.0
	for i := range n {
		row := 0.0
		for j := range n {
			row += math.Abs(m.At(i, j))
		}
		norm = math.Max(norm, row)
	}
	a := mat.NewSymDense(n, nil)
	a.CopySym(m)
	raw := a.RawSymmetric()
	for i := range n {
		raw.Data[i*raw.Stride+i] += eigTol * norm
	}
	_, ok := lapack64.Potrf(raw)
	return eigTol * norm, ok
}

// quad holds f(v) = vᵀMv + cᵀv with M stored in full, row-major, for the
// iterative box solvers.
type quad struct {
	n int
	m []float64 // n×n, row-major, symmetric
	c []float64
	k float64 // the box half-width K
}

func newQuad(m *mat.SymDense, c []float64, box float64) *quad {
	n := len(c)
	q := &quad{n: n, m: make([]float64, n*n), c: c, k: box}
	for i := range n {
		for j := i; j < n; j++ {
			v := m.At(i, j)
			q.m[i*n+j] = v
			q.m[j*n+i] = v
		}
	}
	return q
}

// grad sets g = 2Mv + c and returns f(v) = vᵀMv + cᵀv = ½(g + c)ᵀv.
func (q *quad) grad(g, v []float64) float64 {
	f := 0.0
	for i := range q.n {
		g[i] = 2*floats.Dot(q.m[i*q.n:(i+1)*q.n], v) + q.c[i]
		f += (g[i] + q.c[i]) * v[i]
	}
	return f / 2
}

// gap returns the Frank–Wolfe gap Σᵢ gᵢvᵢ + K|gᵢ|, which bounds f(v) − min f
// over the box when f is convex.
func (q *quad) gap(g, v []float64) float64 {
	s := 0.0
	for i := range q.n {
		s += g[i]*v[i] + q.k*math.Abs(g[i])
	}
	return math.Max(s, 0)
}

// clip puts x in [−K, K].
func (q *quad) clip(x float64) float64 { return math.Max(-q.k, math.Min(q.k, x)) }

// coordinateDescent runs at most sweeps passes of exact coordinate
// minimisation over the box, keeping g = 2Mv + c up to date, until no
// coordinate moves by more than 1e-13·K in a pass, and reports whether it
// got there.
func (q *quad) coordinateDescent(v, g []float64, sweeps int) bool {
	return q.coordinateDescentTol(v, g, sweeps, 1e-13)
}

// coordinateDescentTol is coordinateDescent stopping once no coordinate
// moves by more than tol·K in a pass.
func (q *quad) coordinateDescentTol(v, g []float64, sweeps int, tol float64) bool {
	n := q.n
	for range sweeps {
		moved := 0.0
		for i := range n {
			mii, old := q.m[i*n+i], v[i]
			nv := old
			if mii > 0 {
				nv = q.clip(old - g[i]/(2*mii))
			} else {
				// Concave or linear along eᵢ: the minimum is at an end.
				change := func(end float64) float64 { t := end - old; return t*g[i] + t*t*mii }
				end := q.k
				if change(-q.k) <= change(q.k) {
					end = -q.k
				}
				if change(end) < 0 {
					nv = end
				}
			}
			// v[i] takes the new value itself, so that a coordinate at a
			// bound is exactly ±K (old + (K − old) need not be).
			t := nv - old
			if t == 0 {
				continue
			}
			v[i] = nv
			floats.AddScaled(g, 2*t, q.m[i*n:(i+1)*n])
			moved = math.Max(moved, math.Abs(t))
		}
		if moved <= tol*q.k {
			return true
		}
	}
	return false
}

// boxed minimises vᵀMv + cᵀv over [−box, box]ⁿ.
func boxed(m *mat.SymDense, c []float64, box float64, restarts int, rnd *rand.Rand) (Solution, error) {
	n := len(c)
	q := newQuad(m, c, box)
	// Strictly convex with the free minimiser inside the box: done.
	v, pd := choleskySolve(m, c)
	if pd {
		inside := true
		for _, x := range v {
			inside = inside && math.Abs(x) <= box
		}
		if inside {
			return Solution{Value: floats.Dot(c, v) / 2, V: v, Method: Cholesky, Certified: true}, nil
		}
		for i := range v {
			v[i] = q.clip(v[i])
		}
		return q.activeSet(v), nil
	}
	if semidefinite(m) {
		return q.activeSet(make([]float64, n)), nil
	}
	// Not convex: best local minimum over several starts.
	best := Solution{Value: math.Inf(1), Method: BoxLocal}
	g := make([]float64, n)
	for r := range max(restarts, 1) {
		v := make([]float64, n)
		if r > 0 {
			for i := range v {
				v[i] = box * (2*rnd.Float64() - 1)
			}
		}
		q.grad(g, v)
		q.coordinateDescent(v, g, 1000)
		if f := q.grad(g, v); f < best.Value {
			best.Value, best.V = f, v
		}
	}
	q.grad(g, best.V)
	best.Certified, best.Gap = q.certify(m, best.V, g)
	return best, nil
}

// activeSet minimises the convex quadratic over the box by the primal
// active-set method, from the feasible point v (overwritten), after a few
// sweeps of coordinate descent to guess the active set.
func (q *quad) activeSet(v []float64) Solution {
	n := q.n
	g := make([]float64, n)
	q.grad(g, v)
	q.coordinateDescent(v, g, 20)
	f := q.grad(g, v)

	// scale bounds |g|, for the tolerances on gradients and steps.
	scale := floats.Norm(q.c, math.Inf(1))
	for i := range n {
		scale = math.Max(scale, math.Abs(g[i]))
	}
	gTol := 1e-11 * math.Max(scale, math.SmallestNonzeroFloat64)

	// The working set: coordinates held at a bound.
	fixed := make([]bool, n)
	for i := range n {
		fixed[i] = (v[i] == -q.k && g[i] > 0) || (v[i] == q.k && g[i] < 0)
	}
	p := make([]float64, n)
	free := make([]int, 0, n)
	for iter := 0; iter < 20*n+100; iter++ {
		free = free[:0]
		for i := range n {
			if !fixed[i] {
				free = append(free, i)
			}
		}
		unboundedDir := q.subspaceStep(p, g, free)
		if !unboundedDir && floats.Norm(p, math.Inf(1)) <= 1e-14*q.k {
			// At the minimum on this face: release the most violated bound.
			worst, viol := -1, gTol
			for i := range n {
				if !fixed[i] {
					continue
				}
				if v[i] == -q.k && -g[i] > viol {
					worst, viol = i, -g[i]
				}
				if v[i] == q.k && g[i] > viol {
					worst, viol = i, g[i]
				}
			}
			if worst < 0 {
				break
			}
			fixed[worst] = false
			continue
		}
		// Ratio test: the longest step along p that stays in the box.
		t, block := 1.0, -1
		if unboundedDir {
			t = math.Inf(1)
		}
		for _, i := range free {
			var ti float64
			switch {
			case p[i] > 0:
				ti = (q.k - v[i]) / p[i]
			case p[i] < 0:
				ti = (-q.k - v[i]) / p[i]
			default:
				continue
			}
			if ti < t {
				t, block = ti, i
			}
		}
		if math.IsInf(t, 1) {
			break // a zero direction: nothing left to improve
		}
		for _, i := range free {
			if p[i] != 0 {
				v[i] = q.clip(v[i] + t*p[i])
			}
		}
		if block >= 0 {
			if p[block] > 0 {
				v[block] = q.k
			} else {
				v[block] = -q.k
			}
			fixed[block] = true
		}
		f = q.grad(g, v)
	}
	f = q.grad(g, v)
	gap := q.gap(g, v)
	return Solution{
		Value:     f,
		V:         v,
		Method:    BoxConvex,
		Certified: gap <= gapTol*(1+math.Abs(f)+q.k*floats.Norm(q.c, 1)),
		Gap:       gap,
	}
}

// subspaceStep sets p to the Newton step to the minimum of f over the free
// coordinates with the others held (p is zero off the free set): the
// solution of M_FF p_F = −g_F/2. When M_FF is singular and g_F has a
// component along its null space, p is instead that descent direction of zero
// curvature, and subspaceStep reports true: the step must be cut by the box.
func (q *quad) subspaceStep(p, g []float64, free []int) (unboundedDir bool) {
	for i := range p {
		p[i] = 0
	}
	nf := len(free)
	if nf == 0 {
		return false
	}
	mf := mat.NewSymDense(nf, nil)
	gf := make([]float64, nf)
	for a, i := range free {
		for b := a; b < nf; b++ {
			mf.SetSym(a, b, q.m[i*q.n+free[b]])
		}
		gf[a] = g[i]
	}
	// p_F minimises p_FᵀM_FF p_F + g_Fᵀp_F: the same problem with c = g_F.
	if pf, ok := choleskySolve(mf, gf); ok {
		for a, i := range free {
			p[i] = pf[a]
		}
		return false
	}
	e, err := eigen(mf)
	if err != nil {
		// Not reachable for finite input; take a gradient step.
		for a, i := range free {
			p[i] = -gf[a]
		}
		return true
	}
	if pf, ok, _ := e.pinvSolve(gf); ok {
		for a, i := range free {
			p[i] = pf[a]
		}
		return false
	}
	// Descent along the null space: −(component of g_F in it).
	for j, l := range e.values {
		if math.Abs(l) > e.tol {
			continue
		}
		w := 0.0
		for a := range nf {
			w += e.vectors.At(a, j) * gf[a]
		}
		for a, i := range free {
			p[i] -= w * e.vectors.At(a, j)
		}
	}
	return true
}
