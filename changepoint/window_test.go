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
