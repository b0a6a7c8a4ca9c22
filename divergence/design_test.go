// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

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
	t.Parallel()
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
	vIID, vUnits, _, err := m.designVariance(context.Background(), f, units, n, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vIID != vUnits {
		t.Errorf("one row per draw: V_iid %v, V_units %v", vIID, vUnits)
	}
	psi, _, err := m.influence(f.centres, f.theta, indices.Range(n))
	if err != nil {
		t.Fatal(err)
	}
	_, se := summary.MeanStdErr(psi)
	t.Logf("V_iid %.6g, pairwise %.6g, ratio %.5f", vIID, se*se, vIID/(se*se))
	if want := se * se; math.Abs(vIID-want) > 0.015*want {
		t.Errorf("V_iid %.6g, pairwise Var(ψ)/n %.6g", vIID, want)
	}
}

// TestDesignOneUnit checks LSMI on rows that all came from one draw of a
// two-stage design: the variance between draws cannot be estimated, so
// DesignEffect is NaN, a warning says so, and StdErr is that of the same
// rows drawn independently.
func TestDesignOneUnit(t *testing.T) {
	t.Parallel()
	const n = 300
	x, y := bivariate(n, 0.6, rand.New(rand.NewPCG(5, 6)))
	s := &LSMISettings{Settings: Settings{K: 20, Draws: 2, Lambda: 1}, SigmaX: 1, SigmaY: 1}
	one, err := LSMI(context.Background(), Subsample{Matrix: x, Rows: n, Units: make([]int, n), UnitDraws: 3}, y, s)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(one.DesignEffect) {
		t.Errorf("DesignEffect %v, want NaN", one.DesignEffect)
	}
	if !slices.Contains(one.Warnings, oneUnitWarning) {
		t.Errorf("warnings %q lack %q", one.Warnings, oneUnitWarning)
	}
	iid, err := LSMI(context.Background(), x, y, s)
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(one.StdErr - iid.StdErr); d > 0.1*iid.StdErr {
		t.Errorf("StdErr %v, independent rows %v", one.StdErr, iid.StdErr)
	}
}

// TestPEDesignOneUnit checks that a divergence whose kept rows all came
// from one unit draw reports no design effect it cannot estimate: the
// variance between draws needs two of them, so the error bar stays that of
// independent rows and the design effect is NaN, with a warning; with two
// draws it is a number and the error bar is at least that of independent
// rows. The estimate itself does not depend on the design.
func TestPEDesignOneUnit(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(7, 8))
	p, q := mat.NewDense(200, 1, nil), mat.NewDense(200, 1, nil)
	for i := range 200 {
		p.Set(i, 0, rnd.NormFloat64())
		q.Set(i, 0, rnd.NormFloat64()+1)
	}
	s := func() *PESettings {
		return &PESettings{Sigma: 1, Settings: Settings{K: 20, M: 100, Lambda: 1, Src: rand.NewPCG(1, 2)}}
	}
	iid, err := RelativePE(context.Background(), p, q, 0.1, s())
	if err != nil {
		t.Fatal(err)
	}
	if iid.DesignEffect != 0 {
		t.Errorf("design effect %v without a design, want 0", iid.DesignEffect)
	}
	one := make([]int, 200)
	two := make([]int, 200)
	for i := range two {
		two[i] = i % 2
	}
	for _, c := range []struct {
		name          string
		pu, qu        []int
		shared, isNaN bool
	}{
		{"one draw, shared file", one, one, true, true},
		{"one draw each, two files", one, one, false, true},
		{"one draw in P only", one, two, false, true},
		{"two draws, shared file", one, two, true, false},
		{"two draws each", two, two, false, false},
	} {
		sp := Subsample{Matrix: p, Rows: 200, Units: c.pu, UnitDraws: 2, SharedDraws: c.shared}
		sq := Subsample{Matrix: q, Rows: 200, Units: c.qu, UnitDraws: 2, SharedDraws: c.shared}
		res, err := RelativePE(context.Background(), sp, sq, 0.1, s())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.PE != iid.PE {
			t.Errorf("%s: PE %v, want %v as without the design", c.name, res.PE, iid.PE)
		}
		if got := math.IsNaN(res.DesignEffect); got != c.isNaN {
			t.Errorf("%s: design effect %v, want NaN %v", c.name, res.DesignEffect, c.isNaN)
		}
		if got := slices.Contains(res.Warnings, peOneUnitWarning); got != c.isNaN {
			t.Errorf("%s: warnings %q: one-unit warning %v, want %v", c.name, res.Warnings, got, c.isNaN)
		}
		switch {
		case c.isNaN && res.StdErr != iid.StdErr:
			t.Errorf("%s: stderr %v, want the independent rows' %v", c.name, res.StdErr, iid.StdErr)
		case !c.isNaN && !(res.StdErr >= iid.StdErr):
			t.Errorf("%s: stderr %v below the independent rows' %v", c.name, res.StdErr, iid.StdErr)
		}
	}
}
