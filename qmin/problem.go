// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package qmin

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/isnil"
)

// Problem gives query access to the quadratic function
//
//	p(v) = ⟨v, A v⟩ + n ⟨v, diag(d) v⟩ + n ⟨b, v⟩,  v ∈ Rⁿ,
//
// one entry of A, d or b at a time. Only the symmetric part (A + Aᵀ)/2 of A
// matters. Implementations must be safe for concurrent use: Estimate queries a
// problem from several goroutines at once.
type Problem interface {
	// Dim returns n, the dimension of the problem.
	Dim() int
	// AAt returns A[i, j].
	AAt(i, j int) float64
	// DAt returns d[i].
	DAt(i int) float64
	// BAt returns b[i].
	BAt(i int) float64
}

// Restricter is a Problem that fills the whole restriction to a sequence of
// indices at once, as problems built from kernels do far faster than entry by
// entry.
type Restricter interface {
	Problem
	// Restrict writes the restriction of the problem to S = idx: the
	// symmetric part of A|S into a (len(idx)×len(idx)), d|S into d and b|S
	// into b. Indices may repeat. rnd is the random generator of the current
	// draw, for problems whose entries are themselves estimated by sampling;
	// deterministic problems ignore it. An error (bad data found while
	// filling the block, say) ends the estimate; Estimate and Exact return it
	// wrapped. Restrict must be safe for concurrent use with distinct
	// destinations.
	Restrict(a *mat.SymDense, d, b []float64, idx []int, rnd *rand.Rand) error
}

// Dense is a Problem held in memory.
type Dense struct {
	a    mat.Matrix
	d, b []float64
}

// NewDense returns the problem with matrix a (n×n) and vectors d and b (length
// n). It keeps references to its arguments, which must not change afterwards.
// It returns an error wrapping ErrShape when the sizes disagree or a is
// nil.
func NewDense(a mat.Matrix, d, b []float64) (*Dense, error) {
	if isnil.Is(a) {
		return nil, fmt.Errorf("qmin: %w: A is nil", ErrShape)
	}
	r, c := a.Dims()
	if r != c {
		return nil, fmt.Errorf("qmin: %w: A is %d×%d, not square", ErrShape, r, c)
	}
	if len(d) != r {
		return nil, fmt.Errorf("qmin: %w: A is %d×%d but d has %d entries", ErrShape, r, c, len(d))
	}
	if len(b) != r {
		return nil, fmt.Errorf("qmin: %w: A is %d×%d but b has %d entries", ErrShape, r, c, len(b))
	}
	return &Dense{a: a, d: d, b: b}, nil
}

// Dim returns n, and 0 for a nil *Dense (which Estimate, Exact and Nystrom
// refuse).
func (p *Dense) Dim() int {
	if p == nil {
		return 0
	}
	return len(p.d)
}

// AAt returns A[i, j].
func (p *Dense) AAt(i, j int) float64 { return p.a.At(i, j) }

// DAt returns d[i].
func (p *Dense) DAt(i int) float64 { return p.d[i] }

// BAt returns b[i].
func (p *Dense) BAt(i int) float64 { return p.b[i] }

// Restrict writes the restriction to idx; rnd is not used.
func (p *Dense) Restrict(a *mat.SymDense, d, b []float64, idx []int, _ *rand.Rand) error {
	restrictEntries(p, a, d, b, idx)
	return nil
}

// Funcs is a Problem whose entries are computed by functions, so that a
// problem of any dimension needs no storage.
type Funcs struct {
	// N is the dimension n.
	N int
	// A, D and B return the entries A[i, j], d[i] and b[i].
	A func(i, j int) float64
	D func(i int) float64
	B func(i int) float64
}

// Dim returns N.
func (f Funcs) Dim() int { return f.N }

// AAt returns f.A(i, j).
func (f Funcs) AAt(i, j int) float64 { return f.A(i, j) }

// DAt returns f.D(i).
func (f Funcs) DAt(i int) float64 { return f.D(i) }

// BAt returns f.B(i).
func (f Funcs) BAt(i int) float64 { return f.B(i) }

// restrictEntries fills the restriction of p to idx by querying entries: the
// symmetric part (A[s_i, s_j] + A[s_j, s_i])/2 of the block, and d|S, b|S.
func restrictEntries(p Problem, a *mat.SymDense, d, b []float64, idx []int) {
	for i, si := range idx {
		a.SetSym(i, i, p.AAt(si, si))
		for j := i + 1; j < len(idx); j++ {
			sj := idx[j]
			a.SetSym(i, j, (p.AAt(si, sj)+p.AAt(sj, si))/2)
		}
		d[i] = p.DAt(si)
		b[i] = p.BAt(si)
	}
}

// restrict fills the restriction of p to idx, by Restrict when p has it.
func restrict(p Problem, a *mat.SymDense, d, b []float64, idx []int, rnd *rand.Rand) error {
	if r, ok := p.(Restricter); ok {
		return r.Restrict(a, d, b, idx, rnd)
	}
	restrictEntries(p, a, d, b, idx)
	return nil
}
