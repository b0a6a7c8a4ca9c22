// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// ridgeSolver solves (G + λI)θ = h for a fixed symmetric positive
// semidefinite G and many λ or h: the hot path of cross-validation and of
// permutation tests. It skips the condition estimate that mat.Cholesky
// makes, which costs as much as the factorisation at these sizes; a λ > 0
// keeps the systems positive definite.
type ridgeSolver struct {
	g    *mat.SymDense
	work []float64 // k×k, the factor
	k    int
	chol blas64.Triangular
}

func newRidgeSolver(g *mat.SymDense) *ridgeSolver {
	k := g.SymmetricDim()
	return &ridgeSolver{g: g, k: k, work: make([]float64, k*k)}
}

// factor factorises G + λI and reports whether it is positive definite.
func (r *ridgeSolver) factor(lambda float64) bool {
	src := r.g.RawSymmetric()
	k := r.k
	for i := range k {
		copy(r.work[i*k+i:i*k+k], src.Data[i*src.Stride+i:i*src.Stride+k])
		r.work[i*k+i] += lambda
	}
	t, ok := lapack64.Potrf(blas64.Symmetric{Uplo: src.Uplo, N: k, Stride: k, Data: r.work})
	r.chol = t
	return ok
}

// solve overwrites h with (G + λI)⁻¹h for the λ of the last factor: two
// triangular solves with the factor U (G + λI = UᵀU).
func (r *ridgeSolver) solve(h []float64) {
	v := blas64.Vector{N: r.k, Inc: 1, Data: h}
	blas64.Trsv(blas.Trans, r.chol, v)
	blas64.Trsv(blas.NoTrans, r.chol, v)
}

// ridgeValue returns ½hᵀ(H + λI)⁻¹h − ½, the value of PE or SMI, or +Inf
// when H + λI is not positive definite.
func ridgeValue(h *mat.SymDense, hv []float64, lambda float64) float64 {
	rs := newRidgeSolver(h)
	if !rs.factor(lambda) {
		return math.Inf(1)
	}
	theta := slices.Clone(hv)
	rs.solve(theta)
	return floats.Dot(hv, theta)/2 - 0.5
}
