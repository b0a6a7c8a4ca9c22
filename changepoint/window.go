// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// ring holds the last 2n + k − 1 rows of a series, the span of the two
// windows of one candidate time, and the running sums that standardise
// each embedded coordinate over those 2n subsequences.
//
// The subsequence starting at row r is the point
//
//	Y(r) = [y₁(r), …, y₁(r+k−1), y₂(r), …, y₂(r+k−1), …],
//
// each column's k values one after the other, so that coordinate
// j = c·k + o is column c at offset o. Over the 2n subsequences of the two
// windows it takes the values of column c on the rows b−n+o … b+n−1+o,
// where b is the first row of the after window; as the series advances by
// one row, each coordinate gains one row and loses one, so its mean and
// standard deviation cost O(k·dim) per row to keep, whatever n.
type ring struct {
	n, k, dim int
	cap       int       // 2n + k − 1 rows
	data      []float64 // row r at (r mod cap)·dim
	rows      int       // rows pushed so far

	// Sums of (v − shift[j]) and its square over each coordinate's 2n
	// values, valid once the ring is full; shift is the mean at the last
	// full recomputation, so that the sums stay small and do not cancel.
	shift, s1, s2 []float64
	sinceExact    int // rows since the sums were last recomputed exactly

	mean, sd []float64 // of each coordinate, filled by standardise
}

func newRing(n, k, dim int) *ring {
	c := 2*n + k - 1
	return &ring{
		n: n, k: k, dim: dim, cap: c,
		data:  make([]float64, c*dim),
		shift: make([]float64, k*dim), s1: make([]float64, k*dim), s2: make([]float64, k*dim),
		mean: make([]float64, k*dim), sd: make([]float64, k*dim),
	}
}

// at returns column c of absolute row r, which must be in the ring.
func (g *ring) at(r, c int) float64 { return g.data[(r%g.cap)*g.dim+c] }

// full reports whether the ring holds the two windows of a candidate.
func (g *ring) full() bool { return g.rows >= g.cap }

// boundary returns the first row b of the after window of the latest
// candidate the ring holds: its before window starts at b − n.
func (g *ring) boundary() int { return g.rows - g.cap + g.n }

// push appends a row (already checked), keeping the sums.
func (g *ring) push(row []float64) {
	r := g.rows
	if g.full() {
		// Coordinate (c, o) loses row r − cap + o, which for o = 0 is the
		// row about to be overwritten, and gains row r − k + 1 + o, which
		// for o = k − 1 is the new row.
		for o := range g.k {
			out, in := r-g.cap+o, r-g.k+1+o
			for c := range g.dim {
				j := c*g.k + o
				vin := row[c]
				if in < r {
					vin = g.at(in, c)
				}
				a, b := vin-g.shift[j], g.at(out, c)-g.shift[j]
				g.s1[j] += a - b
				g.s2[j] += a*a - b*b
			}
		}
	}
	copy(g.data[(r%g.cap)*g.dim:], row)
	g.rows++
	g.sinceExact++
	// Recompute the sums exactly when the ring first fills and once per
	// cap rows after: O(k·dim) per row on average, and no drift.
	if g.rows == g.cap || (g.full() && g.sinceExact >= g.cap) {
		g.recompute()
	}
}

// recompute sets each coordinate's shift to its mean over the 2n values and
// its sums exactly.
func (g *ring) recompute() {
	first := g.rows - g.cap
	nn := 2 * g.n
	for o := range g.k {
		for c := range g.dim {
			j := c*g.k + o
			m := 0.0
			for i := range nn {
				m += g.at(first+i+o, c)
			}
			m /= float64(nn)
			var s1, s2 float64
			for i := range nn {
				d := g.at(first+i+o, c) - m
				s1 += d
				s2 += d * d
			}
			g.shift[j], g.s1[j], g.s2[j] = m, s1, s2
		}
	}
	g.sinceExact = 0
}

// standardise fills mean and sd from the sums, and reports whether any
// coordinate varies. A coordinate constant over the windows keeps sd = 1:
// it adds nothing to any distance. Running sums carry the rounding of every
// row they have gained and lost since the last exact recomputation, about
// 10⁻¹⁶ of the squares of those rows, which can exceed the variance of a
// coordinate that has become (nearly) constant: a series that stops
// varying would be left with a spurious tiny sd. So when a coordinate's
// variance from the sums is within 10⁻⁸ of its squared level, the sums are
// recomputed exactly first.
func (g *ring) standardise() bool {
	varies, doubtful := g.moments()
	if doubtful && g.sinceExact > 0 {
		g.recompute()
		varies, _ = g.moments()
	}
	return varies
}

// moments fills mean and sd from the sums, reporting whether any coordinate
// varies and whether any variance is small enough for the sums' rounding to
// decide it.
func (g *ring) moments() (varies, doubtful bool) {
	nn := float64(2 * g.n)
	for j := range g.s1 {
		g.mean[j] = g.shift[j] + g.s1[j]/nn
		v := (g.s2[j] - g.s1[j]*g.s1[j]/nn) / (nn - 1)
		// After an exact recomputation, rounding leaves a constant
		// coordinate a tiny variance; anything below 1e-24 of the squared
		// level is taken as none.
		scale := math.Max(math.Abs(g.mean[j]), 1)
		if v <= 1e-8*scale*scale {
			doubtful = true
		}
		if v > 1e-24*scale*scale {
			g.sd[j] = math.Sqrt(v)
			varies = true
		} else {
			g.sd[j] = 1
		}
	}
	return varies, doubtful
}

// window is the matrix of the n standardised subsequences starting at row
// first: row i is Y(first + i), coordinate j divided by the standard
// deviation of coordinate j over both windows (after subtracting its mean,
// which the Gaussian kernel ignores but rounding does not). It reads the
// ring lazily: the estimators read only the rows they draw.
type window struct {
	g     *ring
	first int
	rows  []int // if not nil, the subsequences first + rows[i] only
}

// Dims returns n × k·dim, or len(rows) × k·dim.
func (w window) Dims() (int, int) {
	if w.rows != nil {
		return len(w.rows), w.g.k * w.g.dim
	}
	return w.g.n, w.g.k * w.g.dim
}

// At returns coordinate j of the i-th subsequence.
func (w window) At(i, j int) float64 {
	g := w.g
	if r, _ := w.Dims(); i < 0 || i >= r || j < 0 || j >= g.k*g.dim {
		panic(mat.ErrIndexOutOfRange)
	}
	if w.rows != nil {
		i = w.rows[i]
	}
	c, o := j/g.k, j%g.k
	return (g.at(w.first+i+o, c) - g.mean[j]) / g.sd[j]
}

// T returns the transpose.
func (w window) T() mat.Matrix { return mat.Transpose{Matrix: w} }

// maxPairColumns bounds the columns whose correlations participation
// reads: beyond it, that many columns evenly spaced stand for all.
const maxPairColumns = 64

// participation returns the participation ratio of the columns'
// correlation matrix C over the rows of the two windows of the latest
// candidate, (tr C)²/tr C² = dim/(1 + (dim − 1)·r̄²), with r̄² the mean
// squared correlation of two distinct columns: dim for uncorrelated
// columns, 1 for columns that are all one up to scale. It reads the moments
// standardise left (coordinate offset 0 of each column is the column over
// those rows). With more than maxPairColumns columns, r̄² is the mean over
// maxPairColumns of them, evenly spaced.
func (g *ring) participation() float64 {
	if g.dim == 1 {
		return 1
	}
	cols := make([]int, min(g.dim, maxPairColumns))
	for i := range cols {
		cols[i] = i * g.dim / len(cols)
	}
	first, nn := g.rows-g.cap, 2*g.n
	var sum float64
	for a, ca := range cols {
		for _, cb := range cols[a+1:] {
			ja, jb := ca*g.k, cb*g.k
			s := 0.0
			for i := range nn {
				s += (g.at(first+i, ca) - g.mean[ja]) * (g.at(first+i, cb) - g.mean[jb])
			}
			r := s / (float64(nn-1) * g.sd[ja] * g.sd[jb])
			sum += r * r
		}
	}
	m := len(cols)
	r2 := sum / float64(m*(m-1)/2)
	return float64(g.dim) / (1 + float64(g.dim-1)*r2)
}
