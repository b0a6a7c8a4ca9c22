// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/summary"
)

// TestDesignVariancePairwise checks designVariance's factored ψ,
// aᵢᵀbᵢ − ½aᵢᵀC_b aᵢ − ½bᵢᵀC_a bᵢ with second moments over every row (n is
// below lsmiMomentRows), against influence's pairwise form over the same
// rows: with each row a draw of its own, V_units is V_iid, and V_iid is
// Var(ψ)/n of the pairwise ψ, within 1.5%: the moments count the pair
// (i, i), which the pairwise means leave out, an O(1/n) difference (about
// 2% at n = 300, 1% at n = 1000).
func TestDesignVariancePairwise(t *testing.T) {
	const n = 1000
	rnd := rand.New(rand.NewPCG(1, 2))
	x, y := bivariate(n, 0.6, rnd)
	px, err := newPoints("x", x)
	if err != nil {
		t.Fatal(err)
	}
	py, err := newPoints("y", y)
	if err != nil {
		t.Fatal(err)
	}
	s := &LSMISettings{Settings: Settings{K: 20, Draws: 2, Lambda: 1}, SigmaX: 1, SigmaY: 1}
	m, res, err := fitLSMI(context.Background(), px, py, s, rnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.solve(context.Background(), 20, 2, true, res.Lambda/n/n, rand.NewPCG(3, 4), 1)
	if err != nil {
		t.Fatal(err)
	}
	units := indices.Range(n)
	vIID, vUnits, err := m.designVariance(f, units, n)
	if err != nil {
		t.Fatal(err)
	}
	if vIID != vUnits {
		t.Errorf("one row per draw: V_iid %v, V_units %v", vIID, vUnits)
	}
	psi, err := m.influence(f.centres, f.theta, indices.Range(n))
	if err != nil {
		t.Fatal(err)
	}
	_, se := summary.MeanStdErr(psi)
	t.Logf("V_iid %.6g, pairwise %.6g, ratio %.5f", vIID, se*se, vIID/(se*se))
	if want := se * se; math.Abs(vIID-want) > 0.015*want {
		t.Errorf("V_iid %.6g, pairwise Var(ψ)/n %.6g", vIID, want)
	}
}
