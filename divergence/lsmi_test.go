// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/testtier"
	"github.com/sublinear/pearson/kernel"
)

// bivariate returns n pairs from the standard bivariate normal with
// correlation rho, whose SMI is ρ²/(2(1−ρ²)).
func bivariate(n int, rho float64, rnd *rand.Rand) (x, y *mat.Dense) {
	x, y = mat.NewDense(n, 1, nil), mat.NewDense(n, 1, nil)
	for i := range n {
		a, b := rnd.NormFloat64(), rnd.NormFloat64()
		x.Set(i, 0, a)
		y.Set(i, 0, rho*a+math.Sqrt(1-rho*rho)*b)
	}
	return x, y
}

// directSMI computes the all-centre value ½hᵀ(H + λI)⁻¹h − ½ of LSMI's
// product basis straight from its definition: every x-value an x-centre and
// every y-value a y-centre (n² basis functions K(x, u_l)L(y, v_m)), exact
// averages, H = Hx ⊗ Hy built entry by entry and solved by LU.
func directSMI(x, y *mat.Dense, sx, sy, lambda float64) float64 {
	n, _ := x.Dims()
	phi := func(a, b []float64, s float64) float64 {
		d := 0.0
		for t := range a {
			d += (a[t] - b[t]) * (a[t] - b[t])
		}
		return math.Exp(-d / (2 * s * s))
	}
	k := func(i, l int) float64 { return phi(x.RawRowView(i), x.RawRowView(l), sx) }
	ly := func(i, l int) float64 { return phi(y.RawRowView(i), y.RawRowView(l), sy) }
	hx, hy := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
	for l := range n {
		for m := range n {
			var a, b float64
			for i := range n {
				a += k(i, l) * k(i, m) / float64(n)
				b += ly(i, l) * ly(i, m) / float64(n)
			}
			hx.Set(l, m, a)
			hy.Set(l, m, b)
		}
	}
	hm := mat.NewDense(n*n, n*n, nil)
	h := mat.NewVecDense(n*n, nil)
	for l := range n {
		for m := range n {
			for l2 := range n {
				for m2 := range n {
					v := hx.At(l, l2) * hy.At(m, m2)
					if l == l2 && m == m2 {
						v += lambda
					}
					hm.Set(l*n+m, l2*n+m2, v)
				}
			}
			for i := range n {
				h.SetVec(l*n+m, h.AtVec(l*n+m)+k(i, l)*ly(i, m)/float64(n))
			}
		}
	}
	var theta mat.VecDense
	if err := theta.SolveVec(hm, h); err != nil {
		panic(err)
	}
	return mat.Dot(h, &theta)/2 - 0.5
}

func TestLSMIExactMatchesDirectComputation(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 1))
	x := normal{[]float64{0, 0}, []float64{1, 1}}.sample(20, rnd)
	_, y := bivariate(20, 0.6, rnd)
	for i := range 20 {
		y.Set(i, 0, y.At(i, 0)+x.At(i, 0)) // depend on x
	}
	res, err := LSMI(ctx, x, y, &LSMISettings{SigmaX: 0.9, SigmaY: 1.3, Settings: Settings{Lambda: 0.05, Exact: true}})
	if err != nil {
		t.Fatal(err)
	}
	want := directSMI(x, y, 0.9, 1.3, 0.05)
	if math.Abs(res.SMI-want) > 1e-10*math.Abs(want) {
		t.Errorf("exact path %v, direct %v", res.SMI, want)
	}
	if !res.Exact || res.K != 20 || res.StdErr != 0 || res.CV != nil || res.SigmaX != 0.9 || res.SigmaY != 1.3 {
		t.Errorf("result fields %+v", res)
	}
}

func TestLSMIClosedForm(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	// Bivariate normals at n = 10⁴ with the defaults, against
	// SMI = ρ²/(2(1 − ρ²)), 10 seeds each; the targets are issue 13's.
	// Independence gives SMI = 0: the estimate's positive bias there comes
	// from the noise of the kernel model's M/2 averaged pairs (0.0017 mean
	// over these seeds); require 0.005. At ρ = 0.5 require a mean
	// |error| of 0.02 (12%; the seeds' spread is about 0.01). Strong
	// dependence is carried by the tails, where the ratio grows like
	// exp(ρt²/(1+ρ)) along the diagonal and E_pxy[r²] is infinite for
	// ρ > ½, so every estimate from data is heavy-tailed and biased low:
	// the Gaussian-copula model, which represents that growth, has over
	// 100 seeds a mean relative error of −2.8%, −6.8% and −19% at ρ = 0.7,
	// 0.8 and 0.9 on its own (TestCopulaGaussian, docs/RESULTS.md), with a
	// relative spread of 16% a fit at 0.9. Require issue 13's 10%, 15% and 25% of the mean
	// over 10 seeds, and that the means increase with ρ.
	testtier.Long(t, "60 cross-validated estimates at n = 10⁴")
	const seeds = 10
	means := map[float64]float64{}
	for _, rho := range []float64{0, 0.3, 0.5, 0.7, 0.8, 0.9} {
		truth := rho * rho / (2 * (1 - rho*rho))
		mae := 0.0
		for seed := range seeds {
			x, y := bivariate(10_000, rho, rand.New(rand.NewPCG(uint64(seed), 3)))
			r, err := LSMI(ctx, x, y, &LSMISettings{Settings: Settings{Src: rand.NewPCG(uint64(seed), 1)}})
			if err != nil {
				t.Fatal(err)
			}
			mae += math.Abs(r.SMI-truth) / seeds
			means[rho] += r.SMI / seeds
			t.Logf("ρ = %.1f seed %d: %.4f ± %.4f by the %s model (kernel %.4f, copula %.4f)", rho, seed, r.SMI, r.StdErr, r.Model, r.KernelSMI, r.CopulaSMI)
		}
		t.Logf("ρ = %.1f: SMI %.4f, mean estimate %.4f (%+.1f%%), mean |error| %.4f", rho, truth, means[rho], 100*(means[rho]/truth-1), mae)
		switch rho {
		case 0:
			if mae > 0.005 {
				t.Errorf("ρ = 0: mean |SMI| %.4f > 0.005", mae)
			}
		case 0.5:
			if mae > 0.02 {
				t.Errorf("ρ = 0.5: mean |error| %.4f > 0.02", mae)
			}
		case 0.7, 0.8, 0.9:
			if tol := map[float64]float64{0.7: 0.1, 0.8: 0.15, 0.9: 0.25}[rho]; math.Abs(means[rho]-truth) > tol*truth {
				t.Errorf("ρ = %.1f: mean estimate %.4f more than %.0f%% from %.4f", rho, means[rho], 100*tol, truth)
			}
		}
	}
	if !(means[0] < means[0.3] && means[0.3] < means[0.5] && means[0.5] < means[0.7] && means[0.7] < means[0.8] && means[0.8] < means[0.9]) {
		t.Errorf("estimates do not increase with ρ: %v", means)
	}
}

func TestLSMIErrors(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(2, 2))
	x, y := bivariate(100, 0.5, rnd)
	nan := mat.DenseCopyOf(y)
	for i := range 100 {
		nan.Set(i, 0, math.Inf(1))
	}
	for _, tc := range []struct {
		name string
		x, y mat.Matrix
		s    LSMISettings
		want error
		text string
	}{
		{"lengths", x, y.Slice(0, 99, 0, 1), LSMISettings{}, ErrDimension, "x has 100 rows but y has 99"},
		{"Inf", x, nan, LSMISettings{}, ErrNonFinite, "y: row"},
		{"constant", mat.NewDense(100, 1, nil), y, LSMISettings{}, ErrConstant, "constant variable"},
		{"σx < 0", x, y, LSMISettings{SigmaX: -1}, ErrSettings, "SigmaX = -1"},
		{"folds > rows", x.Slice(0, 6, 0, 1), y.Slice(0, 6, 0, 1), LSMISettings{}, ErrTooFew, "folds"},
		{"exact too large", mat.NewDense(MaxExact+1, 1, nil), mat.NewDense(MaxExact+1, 1, nil), LSMISettings{Settings: Settings{Exact: true}}, ErrTooLarge, "MaxExact"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LSMI(ctx, tc.x, tc.y, &tc.s)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Errorf("err = %v, want %v with %q", err, tc.want, tc.text)
			}
		})
	}
}

// rejectionRate runs a test on reps simulated data sets and returns the
// fraction of p-values at most 0.05.
func rejectionRate(t *testing.T, reps int, pvalue func(rep int) float64) float64 {
	t.Helper()
	rej := 0
	for r := range reps {
		if pvalue(r) <= 0.05 {
			rej++
		}
	}
	return float64(rej) / float64(reps)
}

// Calibration and power at n = 200, 200 repetitions each, B = 100
// permutations (the p-value's resolution is 1/101; the test rejects when at
// most 4 of 100 permuted statistics reach the observed one, an exact level
// of 5/101 = 0.0495). Under the null the number of rejections is
// Binomial(200, ≤ 0.05): above 0.08 (16 or more) has probability 0.04 for
// an exact test. Power must reach 0.8 against each alternative (measured:
// 0.98 and 0.86).

func TestTwoSampleCalibrationAndPower(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	testtier.Long(t, "400 permutation tests")
	s := &TwoSampleSettings{Permutations: 100}
	for _, c := range []struct {
		shift     float64
		check     func(rate float64) bool
		condition string
	}{
		{0, func(r float64) bool { return r <= 0.08 }, "≤ 0.08 under the null"},
		{0.5, func(r float64) bool { return r >= 0.8 }, "≥ 0.8 against a shift of 0.5 sd"},
	} {
		rate := rejectionRate(t, 200, func(rep int) float64 {
			rnd := rand.New(rand.NewPCG(uint64(rep), 11))
			p, _ := newPoints("P", normal{[]float64{0}, []float64{1}}.sample(200, rnd))
			q, _ := newPoints("Q", normal{[]float64{c.shift}, []float64{1}}.sample(200, rnd))
			res, err := twoSample(ctx, p, q, DefaultAlpha, s.resolved(), s.M, 0, rnd)
			if err != nil {
				t.Fatal(err)
			}
			return res.PValue
		})
		t.Logf("shift %.1f: rejection rate %.3f", c.shift, rate)
		if !c.check(rate) {
			t.Errorf("shift %.1f: rejection rate %.3f, want %s", c.shift, rate, c.condition)
		}
	}
}

func TestIndependenceCalibrationAndPower(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	testtier.Long(t, "400 permutation tests")
	s := &IndependenceSettings{Permutations: 100}
	// Y = 2XZ + noise with X, Z uniform on [−1, 1]: Y depends on X through
	// its spread only (E[Y|X] = 0), which a wide kernel alone misses (power
	// 0.67 with twice the median heuristic as its only width).
	spread := func(rnd *rand.Rand) (*mat.Dense, *mat.Dense) {
		x, y := mat.NewDense(200, 1, nil), mat.NewDense(200, 1, nil)
		for i := range 200 {
			a, z := 2*rnd.Float64()-1, 2*rnd.Float64()-1
			x.Set(i, 0, a)
			y.Set(i, 0, 2*a*z+0.2*rnd.NormFloat64())
		}
		return x, y
	}
	for _, c := range []struct {
		name      string
		data      func(*rand.Rand) (*mat.Dense, *mat.Dense)
		check     func(rate float64) bool
		condition string
	}{
		{"ρ = 0", func(r *rand.Rand) (*mat.Dense, *mat.Dense) { return bivariate(200, 0, r) }, func(r float64) bool { return r <= 0.08 }, "≤ 0.08 under independence"},
		{"ρ = 0.3", func(r *rand.Rand) (*mat.Dense, *mat.Dense) { return bivariate(200, 0.3, r) }, func(r float64) bool { return r >= 0.8 }, "≥ 0.8"},
		{"Y = 2XZ", spread, func(r float64) bool { return r >= 0.9 }, "≥ 0.9"},
	} {
		rate := rejectionRate(t, 200, func(rep int) float64 {
			rnd := rand.New(rand.NewPCG(uint64(rep), 13))
			x, y := c.data(rnd)
			px, py, _ := newPairs(x, y)
			res, err := independence(ctx, px, py, s.resolved(), rnd)
			if err != nil {
				t.Fatal(err)
			}
			return res.PValue
		})
		t.Logf("%s: rejection rate %.3f", c.name, rate)
		if !c.check(rate) {
			t.Errorf("%s: rejection rate %.3f, want %s", c.name, rate, c.condition)
		}
	}
}

func TestTestsPublicAPI(t *testing.T) {
	t.Parallel()
	// The public entry points: estimates included, results reproducible
	// whatever the workers, progress reported, cancellation honoured.
	rnd := rand.New(rand.NewPCG(4, 4))
	p := normal{[]float64{0}, []float64{1}}.sample(300, rnd)
	q := normal{[]float64{1}, []float64{1}}.sample(300, rnd)
	var calls, last int
	s := TwoSampleSettings{Permutations: 200}
	s.Progress = func(done, total int) { calls++; last = done }
	a, err := TwoSampleTest(ctx, p, q, DefaultAlpha, &s)
	if err != nil {
		t.Fatal(err)
	}
	if a.PE == nil || a.PE.PE <= 0 || len(a.Null) != 200 || a.PValue != 1.0/201 || calls == 0 || last != 200 {
		t.Errorf("two-sample: PE %v, %d null values, p %v, %d progress calls ending at %d", a.PE, len(a.Null), a.PValue, calls, last)
	}
	s1 := TwoSampleSettings{Permutations: 200}
	s1.Workers = 1
	b, err := TwoSampleTest(ctx, p, q, DefaultAlpha, &s1)
	if err != nil || b.Statistic != a.Statistic || b.PValue != a.PValue || b.PE.PE != a.PE.PE {
		t.Errorf("one worker: statistic %v p %v, two: %v %v (%v)", b.Statistic, b.PValue, a.Statistic, a.PValue, err)
	}
	for i := range a.Null {
		if a.Null[i] != b.Null[i] {
			t.Fatalf("null distribution depends on the workers at %d", i)
		}
	}
	// The tests' estimates are those of RelativePE and LSMI themselves,
	// bit for bit: a p-value is added, the estimate does not change.
	if pe, err := RelativePE(ctx, p, q, DefaultAlpha, &s1.PESettings); err != nil || pe.PE != a.PE.PE || pe.Sigma != a.PE.Sigma || pe.Lambda != a.PE.Lambda {
		t.Errorf("TwoSampleTest's PE %v (σ %v) differs from RelativePE's %v (σ %v), %v", a.PE.PE, a.PE.Sigma, pe.PE, pe.Sigma, err)
	}
	x, y := bivariate(300, 0.5, rnd)
	ir, err := IndependenceTest(ctx, x, y, &IndependenceSettings{Permutations: 200})
	if err != nil || ir.LSMI == nil || ir.PValue != 1.0/201 || len(ir.SigmasX) == 0 || ir.Lambda <= 0 {
		t.Fatalf("independence: %+v, %v", ir, err)
	}
	if l, err := LSMI(ctx, x, y, nil); err != nil || l.SMI != ir.LSMI.SMI || l.SigmaX != ir.LSMI.SigmaX {
		t.Errorf("IndependenceTest's SMI %v differs from LSMI's %v, %v", ir.LSMI.SMI, l.SMI, err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := IndependenceTest(cancelled, x, y, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := TwoSampleTest(ctx, p, q, DefaultAlpha, &TwoSampleSettings{Permutations: -1}); !errors.Is(err, ErrSettings) {
		t.Errorf("permutations < 0: %v", err)
	}
}

func TestRankInformativeFirst(t *testing.T) {
	t.Parallel()
	// y = sin(πx₀) + x₁² + x₂x₃ + x₄ + noise, ten features uniform on
	// [−1, 1]: five informative (x₂ and x₃ only through their interaction,
	// which leaves the mean of y unchanged given either one but not its
	// spread), five noise. Every informative feature must rank above every
	// noise feature. Feature 10 is constant: it scores 0 with a note.
	testtier.Long(t, "ten cross-validated estimates")
	const n = 4000
	rnd := rand.New(rand.NewPCG(5, 5))
	f := mat.NewDense(n, 11, nil)
	y := mat.NewDense(n, 1, nil)
	for i := range n {
		for j := range 10 {
			f.Set(i, j, 2*rnd.Float64()-1)
		}
		f.Set(i, 10, 3)
		x := f.RawRowView(i)
		y.Set(i, 0, math.Sin(math.Pi*x[0])+x[1]*x[1]+2*x[2]*x[3]+x[4]+0.2*rnd.NormFloat64())
	}
	res, err := Rank(ctx, f, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, fs := range res.Features {
		t.Logf("rank %2d: feature %d SMI %.4f ± %.4f %s", fs.Rank, fs.Column, fs.SMI, fs.StdErr, fs.Note)
	}
	for i, fs := range res.Features {
		if informative := fs.Column < 5; informative != (i < 5) {
			t.Errorf("feature %d at rank %d", fs.Column, fs.Rank)
		}
	}
	for _, fs := range res.Features {
		if fs.Column == 10 && (fs.SMI != 0 || fs.Rank <= 5 || !strings.Contains(fs.Note, "constant")) {
			t.Errorf("constant feature: %+v", fs)
		}
	}
	// A feature that differs from its common value on 10 rows of 10⁵ only
	// (the median heuristic's 500 rows rarely meet them) is not constant:
	// it gets a width from its rare rows and a positive score, and the
	// target, which it shifts by 5, depends on it.
	const big = 100_000
	rare := mat.NewDense(big, 1, nil)
	ry := mat.NewDense(big, 1, nil)
	for i := range big {
		if i%(big/10) == 7 {
			rare.Set(i, 0, 1)
		}
		ry.Set(i, 0, 5*rare.At(i, 0)+0.1*rnd.NormFloat64())
	}
	rr, err := Rank(ctx, rare, ry, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fs := rr.Features[0]; fs.Note != "" || !(fs.SigmaX > 0) || math.IsInf(fs.SigmaX, 0) || math.IsNaN(fs.SMI) {
		t.Errorf("rare-valued feature: %+v", fs)
	}

	// The same ranking with one worker, and p-values when asked for.
	one, err := Rank(ctx, f.Slice(0, n, 0, 3), y, &RankSettings{LSMISettings: LSMISettings{Settings: Settings{Workers: 1}}, PValuePermutations: 50})
	if err != nil {
		t.Fatal(err)
	}
	two, err := Rank(ctx, f.Slice(0, n, 0, 3), y, &RankSettings{LSMISettings: LSMISettings{Settings: Settings{Workers: 2}}, PValuePermutations: 50})
	if err != nil {
		t.Fatal(err)
	}
	for i := range one.Features {
		a, b := one.Features[i], two.Features[i]
		if a.Column != b.Column || a.SMI != b.SMI || a.PValue != b.PValue || !a.Tested {
			t.Errorf("rank %d: one worker %+v, two %+v", i+1, a, b)
		}
		// Features 0 and 1 act on the mean of y: no permutation comes close.
		// Feature 2 acts only through its interaction with feature 3, which
		// the test's wide kernels see less well.
		if a.Column < 2 && a.PValue > 1.0/51 {
			t.Errorf("informative feature %d: p-value %v", a.Column, a.PValue)
		}
	}
	if _, err := Rank(ctx, f, mat.NewDense(n, 1, nil), nil); !errors.Is(err, ErrConstant) {
		t.Errorf("constant target: %v", err)
	}
	if _, err := Rank(ctx, f, y.Slice(0, 10, 0, 1), nil); !errors.Is(err, ErrDimension) {
		t.Errorf("short target: %v", err)
	}
}

// Calibration beyond balanced 1-D samples, as in the tests above (200
// repetitions, B = 100, ≤ 0.08 rejections at level 0.05): 10:1 unbalanced
// and 5-D two-sample nulls, and a 5-D independence null.
func TestCalibrationUnbalancedAndFiveD(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	testtier.Long(t, "600 permutation tests")
	std := func(d int) normal {
		mean, sd := make([]float64, d), make([]float64, d)
		for i := range sd {
			sd[i] = 1
		}
		return normal{mean, sd}
	}
	for _, c := range []struct {
		name   string
		np, nq int
		dim    int
	}{{"two-sample 10:1", 400, 40, 1}, {"two-sample 5-D", 200, 200, 5}} {
		rate := rejectionRate(t, 200, func(rep int) float64 {
			rnd := rand.New(rand.NewPCG(uint64(rep), 17))
			p, _ := newPoints("P", std(c.dim).sample(c.np, rnd))
			q, _ := newPoints("Q", std(c.dim).sample(c.nq, rnd))
			res, err := twoSample(ctx, p, q, DefaultAlpha, (&TwoSampleSettings{Permutations: 100}).resolved(), 0, 0, rnd)
			if err != nil {
				t.Fatal(err)
			}
			return res.PValue
		})
		t.Logf("%s: rejection rate %.3f", c.name, rate)
		if rate > 0.08 {
			t.Errorf("%s: rejection rate %.3f under the null, want ≤ 0.08", c.name, rate)
		}
	}
	rate := rejectionRate(t, 200, func(rep int) float64 {
		rnd := rand.New(rand.NewPCG(uint64(rep), 19))
		px, py, _ := newPairs(std(5).sample(200, rnd), std(1).sample(200, rnd))
		res, err := independence(ctx, px, py, (&IndependenceSettings{Permutations: 100}).resolved(), rnd)
		if err != nil {
			t.Fatal(err)
		}
		return res.PValue
	})
	t.Logf("independence 5-D: rejection rate %.3f", rate)
	if rate > 0.08 {
		t.Errorf("independence 5-D: rejection rate %.3f under the null, want ≤ 0.08", rate)
	}
}

// TestAddCross checks LSMI's cross moment a·bᵀ (addCross) and the
// Frobenius inner product of the CV score (denseDot) against gonum's
// Dense.Mul and MulElem with Sum, on shapes that are not multiples of the
// tile (37×2003 and 29×2003), accumulating onto a non-zero destination: the
// two sum in different orders, so they agree to a few ulps of the sums of
// absolute values (n·ε relative, n = 2003).
func TestAddCross(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(7, 7))
	fill := func(r, c int) *mat.Dense {
		d := mat.NewDense(r, c, nil)
		for i := range r {
			for j := range c {
				d.Set(i, j, rnd.NormFloat64())
			}
		}
		return d
	}
	const n = 2003
	a, b, dst := fill(37, n), fill(29, n), fill(37, 29)
	var want mat.Dense
	want.Mul(a, b.T())
	want.Add(&want, dst)
	addCross(dst, a, b)
	tol := n * 1e-16 * float64(n) // |Σ aᵢbᵢ| ≤ Σ|aᵢbᵢ| ≈ n for standard normals
	for i := range 37 {
		for j := range 29 {
			if d := math.Abs(dst.At(i, j) - want.At(i, j)); d > tol {
				t.Fatalf("addCross[%d,%d] = %v, want %v (Dense.Mul)", i, j, dst.At(i, j), want.At(i, j))
			}
		}
	}
	c := fill(37, 29)
	var p mat.Dense
	p.MulElem(dst, c)
	if got, w := denseDot(dst, c), mat.Sum(&p); math.Abs(got-w) > 1e-9*(1+math.Abs(w)) {
		t.Fatalf("denseDot = %v, want %v (MulElem and Sum)", got, w)
	}
}

// TestLSMISpreadWarning checks the warning for numeric columns of x whose
// spreads differ by orders of magnitude (issue 37: unscaled, the narrow
// column's dependence is lost without a word), and its absence for
// columns of like spread.
func TestLSMISpreadWarning(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	const n = 400
	for _, scale := range []float64{1, 1e4} {
		x, y := mat.NewDense(n, 2, nil), mat.NewDense(n, 1, nil)
		for i := range n {
			a, b := rnd.NormFloat64(), rnd.NormFloat64()
			x.Set(i, 0, a)
			x.Set(i, 1, scale*b)
			y.Set(i, 0, a+rnd.NormFloat64())
		}
		r, err := LSMI(ctx, x, y, &LSMISettings{Settings: Settings{K: 20, M: 200, Draws: 2, Src: rand.NewPCG(3, 4)}, SigmaX: 1, SigmaY: 1})
		if err != nil {
			t.Fatal(err)
		}
		warned := strings.Contains(strings.Join(r.Warnings, "\n"), "differ in spread")
		if warned != (scale > 1) {
			t.Errorf("column spreads 1 and %g: warned %v, warnings %q", scale, warned, r.Warnings)
		}
	}
}

// TestPESpreadWarning checks RelativePE's warning for unscaled columns
// whose spreads differ by orders of magnitude (issue 37: with one kernel
// width the shift of the narrow column is lost and the divergence falls to
// about 0 without a word), and its absence for columns of like spread.
func TestPESpreadWarning(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for _, scale := range []float64{1, 1e4} {
		p, q := shiftedBeside(rnd, 1, scale), shiftedBeside(rnd, 0, scale)
		r, err := RelativePE(ctx, p, q, 0.5, &PESettings{Settings: Settings{K: 20, M: 200, Draws: 2, Lambda: 1e-3, Src: rand.NewPCG(3, 4)}, Sigma: scale})
		if err != nil {
			t.Fatal(err)
		}
		if warned := strings.Contains(strings.Join(r.Warnings, "\n"), "differ in spread"); warned != (scale > 1) {
			t.Errorf("column spreads 1 and %g: warned %v (PE %.3g), warnings %q", scale, warned, r.PE, r.Warnings)
		}
	}
}

// shiftedBeside returns 400 rows of a normal column shifted by shift beside
// a normal column of spread scale.
func shiftedBeside(rnd *rand.Rand, shift, scale float64) *mat.Dense {
	p := mat.NewDense(400, 2, nil)
	for i := range 400 {
		p.Set(i, 0, rnd.NormFloat64()+shift)
		p.Set(i, 1, scale*rnd.NormFloat64())
	}
	return p
}

// TestLSMIChoiceAllowance checks that reporting the larger of two models
// widens StdErr by half their gap when they agree within noise, and not
// when the gap is clear.
func TestLSMIChoiceAllowance(t *testing.T) {
	for _, c := range []struct {
		kernel, copula, want float64
		model                string
	}{
		{1.0, 1.1, math.Hypot(0.1, 0.05), ModelCopula}, // gap 0.1 within 2·√(0.1² + 0.1²)
		{1.0, 0.9, math.Hypot(0.1, 0.05), ModelKernel},
		{1.0, 2.0, 0.1, ModelCopula}, // gap 1: a clear choice
	} {
		r := &LSMIResult{SMI: c.kernel, KernelSMI: c.kernel, StdErr: 0.1, Model: ModelKernel}
		r.choose(&copulaFit{smi: c.copula, stderr: 0.1})
		if r.Model != c.model || math.Abs(r.StdErr-c.want) > 1e-12 {
			t.Errorf("kernel %g, copula %g: %s ± %g, want %s ± %g", c.kernel, c.copula, r.Model, r.StdErr, c.model, c.want)
		}
	}
}

// TestLSMINoiseBias checks noiseBias, the averages' noise bias of a draw's
// value, against the definition written out with the Kronecker product:
// φᵢ = K(xᵢ, u) ⊗ L(yᵢ, v) over the draw's pairs, A = (Hx ⊗ Hy + ρI)⁻¹ and
// ½(mean φᵢᵀAφᵢ − ĥᵀAĥ)/(P − 1), on the same rows (a generator cloned from
// the draw's).
func TestLSMINoiseBias(t *testing.T) {
	const n, k, half = 300, 4, 60
	rnd := rand.New(rand.NewPCG(7, 8))
	x, y := linkData(n, 1, math.Sin, 0, 0.5, rnd)
	px, py, err := newPairs(x, y)
	if err != nil {
		t.Fatal(err)
	}
	m := &lsmiModel{x: px, y: py, gx: kernel.Gaussian{Sigma: 0.7}, gy: kernel.Gaussian{Sigma: 0.5}, mh: half, mf: half}
	idx := []int{3, 50, 120, 250}
	const ridge = 1e-3
	value, _, got, _, err := m.value(idx, rand.New(rand.NewPCG(1, 1)), ridge, true)
	if err != nil {
		t.Fatal(err)
	}
	// The draw's rows, drawn as value draws them.
	r := rand.New(rand.NewPCG(1, 1))
	r.Uint64()
	pairs, yRows := px.draw(half, r), py.draw(half, r)
	u, _ := px.rows(idx)
	v, _ := py.rows(idx)
	feat := func(p *points, g kernel.Gaussian, c *mat.Dense, rows []int) *mat.Dense {
		b, _ := p.rows(rows)
		var kt mat.Dense
		g.MatrixTo(&kt, b, c) // rows × k
		return &kt
	}
	kx, ly, lh := feat(px, m.gx, u, pairs), feat(py, m.gy, v, yRows), feat(py, m.gy, v, pairs)
	var hx, hy mat.Dense
	hx.Mul(kx.T(), kx)
	hx.Scale(1.0/half, &hx)
	hy.Mul(ly.T(), ly)
	hy.Scale(1.0/half, &hy)
	var big mat.Dense
	big.Kronecker(&hx, &hy)
	for i := range k * k {
		big.Set(i, i, big.At(i, i)+ridge)
	}
	var a mat.Dense
	if err := a.Inverse(&big); err != nil {
		t.Fatal(err)
	}
	phi := mat.NewDense(half, k*k, nil)
	h := make([]float64, k*k)
	for i := range half {
		for p := range k {
			for q := range k {
				f := kx.At(i, p) * lh.At(i, q)
				phi.Set(i, p*k+q, f)
				h[p*k+q] += f / half
			}
		}
	}
	quad := func(f []float64) float64 {
		fv := mat.NewVecDense(len(f), f)
		var af mat.VecDense
		af.MulVec(&a, fv)
		return mat.Dot(fv, &af)
	}
	var mq float64
	for i := range half {
		mq += quad(phi.RawRowView(i)) / half
	}
	hah := quad(h)
	want := math.Max(0, (mq-hah)/2/(half-1))
	if math.Abs(hah/2-0.5-value) > 1e-9*math.Abs(value) {
		t.Fatalf("the direct value %.10g differs from the draw's %.10g: not the same rows", hah/2-0.5, value)
	}
	if !(want > 0) || math.Abs(got-want) > 1e-9*want {
		t.Errorf("noiseBias %.10g, the definition %.10g", got, want)
	}
}
