// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestRelativePEValue: RelativePEValue returns RelativePE's PE bit for bit,
// with σ and λ fixed or cross-validated, one draw or several, one column or
// three, and RelativePE's error for a bad argument.
func TestRelativePEValue(t *testing.T) {
	gauss := func(seed uint64, n, d int, shift float64) *mat.Dense {
		rnd := rand.New(rand.NewPCG(seed, 7))
		x := mat.NewDense(n, d, nil)
		for i := range n {
			for j := range d {
				x.Set(i, j, rnd.NormFloat64()+shift)
			}
		}
		return x
	}
	for _, d := range []int{1, 3} {
		p, q := gauss(1, 120, d, 0.5), gauss(2, 150, d, 0)
		for name, s := range map[string]PESettings{
			"fixed":          {Sigma: 1.2, Settings: Settings{Lambda: 0.5, K: 20, M: 60, Draws: 1, WithoutReplacement: true}},
			"fixed, draws":   {Sigma: 0.8, Settings: Settings{Lambda: 0.1, K: 30, Draws: 4}},
			"tuned":          {Settings: Settings{Draws: 1}},
			"tuned, draws":   {Settings: Settings{K: 40, Draws: 3}},
			"fixed σ, exact": {Sigma: 1, Settings: Settings{Exact: true}},
		} {
			s.Src = rand.NewPCG(3, 4)
			r, err := RelativePE(ctx, p, q, DefaultAlpha, &s)
			if err != nil {
				t.Fatal(d, name, err)
			}
			s.Src = rand.NewPCG(3, 4)
			v, err := RelativePEValue(ctx, p, q, DefaultAlpha, &s)
			if err != nil {
				t.Fatal(d, name, err)
			}
			if math.Float64bits(v) != math.Float64bits(r.PE) {
				t.Errorf("%d columns, %s: RelativePEValue %v, RelativePE's PE %v", d, name, v, r.PE)
			}
		}
	}
	_, err := RelativePE(ctx, gauss(1, 10, 1, 0), gauss(2, 10, 2, 0), DefaultAlpha, nil)
	_, errValue := RelativePEValue(ctx, gauss(1, 10, 1, 0), gauss(2, 10, 2, 0), DefaultAlpha, nil)
	if err == nil || errValue == nil || err.Error() != errValue.Error() {
		t.Errorf("columns that differ: RelativePE %v, RelativePEValue %v", err, errValue)
	}
}
