// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// incremental is the Detector's default estimate of the two PE_α terms of
// a candidate time: RuLSIF (Liu et al. 2013) with a Gaussian basis of
// centres, averaged over every subsequence of both windows, and kept up to
// date as the windows slide instead of being solved afresh at each row.
//
// Between two refreshes, block rows apart, the basis (K subsequences of the
// numerator window, evenly spaced), the width σ, the ridge and the
// standardisation (each coordinate's mean and standard deviation over the
// two windows) are held. Each direction's regularised second-moment matrix
//
//	A = (α/n) Σ_{num} φφᵀ + ((1−α)/n) Σ_{den} φφᵀ + (Kλ/n) I
//
// changes by three rank-one terms when the windows advance one row (a
// subsequence enters the after window, one passes from after to before,
// one leaves the before window), so its inverse is kept by Sherman–Morrison
// in O(K²) a row, and PE_α = ½ h̄ᵀA⁻¹h̄ − ½, with h̄ the numerator's mean
// feature vector, costs O(K²) more. A refresh recomputes everything exactly
// on the current windows: there, with K = n (the defaults), the estimate
// is the all-centre RuLSIF fit itself, with the held σ and λ.
//
// The hold costs no detection delay: a change at row c scores highest when
// c is the boundary of the two windows, n + k − 1 rows after c arrived, and
// by then the basis has been refreshed at least once on an after window
// holding n − block ≥ n/2 subsequences of the new regime.
type incremental struct {
	n, k, d int // window, basis size, coordinates of a subsequence
	block   int // rows between refreshes
	alpha   float64
	ready   bool
	at      int // boundary of the candidate the state describes
	last    int // boundary of the last refresh

	mean, sd []float64    // held standardisation, d values each
	sigma    [2]float64   // per direction: 0 is PE(after‖before), 1 PE(before‖after)
	ridge    [2]float64   // Kλ/n
	centres  [2][]float64 // k×d each
	slots    int          // 2n + 1 cached feature vectors
	phi      []float64    // subsequence r's 2k features at slot r mod slots
	inv      [2][]float64 // A⁻¹, k×k each
	hs       [2][]float64 // Σ φ over each direction's numerator window
	z, u     []float64    // scratch: a standardised subsequence; A⁻¹φ
	sym      *mat.SymDense
	chol     mat.Cholesky
	invSym   mat.SymDense
}

// newIncremental returns the estimate for windows of n subsequences of d
// coordinates and at most k centres.
func newIncremental(n, k, d int, alpha float64) *incremental {
	block := max(1, (n+1)/2)
	k = min(k, n-block)
	e := &incremental{
		n: n, k: k, d: d, block: block, alpha: alpha,
		mean: make([]float64, d), sd: make([]float64, d),
		slots: 2*n + 1,
		z:     make([]float64, d), u: make([]float64, k),
		sym: mat.NewSymDense(k, nil),
	}
	e.phi = make([]float64, e.slots*2*k)
	for dir := range 2 {
		e.centres[dir] = make([]float64, k*d)
		e.inv[dir] = make([]float64, k*k)
		e.hs[dir] = make([]float64, k)
	}
	return e
}

// due reports whether the candidate at boundary b needs a refresh.
func (e *incremental) due(b int) bool {
	return !e.ready || b-e.last >= e.block || b < e.at
}

// standardised fills e.z with subsequence r, standardised by the held
// moments.
func (e *incremental) standardised(g *ring, r int) []float64 {
	for c := range g.dim {
		for o := range g.k {
			j := c*g.k + o
			e.z[j] = (g.at(r+o, c) - e.mean[j]) / e.sd[j]
		}
	}
	return e.z
}

// features computes the 2k features of subsequence r into its slot.
func (e *incremental) features(g *ring, r int) {
	z := e.standardised(g, r)
	f := e.slot(r)
	for dir := range 2 {
		c := e.centres[dir]
		w := -1 / (2 * e.sigma[dir] * e.sigma[dir])
		for l := range e.k {
			cl := c[l*e.d : (l+1)*e.d]
			s := 0.0
			for j, v := range z {
				t := v - cl[j]
				s += t * t
			}
			f[dir*e.k+l] = math.Exp(w * s)
		}
	}
}

// slot returns the 2k cached features of subsequence r.
func (e *incremental) slot(r int) []float64 {
	i := (r % e.slots) * 2 * e.k
	return e.phi[i : i+2*e.k]
}

// refresh recomputes the state exactly for the candidate at boundary b,
// with the ring's current standardisation and the widths w (after, before).
// It reports false if a matrix could not be inverted.
func (e *incremental) refresh(g *ring, b int, w [2]Width) bool {
	copy(e.mean, g.mean)
	copy(e.sd, g.sd)
	n, k := e.n, e.k
	for dir := range 2 {
		e.sigma[dir] = w[dir].Sigma
		e.ridge[dir] = float64(k) * w[dir].Lambda / float64(n)
		// The centres are the numerator's subsequences that stay in it
		// until the next refresh.
		first, span := b+e.block, n-e.block
		if dir == 1 {
			first -= n
		}
		for l := range k {
			copy(e.centres[dir][l*e.d:], e.standardised(g, first+l*span/k))
		}
	}
	for r := b - n; r < b+n; r++ {
		e.features(g, r)
	}
	for dir := range 2 {
		// Numerator weight α/n, denominator (1−α)/n: the after window is
		// the numerator of direction 0.
		wa, wb := e.alpha/float64(n), (1-e.alpha)/float64(n)
		if dir == 1 {
			wa, wb = wb, wa
		}
		a := e.sym.RawSymmetric().Data
		clear(a)
		h := e.hs[dir]
		clear(h)
		for r := b - n; r < b+n; r++ {
			f := e.slot(r)[dir*k : (dir+1)*k]
			wt := wb
			if r >= b {
				wt = wa
			}
			if (dir == 0) == (r >= b) {
				for l, v := range f {
					h[l] += v
				}
			}
			for i, fi := range f {
				c := wt * fi
				row := a[i*k : (i+1)*k]
				for j := i; j < k; j++ {
					row[j] += c * f[j]
				}
			}
		}
		for i := range k {
			a[i*k+i] += e.ridge[dir]
		}
		if !e.chol.Factorize(e.sym) {
			return false
		}
		if err := e.chol.InverseTo(&e.invSym); err != nil {
			return false
		}
		inv := e.inv[dir]
		for i := range k {
			for j := range k {
				inv[i*k+j] = e.invSym.At(i, j)
			}
		}
	}
	e.ready, e.at, e.last = true, b, b
	return true
}

// advance moves the state one row, from boundary e.at to e.at + 1. It
// reports false when a downdate lost positive definiteness to rounding:
// the caller refreshes.
func (e *incremental) advance(g *ring) bool {
	b := e.at + 1
	in, mid, out := b+e.n-1, b-1, b-e.n-1
	e.features(g, in)
	n := float64(e.n)
	a := e.alpha
	fin, fmid, fout := e.slot(in), e.slot(mid), e.slot(out)
	k := e.k
	// Direction 0 (numerator: after): in +α/n, mid +(1−2α)/n, out −(1−α)/n.
	// Direction 1 (numerator: before): in +(1−α)/n, mid −(1−2α)/n, out −α/n.
	// Increases first, so that every intermediate matrix stays positive
	// definite.
	ups := [2][3]struct {
		f []float64
		c float64
	}{
		{{fin[:k], a / n}, {fmid[:k], (1 - 2*a) / n}, {fout[:k], -(1 - a) / n}},
		{{fin[k:], (1 - a) / n}, {fout[k:], -a / n}, {fmid[k:], -(1 - 2*a) / n}},
	}
	if a > 0.5 {
		ups[0][1], ups[0][2] = ups[0][2], ups[0][1]
		ups[1][1], ups[1][2] = ups[1][2], ups[1][1]
	}
	for dir := range 2 {
		for _, up := range ups[dir] {
			if up.c != 0 && !e.rankOne(e.inv[dir], up.f, up.c) {
				return false
			}
		}
	}
	h0, h1 := e.hs[0], e.hs[1]
	for l := range k {
		h0[l] += fin[l] - fmid[l]
		h1[l] += fmid[k+l] - fout[k+l]
	}
	e.at = b
	return true
}

// rankOne sets inv to (A + c·ffᵀ)⁻¹ given inv = A⁻¹, by Sherman–Morrison,
// and reports false if the updated matrix is not safely positive definite.
func (e *incremental) rankOne(inv, f []float64, c float64) bool {
	k := e.k
	u := e.apply(inv, f)
	den := 1 + c*dot(f, u)
	if !(den > 1e-8) {
		return false
	}
	w := c / den
	for i := range k {
		wi := w * u[i]
		row := inv[i*k : (i+1)*k]
		for j, v := range u {
			row[j] -= wi * v
		}
	}
	return true
}

// pe returns PE_α of direction dir for the state's candidate:
// ½ h̄ᵀA⁻¹h̄ − ½.
func (e *incremental) pe(dir int) float64 {
	h := e.hs[dir]
	n := float64(e.n)
	return dot(h, e.apply(e.inv[dir], h))/(2*n*n) - 0.5
}

// apply returns inv·f in e.u, inv a k×k matrix.
func (e *incremental) apply(inv, f []float64) []float64 {
	k := e.k
	for i := range k {
		e.u[i] = dot(inv[i*k:(i+1)*k], f)
	}
	return e.u
}

// dot returns xᵀy.
func dot(x, y []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}
