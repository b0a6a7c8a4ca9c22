// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package qmin

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// palette holds the values fuzzed problems are made of: zeros and repeats
// (singular matrices), negatives (indefinite ones), extreme magnitudes and
// non-finite values.
var palette = []float64{0, 0, 1, -1, 2, -3, 0.5, 1e-300, -1e-150, 1e150, -1e150, 1e300, math.NaN(), math.Inf(1), 7, -0.25}

func fromBytes(data []byte, i int) float64 {
	if len(data) == 0 {
		return 0
	}
	return palette[int(data[i%len(data)])%len(palette)]
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// FuzzEstimate checks that Estimate, Exact (and through them
// MinimizeQuadratic) and Nystrom return an error or finite numbers, with
// box minimisers inside the box, and never panic, on small problems of every
// kind.
func FuzzEstimate(f *testing.F) {
	f.Add([]byte{2, 0, 0, 2, 3, 3, 4, 5}, uint8(2), uint8(3), false, 0.0, false)
	f.Add([]byte{3, 1, 1, 3}, uint8(2), uint8(0), true, 1.0, true)
	f.Add([]byte{12, 4, 5}, uint8(5), uint8(9), true, 0.5, false)
	f.Add([]byte{9, 9, 9, 9, 2, 2}, uint8(3), uint8(4), false, 0.0, true)
	f.Fuzz(func(t *testing.T, data []byte, nb, kb uint8, useBox bool, box float64, distinct bool) {
		n := 1 + int(nb%8)
		a := mat.NewDense(n, n, nil)
		d, b := make([]float64, n), make([]float64, n)
		for i := range n {
			for j := range n {
				a.Set(i, j, fromBytes(data, i*n+j))
			}
			d[i], b[i] = fromBytes(data, n*n+i), fromBytes(data, n*n+n+i)
		}
		p, err := NewDense(a, d, b)
		if err != nil {
			t.Fatal(err)
		}
		s := &Settings{K: int(kb % 12), Draws: 3, WithoutReplacement: distinct, Src: rand.NewPCG(1, 2)}
		if useBox {
			s.Box = box
		}
		if res, err := Estimate(p, s); err == nil {
			if !finite(res.Value) || !finite(res.StdErr) {
				t.Fatalf("Estimate: %v ± %v", res.Value, res.StdErr)
			}
			for _, dr := range res.Draws {
				if !finite(dr.Value) {
					t.Fatalf("draw value %v", dr.Value)
				}
				if s.Box > 0 {
					for _, v := range dr.Restricted.V {
						if math.Abs(v) > s.Box {
							t.Fatalf("minimiser %v outside the box %v", v, s.Box)
						}
					}
				}
			}
		}
		if sol, err := Exact(p, s); err == nil && (!finite(sol.Value) || sol.Certified && !finite(sol.Gap)) {
			t.Fatalf("Exact: %+v", sol)
		}
		if z, err := Nystrom(p, NystromStable, &Settings{K: min(n, 1+int(kb%4))}); err == nil && !finite(z) {
			t.Fatalf("Nystrom: %v", z)
		}
	})
}
