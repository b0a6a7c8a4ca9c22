// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package kernel

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/parallel"
)

// Gaussian is the Gaussian kernel of width Sigma,
//
//	φ(x, c) = exp(−‖x − c‖² / (2σ²)).
type Gaussian struct {
	// Sigma is the width σ; it must be positive (the methods do not check:
	// a zero width gives NaN).
	Sigma float64
}

// At returns φ(x, c). It panics if x and c differ in length.
func (g Gaussian) At(x, c []float64) float64 {
	if len(x) != len(c) {
		panic("kernel: points of different dimensions")
	}
	d := 0.0
	for i, v := range x {
		t := v - c[i]
		d += t * t
	}
	return math.Exp(-d / (2 * g.Sigma * g.Sigma))
}

// gemmDim is the dimension from which squared distances are computed through
// matrix multiplication, ‖x‖² + ‖c‖² − 2xᵀc, rather than directly.
const gemmDim = 12

// SqDistTo sets dst[i, j] = ‖xᵢ − cⱼ‖², the squared distance between row i of
// x and row j of c. dst must be r×k, where x is r×dim and c is k×dim, or
// empty, in which case it is resized.
func SqDistTo(dst *mat.Dense, x, c *mat.Dense) { sqDistTo(dst, x, c, false, 0) }

// sqDistTo is SqDistTo, followed when exp is true by dst[i, j] =
// exp(gamma·dst[i, j]) row by row while the row is in cache: MatrixTo in
// one pass over dst, with the bits of SqDistTo then FromSqDistTo.
func sqDistTo(dst *mat.Dense, x, c *mat.Dense, exp bool, gamma float64) {
	r, dim := x.Dims()
	k, cdim := c.Dims()
	if dim != cdim {
		panic(fmt.Sprintf("kernel: points of dimension %d and centres of dimension %d", dim, cdim))
	}
	if dst.IsEmpty() {
		dst.ReuseAs(r, k)
	}
	if dr, dc := dst.Dims(); dr != r || dc != k {
		panic(fmt.Sprintf("kernel: destination is %d×%d, want %d×%d", dr, dc, r, k))
	}
	xr, cr, dd := x.RawMatrix(), c.RawMatrix(), dst.RawMatrix()
	switch {
	case dim == 1:
		cs := make([]float64, k)
		for j := range k {
			cs[j] = cr.Data[j*cr.Stride]
		}
		for i := range r {
			xi := xr.Data[i*xr.Stride]
			row := dd.Data[i*dd.Stride : i*dd.Stride+k]
			for j, cj := range cs {
				t := xi - cj
				row[j] = t * t
			}
			if exp {
				expScaled(row, row, gamma)
			}
		}
	case dim < gemmDim:
		for i := range r {
			xi := xr.Data[i*xr.Stride : i*xr.Stride+dim]
			row := dd.Data[i*dd.Stride : i*dd.Stride+k]
			for j := range row {
				row[j] = sqDist(xi, cr.Data[j*cr.Stride:j*cr.Stride+dim])
			}
			if exp {
				expScaled(row, row, gamma)
			}
		}
	default:
		sqDistGemm(dd, xr, cr, r, k, dim)
		if exp {
			for i := range r {
				row := dd.Data[i*dd.Stride : i*dd.Stride+k]
				expScaled(row, row, gamma)
			}
		}
	}
}

// sqDistGemm sets d[i, j] = ‖xᵢ − cⱼ‖² through ‖x‖² + ‖c‖² − 2xᵀc, the cross
// term by Gemm. Both sets of points are first moved by the first centre, so
// that the norms are of the size of the distances and data far from the
// origin loses no accuracy; rounding can still make a distance slightly
// negative for nearby points, so it is clamped at zero. Where a norm
// overflows, the distance is computed directly.
func sqDistGemm(dd, xr, cr blas64.General, r, k, dim int) {
	ref := cr.Data[:dim]
	shifted := func(src blas64.General, rows int) (blas64.General, []float64) {
		out := blas64.General{Rows: rows, Cols: dim, Stride: dim, Data: make([]float64, rows*dim)}
		norms := make([]float64, rows)
		for i := range rows {
			row := out.Data[i*dim : (i+1)*dim]
			floats.SubTo(row, src.Data[i*src.Stride:i*src.Stride+dim], ref)
			norms[i] = sqNorm(row)
		}
		return out, norms
	}
	xs, xn := shifted(xr, r)
	cs, cn := shifted(cr, k)
	blas64.Gemm(blas.NoTrans, blas.Trans, -2, xs, cs, 0, dd)
	for i := range r {
		row := dd.Data[i*dd.Stride : i*dd.Stride+k]
		for j := range row {
			v := row[j] + xn[i] + cn[j]
			if math.IsInf(xn[i], 0) || math.IsInf(cn[j], 0) || math.IsNaN(v) {
				v = sqDist(xr.Data[i*xr.Stride:i*xr.Stride+dim], cr.Data[j*cr.Stride:j*cr.Stride+dim])
			}
			row[j] = math.Max(0, v)
		}
	}
}

// sqDist returns ‖x − c‖² directly.
func sqDist(x, c []float64) float64 {
	s := 0.0
	for t, v := range x {
		u := v - c[t]
		s += u * u
	}
	return s
}

func sqNorm(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return s
}

// FromSqDistTo sets dst[i, j] = exp(−d[i, j] / (2σ²)): the kernel matrix from
// the squared distances d. dst may be d itself, or empty, in which case it is
// resized.
func (g Gaussian) FromSqDistTo(dst, d *mat.Dense) {
	r, k := d.Dims()
	if dst.IsEmpty() {
		dst.ReuseAs(r, k)
	}
	if dr, dc := dst.Dims(); dr != r || dc != k {
		panic(fmt.Sprintf("kernel: destination is %d×%d, want %d×%d", dr, dc, r, k))
	}
	src, dd := d.RawMatrix(), dst.RawMatrix()
	for i := range r {
		expScaled(dd.Data[i*dd.Stride:i*dd.Stride+k], src.Data[i*src.Stride:i*src.Stride+k], g.gamma())
	}
}

// gamma returns −1/(2σ²), the factor of the squared distance in the
// kernel's exponent.
func (g Gaussian) gamma() float64 { return -1 / (2 * g.Sigma * g.Sigma) }

// MatrixTo sets dst[i, j] = φ(xᵢ, cⱼ): the kernel matrix of the rows of x
// (points) against the rows of c (centres). dst must be r×k or empty.
func (g Gaussian) MatrixTo(dst *mat.Dense, x, c *mat.Dense) {
	sqDistTo(dst, x, c, true, g.gamma())
}

// BlockRows is the number of points whose kernel values Moments holds at
// once.
const BlockRows = 512

// Moments adds to sum and gram the first and second moments of the kernel
// features φ(x) = (φ(x, c₁), …, φ(x, c_k)) over the points xᵢ, the rows of x:
//
//	sum  += Σᵢ φ(xᵢ),    gram += Σᵢ φ(xᵢ) φ(xᵢ)ᵀ.
//
// Either may be nil. It works through the points in blocks of BlockRows, so
// besides x it holds at most BlockRows×k kernel values: O(k² + BlockRows·k)
// memory and O(r·k·(dim + k)) time for r points. Callers with more points
// than they wish to copy at once call it block by block.
func (g Gaussian) Moments(sum []float64, gram *mat.SymDense, x, c *mat.Dense) {
	n, dim := x.Dims()
	k, _ := c.Dims()
	if sum != nil && len(sum) != k {
		panic("kernel: sum has the wrong length")
	}
	if gram != nil && gram.SymmetricDim() != k {
		panic("kernel: gram has the wrong size")
	}
	// The kernel values are held transposed, a row per centre, so that each
	// entry of the Gram matrix is one dot product of contiguous rows.
	phiT := mat.NewDense(k, min(BlockRows, max(n, 1)), nil)
	for start := 0; start < n; start += BlockRows {
		b := min(BlockRows, n-start)
		pt := phiT.Slice(0, k, 0, b).(*mat.Dense)
		g.MatrixTo(pt, c, x.Slice(start, start+b, 0, dim).(*mat.Dense))
		if sum != nil {
			for j := range k {
				sum[j] += floats.Sum(pt.RawRowView(j))
			}
		}
		if gram != nil {
			AddGram(gram, pt)
		}
	}
}

// gramTile is the side of the tiles in which AddGram accumulates: two tiles
// of rows of BlockRows values fit in a core's cache.
const gramTile = 64

// AddGram adds a·aᵀ to gram, where a is k×b: gram[j, l] += Σᵢ a[j, i]·a[l, i],
// the Gram matrix of the rows of a. Laid out so, with a row per centre and a
// column per point, it is the second moment of kernel features. Tiles keep
// both sets of rows in cache, and for large k run on all cores, each entry
// summed by one goroutine in a fixed order, so the result does not depend on
// scheduling.
func AddGram(gram *mat.SymDense, a *mat.Dense) {
	k, b := a.Dims()
	if gram.SymmetricDim() != k {
		panic("kernel: gram has the wrong size")
	}
	raw := a.RawMatrix()
	row := func(j int) []float64 { return raw.Data[j*raw.Stride : j*raw.Stride+b] }
	gs := gram.RawSymmetric()
	tiles := (k + gramTile - 1) / gramTile
	workers := 1
	if k >= 4*gramTile {
		workers = parallel.Workers(0)
	}
	parallel.For(tiles, workers, func(t int) {
		j0 := t * gramTile
		for l0 := j0; l0 < k; l0 += gramTile {
			for j := j0; j < min(j0+gramTile, k); j++ {
				rj := row(j)
				out := gs.Data[j*gs.Stride : j*gs.Stride+k]
				for l := max(j, l0); l < min(l0+gramTile, k); l++ {
					out[l] += floats.Dot(rj, row(l))
				}
			}
		}
	})
}

// Gather copies the given rows of x into the rows of dst, in order:
// dst[i, :] = x[rows[i], :]. dst must be len(rows)×c where x is r×c.
func Gather(dst *mat.Dense, x mat.Matrix, rows []int) {
	_, c := x.Dims()
	if dr, dc := dst.Dims(); dr != len(rows) || dc != c {
		panic(fmt.Sprintf("kernel: destination is %d×%d, want %d×%d", dr, dc, len(rows), c))
	}
	raw := dst.RawMatrix()
	if xd, ok := x.(*mat.Dense); ok {
		xr := xd.RawMatrix()
		for i, r := range rows {
			copy(raw.Data[i*raw.Stride:i*raw.Stride+c], xr.Data[r*xr.Stride:r*xr.Stride+c])
		}
		return
	}
	for i, r := range rows {
		for j := range c {
			raw.Data[i*raw.Stride+j] = x.At(r, j)
		}
	}
}
