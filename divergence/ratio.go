// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/isnil"
	"github.com/sublinear/pearson/internal/parallel"
	"github.com/sublinear/pearson/kernel"
)

// Ratio is a fitted relative density ratio r̂_α(x) = p(x)/(αp(x) + (1−α)q(x)),
// the mean of the draws' models g(x) = Σ_l θ_l φ(x, c_l), clipped at zero
// (a density ratio is never negative). Use it for importance weights.
type Ratio struct {
	gs      []kernel.Gaussian // per draw, internal units
	scale   float64
	dim     int
	centres []*mat.Dense // internal units
	thetas  [][]float64
}

func (m *peModel) ratio(f *fit, widths []float64) (*Ratio, error) {
	r := &Ratio{scale: m.p.scale, dim: m.p.dim}
	for _, w := range widths {
		r.gs = append(r.gs, kernel.Gaussian{Sigma: w})
	}
	for i, idx := range f.centres {
		c, err := m.p.rows(idx)
		if err != nil {
			return nil, err
		}
		r.centres = append(r.centres, c)
		r.thetas = append(r.thetas, f.thetas[i])
	}
	return r, nil
}

// Dim returns the dimension of the points the ratio takes.
func (r *Ratio) Dim() int { return r.dim }

// At returns r̂_α(x). It panics if len(x) differs from Dim.
func (r *Ratio) At(x []float64) float64 {
	if len(x) != r.dim {
		panic(fmt.Sprintf("divergence: a point of dimension %d for a ratio of dimension %d", len(x), r.dim))
	}
	xs := make([]float64, len(x))
	floats.ScaleTo(xs, 1/r.scale, x)
	v := 0.0
	for i, c := range r.centres {
		for l, th := range r.thetas[i] {
			v += th * r.gs[i].At(xs, c.RawRowView(l))
		}
	}
	return math.Max(0, v/float64(len(r.centres)))
}

// Eval returns r̂_α at every row of x, which must have Dim columns. A NaN or
// infinite value gives a *DataError naming sample "x" (the first in row
// order). The rows are evaluated in blocks of blockRows on GOMAXPROCS
// goroutines, each block with the same arithmetic whatever their number, so
// the values do not depend on GOMAXPROCS. A nil x, or a nil r, is an error.
func (r *Ratio) Eval(x mat.Matrix) ([]float64, error) {
	if r == nil {
		return nil, fmt.Errorf("divergence: %w: Eval of a nil *Ratio", ErrSettings)
	}
	if isnil.Is(x) {
		return nil, fmt.Errorf("divergence: %w: the points are nil", ErrTooFew)
	}
	n, dim := x.Dims()
	if dim != r.dim {
		return nil, fmt.Errorf("divergence: %w: points of dimension %d for a ratio of dimension %d", ErrDimension, dim, r.dim)
	}
	pts := &points{x: x, name: "x", n: n, pop: n, dim: dim, scale: r.scale}
	out := make([]float64, n)
	blocks := (n + blockRows - 1) / blockRows
	errs := make([]error, blocks)
	parallel.For(blocks, parallel.Workers(0), func(b int) {
		lo, hi := b*blockRows, min(n, (b+1)*blockRows)
		rows := indices.Range(hi - lo)
		for i := range rows {
			rows[i] += lo
		}
		block, err := pts.rows(rows)
		if errs[b] = err; err == nil {
			copy(out[lo:hi], r.evalScaled(block))
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// evalScaled returns r̂_α at the rows of block, in internal units.
func (r *Ratio) evalScaled(block *mat.Dense) []float64 {
	b, _ := block.Dims()
	v := make([]float64, b)
	var phi mat.Dense
	for i, c := range r.centres {
		phi.Reset()
		r.gs[i].MatrixTo(&phi, block, c)
		tmp := mat.NewVecDense(b, nil)
		tmp.MulVec(&phi, mat.NewVecDense(len(r.thetas[i]), r.thetas[i]))
		floats.Add(v, tmp.RawVector().Data)
	}
	for i, x := range v {
		v[i] = math.Max(0, x/float64(len(r.centres)))
	}
	return v
}
