// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// eigenSide is one variable's factor of LSMI's product basis
// (docs/DESIGN.md §3): the eigendecomposition G = U diag(val) Uᵀ of its
// kernel Gram average, eigenvalues clamped at zero against rounding.
type eigenSide struct {
	u   *mat.Dense
	val []float64
}

// newEigenSide decomposes the Gram average g.
func newEigenSide(g *mat.SymDense) (eigenSide, error) {
	var es mat.EigenSym
	if !es.Factorize(g, true) {
		return eigenSide{}, fmt.Errorf("divergence: %w: the eigendecomposition of a kernel Gram matrix failed", ErrNonFinite)
	}
	val := es.Values(nil)
	for i, v := range val {
		val[i] = max(v, 0)
	}
	u := &mat.Dense{}
	es.VectorsTo(u)
	return eigenSide{u: u, val: val}, nil
}

// rotate returns Uxᵀ a Uy: a matrix over (x-centre, y-centre) pairs written
// in the two eigenbases.
func rotate(x, y eigenSide, a mat.Matrix) *mat.Dense {
	var t, r mat.Dense
	t.Mul(x.u.T(), a)
	r.Mul(&t, y.u)
	return &r
}

// kronValue returns the value ½ hᵀ(Hx⊗Hy + ρI)⁻¹h − ½ of the product-basis
// problem and ‖θ‖², θ = (Hx⊗Hy + ρI)⁻¹h, from h̃ = Uxᵀ h Uy (h as a matrix
// over the pairs of centres): in the eigenbases the system is diagonal,
//
//	hᵀθ = Σ_ab h̃_ab² / (λx_a λy_b + ρ),   ‖θ‖² = Σ_ab h̃_ab² / (λx_a λy_b + ρ)².
func kronValue(ht *mat.Dense, x, y eigenSide, ridge float64) (value, norm2 float64) {
	var s float64
	for a, lx := range x.val {
		row := ht.RawRowView(a)
		for b, ly := range y.val {
			t := row[b] / (lx*ly + ridge)
			s += row[b] * t
			norm2 += t * t
		}
	}
	return s/2 - 0.5, norm2
}

// kronTheta returns θ̃ = h̃ ./ (λx ⊗ λy + ρ), the weights in the eigenbases.
func kronTheta(ht *mat.Dense, x, y eigenSide, ridge float64) *mat.Dense {
	r, c := ht.Dims()
	th := mat.NewDense(r, c, nil)
	kronThetaTo(th, ht, x, y, ridge)
	return th
}

// kronThetaTo writes kronTheta's θ̃ into th, of ht's shape.
func kronThetaTo(th, ht *mat.Dense, x, y eigenSide, ridge float64) {
	for a, lx := range x.val {
		row, out := ht.RawRowView(a), th.RawRowView(a)
		for b, ly := range y.val {
			out[b] = row[b] / (lx*ly + ridge)
		}
	}
}
