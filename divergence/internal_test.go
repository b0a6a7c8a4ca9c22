// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestRidgeSolver(t *testing.T) {
	t.Parallel()
	// Against mat.Cholesky on (G + λI)θ = h for a singular G = AᵀA.
	rnd := rand.New(rand.NewPCG(1, 1))
	a := mat.NewDense(5, 8, nil)
	for i := range 5 {
		for j := range 8 {
			a.Set(i, j, rnd.NormFloat64())
		}
	}
	g := mat.NewSymDense(8, nil)
	g.SymOuterK(1, a.T())
	h := make([]float64, 8)
	for i := range h {
		h[i] = rnd.NormFloat64()
	}
	rs := newRidgeSolver(g)
	for _, l := range []float64{1e-6, 0.1, 10} {
		if !rs.factor(l) {
			t.Fatalf("λ=%v: not positive definite", l)
		}
		got := slices.Clone(h)
		rs.solve(got)
		reg := mat.NewSymDense(8, nil)
		reg.CopySym(g)
		for i := range 8 {
			reg.SetSym(i, i, reg.At(i, i)+l)
		}
		var ch mat.Cholesky
		ch.Factorize(reg)
		var want mat.VecDense
		if err := ch.SolveVecTo(&want, mat.NewVecDense(8, h)); err != nil && l > 1e-3 {
			t.Fatal(err)
		}
		for i := range 8 {
			if math.Abs(got[i]-want.AtVec(i)) > 1e-8*(1+math.Abs(want.AtVec(i))) {
				t.Errorf("λ=%v: θ[%d] = %v, want %v", l, i, got[i], want.AtVec(i))
			}
		}
	}
	if rs.factor(-100) {
		t.Error("G − 100I factorised as positive definite")
	}
}

func TestSplitBudget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ m, np, nq, mp, mq int }{
		{4000, 1e6, 1e6, 2000, 2000},
		{4000, 1e6, 200, 3800, 200},
		{4000, 300, 1e6, 300, 3700},
		{4000, 1000, 2000, 1000, 2000},
		{AllPoints, 10, 20, 10, 20},
		{2, 5, 5, 1, 1},
	} {
		mp, mq := splitBudget(tc.m, tc.np, tc.nq)
		if mp != tc.mp || mq != tc.mq {
			t.Errorf("splitBudget(%d, %d, %d) = %d, %d; want %d, %d", tc.m, tc.np, tc.nq, mp, mq, tc.mp, tc.mq)
		}
	}
}

func TestTwoSampleGroupSumsMatchGeneralPath(t *testing.T) {
	t.Parallel()
	// With m_P : m_Q = α : 1−α, H is the same for every labelling and is
	// factorised once, and a permutation only sums kernel rows (groupSums);
	// the statistic must equal the general computation, which builds each
	// labelling's Gram matrices afresh. Its mean part must equal the squared
	// Mahalanobis distance between the group means, computed directly.
	rnd := rand.New(rand.NewPCG(3, 3))
	const k, m, d = 30, 120, 2
	phiT := mat.NewDense(k, m, nil)
	for l := range k {
		for i := range m {
			phiT.Set(l, i, rnd.Float64())
		}
	}
	x := mat.NewDense(m, d, nil)
	for i := range m {
		x.Set(i, 0, rnd.NormFloat64())
		x.Set(i, 1, x.At(i, 0)+rnd.NormFloat64())
	}
	gTot := mat.NewSymDense(k, nil)
	gTot.SymOuterK(1, phiT)
	for _, mp := range []int{60, 30, 90} {
		general := &twoSampleStat{phi: mat.DenseCopyOf(phiT.T()), phiT: phiT, gTot: gTot, mp: mp, mq: m - mp, alpha: float64(mp) / m, ridge: 0.01}
		h := mat.NewSymDense(k, nil)
		h.ScaleSym(1.0/m, gTot)
		// Every direction kept (floor 0): the same statistic.
		psi, ok := whitened(mat.DenseCopyOf(phiT.T()), h, 0.01, 0, 0)
		if !ok {
			t.Fatal("not positive definite")
		}
		fast := &groupSums{mp: mp, mq: m - mp}
		fast.add(psi, true)
		if err := fast.addMean(x); err != nil {
			t.Fatal(err)
		}
		fast.finish()
		got := make([]float64, fast.count())
		// The kernel part with the groups' roles exchanged is the general
		// statistic of Q's points as the numerator.
		swapped := &twoSampleStat{phi: general.phi, phiT: phiT, gTot: gTot, mp: m - mp, mq: mp, alpha: float64(m-mp) / m, ridge: 0.01}
		for range 5 {
			perm := rnd.Perm(m)
			fast.values(perm, fast.newScratch(), got)
			a := general.value(perm, general.newScratch())
			if math.Abs(a-got[0]) > 1e-9*(1+math.Abs(a)) {
				t.Errorf("m_P = %d: general %v, group sums %v", mp, a, got[0])
			}
			perm2 := append(append([]int(nil), perm[mp:]...), perm[:mp]...)
			if a := swapped.value(perm2, swapped.newScratch()); math.Abs(a-got[2]) > 1e-9*(1+math.Abs(a)) {
				t.Errorf("m_P = %d, roles exchanged: general %v, group sums %v", mp, a, got[2])
			}
			// D² = (x̄_P − x̄_Q)ᵀ S⁻¹ (x̄_P − x̄_Q), S the covariance of all
			// rows (divided by m).
			var xp, xq, all mat.VecDense
			xp.ReuseAsVec(d)
			xq.ReuseAsVec(d)
			all.ReuseAsVec(d)
			for i, r := range perm {
				row := x.RowView(r)
				all.AddScaledVec(&all, 1.0/m, row)
				if i < mp {
					xp.AddScaledVec(&xp, 1/float64(mp), row)
				} else {
					xq.AddScaledVec(&xq, 1/float64(m-mp), row)
				}
			}
			s := mat.NewSymDense(d, nil)
			for r := range m {
				var c mat.VecDense
				c.SubVec(x.RowView(r), &all)
				s.SymRankOne(s, 1.0/m, &c)
			}
			var diff, sol mat.VecDense
			diff.SubVec(&xp, &xq)
			if err := sol.SolveVec(s, &diff); err != nil {
				t.Fatal(err)
			}
			want := mat.Dot(&diff, &sol)
			if math.Abs(want-got[1]) > 1e-6*(1+want) {
				t.Errorf("m_P = %d: mean part %v, direct D² %v", mp, got[1], want)
			}
		}
	}
}

func TestCombine(t *testing.T) {
	t.Parallel()
	// One width: the statistic itself.
	obs, null := combine([]float64{3}, [][]float64{{1}, {2}})
	if obs != 3 || null[0] != 1 || null[1] != 2 {
		t.Errorf("one width: %v %v", obs, null)
	}
	// Two widths over four labellings: width 0 takes 3, 0, 1, 2, each
	// standardised against the other three (for 3: mean 1, sd √(2/3));
	// width 1 takes 10 throughout (no spread: ignored).
	obs, null = combine([]float64{3, 10}, [][]float64{{0, 10}, {1, 10}, {2, 10}})
	sd := math.Sqrt(2.0 / 3)
	if math.Abs(obs-2/sd) > 1e-12 || math.Abs(null[0]+2/sd) > 1e-12 {
		t.Errorf("two widths: %v %v", obs, null)
	}
	// The statistic converges as B grows instead of growing with it: an
	// outlier among B null values 0, 1 alternating scores about 2(x − ½).
	for _, b := range []int{20, 2000} {
		nl := make([][]float64, b)
		for i := range nl {
			nl[i] = []float64{float64(i % 2), 0}
		}
		if obs, _ := combine([]float64{5.5, 0}, nl); math.Abs(obs-10) > 0.5 {
			t.Errorf("B = %d: statistic %v, want about 10", b, obs)
		}
	}
	// The largest standardised value wins, whichever width gives it.
	obs, _ = combine([]float64{0, 5}, [][]float64{{1, 0}, {2, 1}})
	if obs <= 0 {
		t.Errorf("the width that sees the difference should decide: %v", obs)
	}
}

func TestCombineWithoutSpread(t *testing.T) {
	t.Parallel()
	// Found by FuzzEstimators: no width's statistic varies (constant data).
	obs, null := combine([]float64{1, 2}, [][]float64{{1, 2}, {1, 2}})
	if obs != 0 || null[0] != 0 || null[1] != 0 {
		t.Errorf("%v %v, want all 0", obs, null)
	}
}

func TestBenjaminiHochberg(t *testing.T) {
	t.Parallel()
	// m = 4 tested p-values 0.01, 0.04, 0.03, 0.5 (one untested): sorted
	// 0.01, 0.03, 0.04, 0.5 give 4p/i = 0.04, 0.06, 0.0533, 0.5, and the
	// running minimum from the top 0.04, 0.0533, 0.0533, 0.5.
	s := []FeatureScore{{Tested: true, PValue: 0.01}, {Tested: true, PValue: 0.04}, {}, {Tested: true, PValue: 0.03}, {Tested: true, PValue: 0.5}}
	benjaminiHochberg(s)
	want := []float64{0.04, 0.16 / 3, 0, 0.16 / 3, 0.5}
	for i, f := range s {
		if math.Abs(f.QValue-want[i]) > 1e-12 {
			t.Errorf("feature %d: q %v, want %v", i, f.QValue, want[i])
		}
	}
}
