// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// directPE solves the incremental estimate's problem for the candidate at
// boundary b afresh, with its held centres, widths and standardisation:
// A = (α/n)Σ_num φφᵀ + ((1−α)/n)Σ_den φφᵀ + ridge·I by Cholesky, and
// PE = ½ h̄ᵀA⁻¹h̄ − ½.
func directPE(e *incremental, g *ring, b, dir int) float64 {
	n, k := e.n, e.k
	a := mat.NewSymDense(k, nil)
	h := make([]float64, k)
	for r := b - n; r < b+n; r++ {
		z := e.standardised(g, r)
		f := make([]float64, k)
		for l := range k {
			s := 0.0
			for j, v := range z {
				t := v - e.centres[dir][l*e.d+j]
				s += t * t
			}
			f[l] = math.Exp(-s / (2 * e.sigma[dir] * e.sigma[dir]))
		}
		num := (dir == 0) == (r >= b)
		w := (1 - e.alpha) / float64(n)
		if num {
			w = e.alpha / float64(n)
			for l, v := range f {
				h[l] += v / float64(n)
			}
		}
		for i := range k {
			for j := i; j < k; j++ {
				a.SetSym(i, j, a.At(i, j)+w*f[i]*f[j])
			}
		}
	}
	for i := range k {
		a.SetSym(i, i, a.At(i, i)+e.ridge[dir])
	}
	var ch mat.Cholesky
	if !ch.Factorize(a) {
		return math.NaN()
	}
	theta := mat.NewVecDense(k, nil)
	if err := ch.SolveVecTo(theta, mat.NewVecDense(k, h)); err != nil {
		return math.NaN()
	}
	return mat.Dot(mat.NewVecDense(k, h), theta)/2 - 0.5
}

// The incremental estimate, advanced row by row by Sherman–Morrison
// updates, agrees with the same problem (same centres, widths and
// standardisation) solved afresh by Cholesky at every row, to rounding:
// 10⁻⁹, against scores of order 10⁻² to 1, over a block that straddles a
// change of mean, at α = 0.1 and at α = 0.7 (where the middle
// subsequence's weight change is a decrease), in one and two columns.
func TestIncrementalUpdates(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		alpha float64
		dim   int
	}{{0.1, 1}, {0.7, 1}, {0.1, 2}} {
		n, k := 20, 5
		g := newRing(n, k, c.dim)
		rnd := rand.New(rand.NewPCG(3, uint64(c.dim)))
		e := newIncremental(n, DefaultK, k*c.dim, c.alpha)
		row := make([]float64, c.dim)
		worst := 0.0
		for r := range 200 {
			for j := range row {
				row[j] = rnd.NormFloat64()
				if r >= 70 {
					row[j] += 2
				}
			}
			g.push(row)
			if !g.full() {
				continue
			}
			b := g.boundary()
			if !g.standardise() {
				t.Fatal("no variation")
			}
			if e.due(b) {
				w := Width{Sigma: 0.35 * math.Sqrt(2*float64(k*c.dim)), Lambda: 0.003}
				if !e.refresh(g, b, [2]Width{w, w}) {
					t.Fatal("refresh failed")
				}
			} else if !e.advance(g) {
				t.Fatalf("row %d: a downdate failed", r)
			}
			for dir := range 2 {
				got, want := e.pe(dir), directPE(e, g, b, dir)
				worst = math.Max(worst, math.Abs(got-want))
			}
		}
		t.Logf("α = %g, %d columns: largest difference %.3g", c.alpha, c.dim, worst)
		if worst > 1e-9 {
			t.Errorf("α = %g, %d columns: incremental and direct estimates differ by up to %.3g", c.alpha, c.dim, worst)
		}
	}
}
