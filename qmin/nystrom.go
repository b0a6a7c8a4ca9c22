// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package qmin

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/isnil"
)

// ColumnFiller is a Problem that fills whole columns of A at once, as
// problems built from kernels do far faster than entry by entry. Nystrom
// uses it.
type ColumnFiller interface {
	Problem
	// Columns writes the columns idx of the symmetric part of A, an
	// n×len(idx) block, into dst.
	Columns(dst *mat.Dense, idx []int) error
}

// Columns writes the columns idx of the symmetric part of A into dst. A nil
// p or dst, a dst that is not Dim×len(idx), or an index outside [0, Dim) is
// an error wrapping ErrShape.
func (p *Dense) Columns(dst *mat.Dense, idx []int) error {
	n, err := problemDim(p)
	if err != nil {
		return err
	}
	if isnil.Is(dst) {
		return fmt.Errorf("qmin: %w: dst is nil", ErrShape)
	}
	if r, c := dst.Dims(); r != n || c != len(idx) {
		return fmt.Errorf("qmin: %w: dst is %d×%d for %d columns of a problem of dimension %d", ErrShape, r, c, len(idx), n)
	}
	for _, c := range idx {
		if c < 0 || c >= n {
			return fmt.Errorf("qmin: %w: column %d outside [0, %d)", ErrShape, c, n)
		}
	}
	columnsFromEntries(p, dst, idx)
	return nil
}

func columnsFromEntries(p Problem, dst *mat.Dense, idx []int) {
	for i := range p.Dim() {
		for j, c := range idx {
			dst.Set(i, j, (p.AAt(i, c)+p.AAt(c, i))/2)
		}
	}
}

// NystromForm says how Nystrom computes its minimum.
type NystromForm int

const (
	// NystromPinv is the form of Hayashi & Yoshida's experiments: the
	// pseudoinverse W⁺ of the k×k block, and
	// (D + CW⁺Cᵀ)⁻¹ = D⁻¹ − D⁻¹CW⁺(I + CᵀD⁻¹CW⁺)⁻¹CᵀD⁻¹.
	// With kernel matrices, whose blocks have tiny eigenvalues, W⁺
	// amplifies rounding errors.
	NystromPinv NystromForm = iota + 1
	// NystromStable avoids W⁺: (D + CW⁻¹Cᵀ)⁻¹ = D⁻¹ − D⁻¹C(W + CᵀD⁻¹C)⁻¹CᵀD⁻¹,
	// with the k×k system solved as a least-squares problem.
	NystromStable
)

// String returns the form's name.
func (f NystromForm) String() string {
	switch f {
	case NystromPinv:
		return "nystrom-pinv"
	case NystromStable:
		return "nystrom-stable"
	}
	return fmt.Sprintf("NystromForm(%d)", int(f))
}

// Nystrom approximates z* = min_v p(v) of a problem whose A is positive
// semidefinite and whose d is positive by the baseline the paper compares
// Algorithm 1 with: A is replaced by its rank-k Nyström approximation CW⁺Cᵀ,
// where S is k distinct indices drawn at random (s.K, s.Src), C = A[:, S]
// (n×k) and W = A[S, S], and the minimum of vᵀ(CW⁺Cᵀ + D)v + cᵀv, with
// D = n·diag(d) and c = n·b, is
//
//	z = −¼ cᵀ(D + CW⁺Cᵀ)⁻¹c,
//
// computed by Woodbury's identity in the given form. It makes O(nk) queries
// (columns through ColumnFiller when the problem has it) and takes O(nk²)
// time: unlike Estimate, its cost grows with n. It is exact when the rank
// of A is at most k and S spans its range. Only s.K and s.Src are used; s may
// be nil.
func Nystrom(p Problem, form NystromForm, s *Settings) (float64, error) {
	if s == nil {
		s = &Settings{}
	}
	n, err := problemDim(p)
	if err != nil {
		return 0, err
	}
	k := s.k()
	switch {
	case k < 1 || k > n:
		return 0, fmt.Errorf("qmin: %w: Nyström needs 1 ≤ k ≤ n distinct indices, k = %d, n = %d", ErrSettings, k, n)
	case k > MaxK:
		return 0, fmt.Errorf("qmin: %w: k = %d exceeds MaxK = %d", ErrTooLarge, k, MaxK)
	case float64(n)*float64(k) > MaxNystromEntries:
		return 0, fmt.Errorf("qmin: %w: n × k = %d × %d exceeds MaxNystromEntries = %d: Nyström's two n×k matrices would take %.1f GB", ErrTooLarge, n, k, MaxNystromEntries, 16*float64(n)*float64(k)/1e9)
	case form != NystromPinv && form != NystromStable:
		return 0, fmt.Errorf("qmin: %w: unknown Nyström form %v", ErrSettings, form)
	}
	if err := queryable(p); err != nil {
		return 0, err
	}
	idx := indices.Sample(n, k, false, rand.New(s.source()))
	c := mat.NewDense(n, k, nil)
	if cf, ok := p.(ColumnFiller); ok {
		if err := cf.Columns(c, idx); err != nil {
			return 0, fmt.Errorf("qmin: %w", err)
		}
	} else {
		columnsFromEntries(p, c, idx)
	}
	// D⁻¹ and c = n·b; dc = D⁻¹c.
	fn := float64(n)
	dinv := make([]float64, n)
	cv := make([]float64, n)
	for i := range n {
		d, b := p.DAt(i), p.BAt(i)
		if math.IsNaN(d) || math.IsInf(d, 0) {
			return 0, fmt.Errorf("qmin: %w: d[%d] is %v", ErrNonFinite, i, d)
		}
		if d <= 0 {
			return 0, fmt.Errorf("qmin: %w: Nyström needs every d[i] > 0; d[%d] = %v", ErrSettings, i, d)
		}
		if math.IsNaN(b) || math.IsInf(b, 0) {
			return 0, fmt.Errorf("qmin: %w: b[%d] is %v", ErrNonFinite, i, b)
		}
		dinv[i] = 1 / (fn * d)
		cv[i] = fn * b
	}
	for _, v := range c.RawMatrix().Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("qmin: %w: a queried entry of A is %v", ErrNonFinite, v)
		}
	}
	w := mat.NewSymDense(k, nil)
	for a, i := range idx {
		for b := a; b < k; b++ {
			w.SetSym(a, b, (c.At(i, b)+c.At(idx[b], a))/2)
		}
	}
	// y = CᵀD⁻¹c, G = CᵀD⁻¹C.
	dc := make([]float64, n)
	floats.MulTo(dc, dinv, cv)
	cdc := floats.Dot(cv, dc)
	y := mat.NewVecDense(k, nil)
	y.MulVec(c.T(), mat.NewVecDense(n, dc))
	sc := mat.DenseCopyOf(c)
	for i := range n {
		row := sc.RawRowView(i)
		floats.Scale(math.Sqrt(dinv[i]), row)
	}
	g := mat.NewSymDense(k, nil)
	g.SymOuterK(1, sc.T())

	var quad float64 // yᵀ(…)⁻¹y, the part Woodbury takes away
	switch form {
	case NystromPinv:
		wp, err := pinvSym(w)
		if err != nil {
			return 0, err
		}
		// x = (I + G W⁺)⁻¹ y, then yᵀ W⁺ x.
		var gw mat.Dense
		gw.Mul(g, wp)
		for i := range k {
			gw.Set(i, i, gw.At(i, i)+1)
		}
		var x, wx mat.VecDense
		if err := x.SolveVec(&gw, y); err != nil {
			// An ill-conditioned system still gives a solution, as the
			// paper's computation would; anything else is a failure.
			var ce mat.Condition
			if !errors.As(err, &ce) {
				return 0, fmt.Errorf("qmin: %w: Nyström: %v", ErrNonFinite, err)
			}
		}
		wx.MulVec(wp, &x)
		quad = mat.Dot(y, &wx)
	case NystromStable:
		m := mat.NewSymDense(k, nil)
		m.AddSym(w, g)
		x, err := leastSquaresSym(m, y.RawVector().Data)
		if err != nil {
			return 0, err
		}
		quad = floats.Dot(y.RawVector().Data, x)
	}
	z := -(cdc - quad) / 4
	if math.IsNaN(z) || math.IsInf(z, 0) {
		return 0, fmt.Errorf("qmin: %w: the Nyström minimum is %v", ErrNonFinite, z)
	}
	return z, nil
}

// pinvSym returns the pseudoinverse of a symmetric matrix, eigenvalues of
// magnitude at most eigTol times the largest counting as zero.
func pinvSym(a *mat.SymDense) (*mat.Dense, error) {
	e, err := eigen(a)
	if err != nil {
		return nil, fmt.Errorf("qmin: %w", err)
	}
	k := len(e.values)
	p := mat.NewDense(k, k, nil)
	for j, l := range e.values {
		if math.Abs(l) <= e.tol {
			continue
		}
		col := mat.Col(nil, j, e.vectors)
		for a := range k {
			for b := range k {
				p.Set(a, b, p.At(a, b)+col[a]*col[b]/l)
			}
		}
	}
	return p, nil
}

// leastSquaresSym returns the solution of least norm of the symmetric
// positive semidefinite system a·x = y: by Cholesky when a is well
// conditioned, by its eigendecomposition otherwise.
func leastSquaresSym(a *mat.SymDense, y []float64) ([]float64, error) {
	if x, ok := choleskySolve(a, y); ok {
		floats.Scale(-2, x) // choleskySolve returns −a⁻¹y/2
		return x, nil
	}
	e, err := eigen(a)
	if err != nil {
		return nil, fmt.Errorf("qmin: %w", err)
	}
	x, _ := e.pinvHalf(y) // the least-squares solution, halved and negated
	floats.Scale(-2, x)
	return x, nil
}
