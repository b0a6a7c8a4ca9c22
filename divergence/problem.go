// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/kernel"
)

// PEProblem is the RuLSIF problem of RelativePE as a problem for package
// qmin, for fixed σ and λ: with every numerator point a candidate centre,
//
//	A = H/2,   d = λ/(2N)·1,   b = −h/n,
//
// where n is the dimension (the numerator's rows) and N its population (n,
// or Subsample.Rows), so that PE = −½ − min p, and Algorithm 1 on it returns −½ h_Sᵀ(H_SS +
// (kλ/n)I)⁻¹h_S. It implements qmin.Restricter (kernel averages over all
// points, or over Settings.M points drawn for each block) and
// qmin.ColumnFiller (for qmin.Nystrom, with averages over all points, or
// over M points fixed once). RelativePE is the way to estimate PE;
// PEProblem exposes the problem it solves, so that other solvers of package
// qmin (Exact, Nystrom, or Estimate with other settings) can be run on the
// very same RuLSIF problem and compared, as the paper's experiments do and
// the reproduction harness does.
type PEProblem struct {
	o *oracle
	m *peModel
}

// NewPEProblem returns the problem for the samples p and q with α and the
// σ, λ and M of s; σ and λ must be fixed (positive).
func NewPEProblem(p, q mat.Matrix, alpha float64, s *PESettings) (*PEProblem, error) {
	switch {
	case s == nil || s.Sigma == 0:
		return nil, &SettingsError{Package: "divergence", Field: "Sigma", Value: 0.0, Allowed: "a PEProblem needs σ and λ fixed"}
	case s.Lambda == 0:
		return nil, &SettingsError{Package: "divergence", Field: "Lambda", Value: 0.0, Allowed: "a PEProblem needs σ and λ fixed"}
	}
	s = s.resolved()
	pp, qq, err := peSamples(p, q, alpha, s)
	if err != nil {
		return nil, err
	}
	pp, qq = pp.withScale(s.Sigma), qq.withScale(s.Sigma) // internal units: σ = 1
	m := &peModel{p: pp, q: qq, alpha: alpha, g: kernel.Gaussian{Sigma: 1}}
	m.mp, m.mq = splitBudget(s.M, pp.n, qq.n)
	return &PEProblem{o: &oracle{n: pp.n, lambdaN: s.Lambda / float64(pp.pop), moments: m.moments}, m: m}, nil
}

// Dim returns the number of numerator points, the candidate centres.
func (p *PEProblem) Dim() int { return p.o.Dim() }

// AAt returns H[i, j]/2, averaging over the data: O(M) a query.
func (p *PEProblem) AAt(i, j int) float64 { return p.o.AAt(i, j) }

// DAt returns λ/(2N), N the numerator's population.
func (p *PEProblem) DAt(i int) float64 { return p.o.DAt(i) }

// BAt returns −h[i]/n.
func (p *PEProblem) BAt(i int) float64 { return p.o.BAt(i) }

// Restrict fills the restriction to idx, averaging over points drawn by rnd
// (or all of them).
func (p *PEProblem) Restrict(a *mat.SymDense, d, b []float64, idx []int, rnd *rand.Rand) error {
	return p.o.Restrict(a, d, b, idx, rnd)
}

// Columns writes A[:, idx] = H[:, idx]/2, an n×len(idx) block: the kernel
// values of the averaging points against every centre, multiplied by those
// against the chosen ones, block by block (O(M·n·(dim + k)) time).
func (p *PEProblem) Columns(dst *mat.Dense, idx []int) error {
	m := p.m
	n, k := m.p.n, len(idx)
	if r, cc := dst.Dims(); r != n || cc != k {
		return fmt.Errorf("divergence: %w: Columns into a %d×%d block, want %d×%d", ErrDimension, r, cc, n, k)
	}
	c, err := m.p.rows(indices.Range(n))
	if err != nil {
		return err
	}
	cs, err := m.p.rows(idx)
	if err != nil {
		return err
	}
	dst.Zero()
	rnd := entryRand()
	// Blocks of columnRows points: their kernel values against every
	// centre take columnRows·n values.
	const columnRows = 256
	for _, side := range []struct {
		pts    *points
		budget int
		weight float64
	}{{m.p, m.mp, m.alpha}, {m.q, m.mq, 1 - m.alpha}} {
		// Drawn even at weight 0, so that the other side's rows are those
		// of AAt and Restrict, which draw both.
		rows := side.pts.draw(side.budget, rnd)
		if side.weight == 0 {
			continue
		}
		if rows == nil {
			rows = indices.Range(side.pts.n)
		}
		var phiAll, phiS, prod mat.Dense
		for start := 0; start < len(rows); start += columnRows {
			block, err := side.pts.rows(rows[start:min(start+columnRows, len(rows))])
			if err != nil {
				return err
			}
			phiAll.Reset()
			phiS.Reset()
			prod.Reset()
			m.g.MatrixTo(&phiAll, block, c)
			m.g.MatrixTo(&phiS, block, cs)
			prod.Mul(phiAll.T(), &phiS)
			prod.Scale(side.weight/float64(len(rows))/2, &prod)
			dst.Add(dst, &prod)
		}
	}
	return nil
}

// PE returns the value of PE for a minimum z of the problem: −½ − z.
func (p *PEProblem) PE(z float64) float64 { return -0.5 - z }
