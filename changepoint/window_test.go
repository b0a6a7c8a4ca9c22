// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// The running standardisation matches a direct computation over the
// windows, after many rows on a level far from zero (where a naive running
// sum of squares would cancel), and the memory stays 2n + k − 1 rows.
func TestRingStandardise(t *testing.T) {
	t.Parallel()
	n, k, dim := 7, 3, 2
	g := newRing(n, k, dim)
	rnd := rand.New(rand.NewPCG(1, 2))
	for r := range 1000 {
		g.push([]float64{1e6 + rnd.NormFloat64(), float64(r%5) * rnd.ExpFloat64()})
		if !g.full() {
			continue
		}
		g.standardise()
		b := g.boundary()
		for c := range dim {
			for o := range k {
				v := make([]float64, 2*n)
				for i := range v {
					v[i] = g.at(b-n+i+o, c)
				}
				m, sd := stat.MeanStdDev(v, nil)
				j := c*k + o
				if math.Abs(g.mean[j]-m) > 1e-9*math.Max(1, math.Abs(m)) || math.Abs(g.sd[j]-sd) > 1e-6*sd {
					t.Fatalf("row %d, coordinate (%d, %d): mean %v sd %v, want %v %v", r, c, o, g.mean[j], g.sd[j], m, sd)
				}
				// The windows read the standardised values.
				w := window{g: g, first: b - n}
				if got := w.At(0, j); math.Abs(got-(v[0]-m)/sd) > 1e-6 {
					t.Fatalf("At = %v, want %v", got, (v[0]-m)/sd)
				}
			}
		}
	}
	if len(g.data) != (2*n+k-1)*dim {
		t.Errorf("the ring holds %d values, want %d", len(g.data), (2*n+k-1)*dim)
	}
}

// The columns' participation ratio matches its closed form dim/(1 +
// (dim − 1)·ρ²) for columns sharing one factor with correlation ρ between
// any two: 1 for columns that are one up to scale and sign (exactly), dim
// for independent ones, up to the sampling error of 2n = 400 rows: r̄² of
// independent columns averages 1/399, and the tolerances (3% at dim 2, 5% at
// dim 5) allow r̄² of 12 and 5 times that, far in the tail of χ²₁/399 and
// χ²₁₀/3990; with more than maxPairColumns columns, the subset's r̄² stands
// for all. columnThreshold is DefaultThreshold on one column.
func TestParticipation(t *testing.T) {
	t.Parallel()
	const n = 200
	for _, c := range []struct {
		dim      int
		rho, tol float64
	}{
		{2, 1, 1e-9}, {5, 1, 1e-9}, {2, 0, 0.03}, {5, 0, 0.05}, {3, 0.9, 0.15}, {100, 0.9, 0.05},
	} {
		g := newRing(n, 1, c.dim)
		rnd := rand.New(rand.NewPCG(uint64(c.dim), 36))
		row := make([]float64, c.dim)
		for range g.cap {
			f := rnd.NormFloat64()
			for j := range row {
				// Loadings √ρ on the factor: correlation ρ between any two
				// columns; ρ = 1 makes them one up to scale and sign.
				row[j] = math.Sqrt(c.rho)*f + math.Sqrt(1-c.rho)*rnd.NormFloat64()
				row[j] *= float64(1+j) * float64(1-2*(j%2))
			}
			g.push(row)
		}
		g.standardise()
		p := g.participation()
		// For a common factor the correlation is ρ, so r̄² = ρ².
		want := float64(c.dim) / (1 + float64(c.dim-1)*c.rho*c.rho)
		t.Logf("%d columns, ρ = %g: participation ratio %.4f, closed form %.4f", c.dim, c.rho, p, want)
		if math.Abs(p-want) > c.tol*want {
			t.Errorf("%d columns, ρ = %g: participation ratio %.4f, want %.4f within %g", c.dim, c.rho, p, want, c.tol)
		}
	}
	if got := columnThreshold(1); got != DefaultThreshold {
		t.Errorf("columnThreshold(1) = %g, want DefaultThreshold", got)
	}
}
