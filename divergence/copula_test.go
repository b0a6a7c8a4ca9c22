// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/testtier"
)

// gaussianRows draws m rows from N(0, r) and centres each column, so that
// the uncentred second moments copulaDensity reads are the covariances.
func gaussianRows(m int, r *mat.SymDense, rnd *rand.Rand) *mat.Dense {
	d := r.SymmetricDim()
	var ch mat.Cholesky
	if !ch.Factorize(r) {
		panic("gaussianRows: r is not positive definite")
	}
	var l mat.TriDense
	ch.LTo(&l)
	z := mat.NewDense(m, d, nil)
	e := make([]float64, d)
	for i := range m {
		for j := range e {
			e[j] = rnd.NormFloat64()
		}
		row := z.RawRowView(i)
		for a := range d {
			for b := 0; b <= a; b++ {
				row[a] += l.At(a, b) * e[b]
			}
		}
	}
	for c := range d {
		mean := 0.0
		for i := range m {
			mean += z.At(i, c) / float64(m)
		}
		for i := range m {
			z.Set(i, c, z.At(i, c)-mean)
		}
	}
	return z
}

// logNormal returns the log density of N(0, s) written out from its
// definition, −½(d log 2π + log|s| + zᵀs⁻¹z), by LU decomposition (not the
// Cholesky factorisation copulaDensity uses). gonum's distmv.Normal would
// do, but its package imports golang.org/x/tools, which go.sum does not
// hold.
func logNormal(s mat.Symmetric) func(z []float64) float64 {
	d := s.SymmetricDim()
	var lu mat.LU
	lu.Factorize(s)
	logdet, sign := lu.LogDet()
	if sign <= 0 {
		panic("logNormal: not positive definite")
	}
	return func(z []float64) float64 {
		var w mat.VecDense
		if err := lu.SolveVecTo(&w, false, mat.NewVecDense(d, slices.Clone(z))); err != nil {
			panic(err)
		}
		return -0.5 * (float64(d)*math.Log(2*math.Pi) + logdet + mat.Dot(mat.NewVecDense(d, slices.Clone(z)), &w))
	}
}

// TestCopulaDensity checks copulaDensity's log g = log c − ½zᵀPz against the
// definition of the copula ratio, log N(z; 0, R) − log N(z_x; 0, R_xx) −
// log N(z_y; 0, R_yy), each density written out (logNormal), with R read
// back from the same z (second moments over √ of the diagonal's product).
// Both sides are a few floating-point operations on the same R, so they
// agree to rounding: 10⁻⁹ relative (to max(1, |log g|)) leaves a factor
// 10⁵ or more over the double-precision error of a 4×4 Cholesky with R's
// condition number below 20.
func TestCopulaDensity(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		dx   int
		r    []float64
	}{
		{"2-D ρ = 0.6", 1, []float64{
			1, 0.6,
			0.6, 1}},
		{"3-D x two columns", 2, []float64{
			1, 0.3, 0.5,
			0.3, 1, -0.4,
			0.5, -0.4, 1}},
		{"4-D x two, y two", 2, []float64{
			1, 0.2, 0.5, 0.1,
			0.2, 1, -0.3, 0.4,
			0.5, -0.3, 1, 0.25,
			0.1, 0.4, 0.25, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := int(math.Round(math.Sqrt(float64(len(tc.r)))))
			z := gaussianRows(20_000, mat.NewSymDense(d, tc.r), rand.New(rand.NewPCG(11, uint64(d))))
			prec, logc, ok := copulaDensity(z, tc.dx)
			if !ok {
				t.Fatal("copulaDensity: R singular")
			}
			// R from z, as copulaDensity reads it: what is checked is P and
			// log c against the densities written out below.
			r := scoreCorrelation(z)
			joint := logNormal(r)
			nx := logNormal(r.SliceSym(0, tc.dx))
			ny := logNormal(r.SliceSym(tc.dx, d))
			points := [][]float64{
				make([]float64, d), // log g(0) = log c
				{0.5, -1, 2, 0.3},
				{-2.5, -2.5, -2.5, -2.5}, // far along the diagonal
				{3, -1.5, 0.7, -2},
				{1e-3, 4, -3, 1},
			}
			for _, p := range points {
				p = p[:d]
				want := joint(p) - nx(p[:tc.dx]) - ny(p[tc.dx:])
				q := 0.0
				for i := range d {
					for j := range d {
						q += p[i] * prec.At(i, j) * p[j]
					}
				}
				got := logc - q/2
				if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
					t.Errorf("z = %v: log g = %.15g, definition %.15g", p, got, want)
				}
			}
		})
	}
}

// TestNormalScores checks normalScores against the definition written out
// directly: the mid-rank of vᵢ counting from 0 is #{vⱼ < vᵢ} +
// (#{vⱼ = vᵢ} − 1)/2, its score Φ⁻¹((r + 1)/(m + 1)). The same quantile
// function is called on the same argument, so the scores must be equal
// bit for bit (the mid-ranks are halves of integers, exact in floating point).
func TestNormalScores(t *testing.T) {
	t.Parallel()
	direct := func(v []float64) []float64 {
		m := len(v)
		s := make([]float64, m)
		for i := range v {
			below, equal := 0, 0
			for _, w := range v {
				switch {
				case w < v[i]:
					below++
				case w == v[i]:
					equal++
				}
			}
			r := float64(below) + float64(equal-1)/2
			s[i] = distuv.UnitNormal.Quantile((r + 1) / float64(m+1))
		}
		return s
	}
	rnd := rand.New(rand.NewPCG(12, 12))
	// MaxClasses + 1 distinct values, shuffled, with ties of two, three and
	// four rows (m = 27), and negative values.
	var v []float64
	for c := range MaxClasses + 1 {
		v = append(v, float64(c)-7.5)
	}
	v = append(v, -7.5, 2.5, 2.5, 12.5, 12.5, 12.5)
	rnd.Shuffle(len(v), func(i, j int) { v[i], v[j] = v[j], v[i] })
	want := direct(v)
	got := slices.Clone(v)
	if !normalScores(got) {
		t.Fatalf("normalScores reports false for %d distinct values", MaxClasses+1)
	}
	for i := range v {
		if got[i] != want[i] {
			t.Errorf("v[%d] = %v: score %.17g, want %.17g", i, v[i], got[i], want[i])
		}
		// Ties share one score.
		for j := range v {
			if v[i] == v[j] && got[i] != got[j] {
				t.Errorf("tied values %v at %d and %d: scores %v, %v", v[i], i, j, got[i], got[j])
			}
		}
	}
	// The rule by hand, for one value of each kind (m = 27): the smallest
	// value −7.5 is tied twice, ranks 0 and 1, mid-rank ½, score
	// Φ⁻¹(1.5/28); 12.5 (four rows, the largest) has ranks 23…26, mid-rank
	// 24.5, score Φ⁻¹(25.5/28).
	for _, c := range []struct{ v, p float64 }{{-7.5, 1.5 / 28}, {12.5, 25.5 / 28}, {-6.5, 3.0 / 28}} {
		i := slices.Index(v, c.v)
		if w := distuv.UnitNormal.Quantile(c.p); got[i] != w {
			t.Errorf("score of %v = %.17g, want Φ⁻¹(%.4f) = %.17g", c.v, got[i], c.p, w)
		}
	}
	// Without ties the scores are the m quantiles (r+1)/(m+1), symmetric
	// about ½: they sum to zero (to rounding: 10⁻¹² over 101 scores of
	// size ≤ 2.4).
	u := make([]float64, 101)
	for i := range u {
		u[i] = rnd.Float64()
	}
	if !normalScores(u) {
		t.Fatal("normalScores reports false for 101 distinct values")
	}
	sum := 0.0
	for _, s := range u {
		sum += s
	}
	if math.Abs(sum) > 1e-12 {
		t.Errorf("scores of 101 distinct values sum to %g, want 0", sum)
	}
	// At most MaxClasses distinct values are class codes: false, however
	// many rows; MaxClasses + 1 are scored.
	for _, c := range []struct {
		distinct int
		want     bool
	}{{1, false}, {2, false}, {MaxClasses, false}, {MaxClasses + 1, true}} {
		w := make([]float64, 500)
		for i := range w {
			w[i] = float64(i % c.distinct)
		}
		if got := normalScores(w); got != c.want {
			t.Errorf("%d distinct values in 500 rows: normalScores = %v, want %v", c.distinct, got, c.want)
		}
	}
}

// copulaStudy fits the Gaussian-copula model alone to seeds bivariate
// normal samples of n rows at correlation rho, and returns the estimates
// and their standard errors.
func copulaStudy(t *testing.T, n, seeds int, rho float64) (smi, se []float64) {
	t.Helper()
	for seed := range seeds {
		x, y := bivariate(n, rho, rand.New(rand.NewPCG(uint64(seed), 13)))
		px, py, err := newPairs(x, y)
		if err != nil {
			t.Fatal(err)
		}
		c, ok, err := fitCopula(ctx, px, py, rand.New(rand.NewPCG(uint64(seed), 14)))
		if err != nil || !ok {
			t.Fatalf("ρ = %v seed %d: fitCopula ok = %v, %v", rho, seed, ok, err)
		}
		if c.rows != n || c.designEffect != 0 {
			t.Fatalf("ρ = %v seed %d: rows %d, design effect %v: want %d and 0", rho, seed, c.rows, c.designEffect, n)
		}
		smi, se = append(smi, c.smi), append(se, c.stderr)
	}
	return smi, se
}

// TestCopulaGaussian fits the copula model alone to bivariate normals,
// whose copula is Gaussian: the model holds, and its SMI ½E_p[g]²/E_q[g²] − ½
// with exact expectations is the truth ρ²/(2(1 − ρ²)). From data it is an
// average of g over the pairs, and E_pxy[g²] is infinite for ρ > ½: the
// average is heavy-tailed, usually short of its expectation (the rare rows
// deep in the tails that would carry it are missing), biased low as ρ grows.
//
// Measured (seeds 0–99, n = 10⁴): mean relative error −0.2%, −0.7%, −2.8%,
// −6.8%, −19.0% at ρ = 0.3, 0.5, 0.7, 0.8, 0.9 (lower medians +0.6%, −1.0%,
// −2.0%, −5.2%, −15.4%; two other data streams of 100 seeds gave −2.8%,
// −7.8%, −22.3% and −2.5%, −6.4%, −19.2% at 0.7–0.9, so the −0.3% at 0.7
// quoted in TestLSMIClosedForm is not the copula model's alone), with a seed-to-seed spread of 8%, 7%, 11%, 14%,
// 16% of the truth, so that the mean's standard error is 0.7–1.6 points;
// under independence a mean SMI of 1.0·10⁻⁴. The tolerances:
//   - ρ = 0: first order, SMI ≈ ½r̂² with n r̂² ~ χ²₁, mean 1/(2n) =
//     5·10⁻⁵, raised by the noise of E_q's pairings (measured 10⁻⁴):
//     require a mean in [−10⁻⁴, 3·10⁻⁴].
//   - ρ = 0.3, 0.5: the model is exact and E_p[g²] finite: the mean within
//     3% (four standard errors of the mean).
//   - ρ ≥ 0.7: no overshoot, the mean below +3% (three standard errors
//     above zero, where the low bias puts it further away), and within issue
//     13's 10%, 15%, 25% at ρ = 0.7, 0.8, 0.9 for the mean and the median
//     (at 0.9 the mean is 3.7 of its standard errors inside).
//
// StdErr's coverage, |SMI − truth| ≤ 2·StdErr, measured 100, 93, 97, 98, 97
// and 85 of 100 at ρ = 0 … 0.9: the delta method holds to ρ = 0.8 (require
// 90 of 100: nominal 95.4, binomial SD 2.1), and at ρ = 0.9 the bias (−19%
// against a StdErr of 16%) leaves it undercovering: logged, not asserted.
func TestCopulaGaussian(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	testtier.Long(t, "600 copula fits at n = 10⁴")
	const n, seeds = 10_000, 100
	for _, rho := range []float64{0, 0.3, 0.5, 0.7, 0.8, 0.9} {
		truth := rho * rho / (2 * (1 - rho*rho))
		smi, se := copulaStudy(t, n, seeds, rho)
		rel := make([]float64, seeds)
		covered := 0
		var mean, meanSE float64
		for i := range smi {
			if truth > 0 {
				rel[i] = smi[i]/truth - 1
			} else {
				rel[i] = smi[i]
			}
			mean += rel[i] / seeds
			meanSE += se[i] / seeds
			if math.Abs(smi[i]-truth) <= 2*se[i] {
				covered++
			}
		}
		sd := 0.0
		for _, r := range rel {
			sd += (r - mean) * (r - mean) / (seeds - 1)
		}
		sd = math.Sqrt(sd)
		med := median(rel)
		t.Logf("ρ = %.1f truth %.4f: mean rel %+.4f median rel %+.4f sd rel %.4f (sd/√seeds %.4f); mean stderr %.4g (%.4f of truth); coverage %d/%d; min %.4g max %.4g",
			rho, truth, mean, med, sd, sd/math.Sqrt(seeds), meanSE, meanSE/truth, covered, seeds, slices.Min(smi), slices.Max(smi))
		switch {
		case rho == 0:
			if !(mean >= -1e-4 && mean <= 3e-4) {
				t.Errorf("ρ = 0: mean SMI %.3g outside [−10⁻⁴, 3·10⁻⁴]", mean)
			}
		case rho <= 0.5:
			if math.Abs(mean) > 0.03 {
				t.Errorf("ρ = %.1f: mean relative error %+.4f beyond 3%%", rho, mean)
			}
		default:
			tol := map[float64]float64{0.7: 0.1, 0.8: 0.15, 0.9: 0.25}[rho]
			if mean > 0.03 || mean < -tol || med < -tol {
				t.Errorf("ρ = %.1f: mean relative error %+.4f, median %+.4f: want in [−%.2f, 0.03]", rho, mean, med, tol)
			}
		}
		if rho <= 0.8 && covered < 90 {
			t.Errorf("ρ = %.1f: |SMI − truth| ≤ 2·StdErr in %d of %d fits, want 90 or more", rho, covered, seeds)
		}
	}
}

// boundedSMI is the SMI of X ~ U(0, 1), Y = X + sε, ε ~ N(0, 1). With φ, Φ
// the standard normal density and distribution, p(y|x) = φ((y − x)/s)/s,
// p(y) = Φ(y/s) − Φ((y − 1)/s), and
//
//	SMI = ½ ∫ dy ∫₀¹ dx p(y|x)²/p(y) − ½,
//	∫₀¹ φ((y−x)/s)²/s² dx = ∫₀¹ e^{−(y−x)²/s²} dx/(2πs²)
//	                      = s√π (Φ(√2y/s) − Φ(√2(y−1)/s))/(2πs²)   (t = √2(y−x)/s)
//	                      = (Φ(√2y/s) − Φ(√2(y−1)/s))/(2s√π).
//
// The integrand falls like e^{−u²/2} (u the distance from [0, 1] in units
// of s) outside [0, 1] (the ratio Φ(√2u)/Φ(u) of the two tails), so
// [−8s, 1 + 8s] loses below 10⁻¹³; 4000-point Gauss–Legendre resolves the
// width-s edges (the value agrees with 2000 points to 10⁻¹⁰). Checked once
// against the double integral of p(y|x)²/p(y) by the midpoint rule on a
// 4000 × 2000 grid: 1.2558451 and 0.3166966 against 1.2558464 and
// 0.3166967 here, the midpoint rule's O(h²) error.
func boundedSMI(s float64) float64 {
	phi := distuv.UnitNormal.CDF
	f := func(y float64) float64 {
		num := (phi(math.Sqrt2*y/s) - phi(math.Sqrt2*(y-1)/s)) / (2 * s * math.Sqrt(math.Pi))
		return num / (phi(y/s) - phi((y-1)/s))
	}
	return quad.Fixed(f, -8*s, 1+8*s, 4000, quad.Legendre{}, 0)/2 - 0.5
}

// TestLSMIBoundedCopula runs LSMI on X ~ U(0, 1), Y = X + sε, whose copula
// is not Gaussian and whose dependence has lighter tails than a Gaussian
// copula's: the copula model's ratio is not the true one, and fitted by
// data averages (a projection of the true ratio onto θg) its SMI must not
// exceed the truth. With exact expectations it cannot: E_p[g] = E_q[rg] ≤
// (E_q[r²] E_q[g²])^½ (Cauchy–Schwarz, r the true ratio), so
// ½E_p[g]²/E_q[g²] − ½ ≤ ½E_q[r²] − ½ = SMI; only the averages' noise can
// lift it above. Measured (seeds 0–3): copula 0.68–0.93 (mean −38%) at
// s = 0.1 and 0.22–0.25 (−25%) at s = 0.3, a seed-to-seed spread of about
// 8% and 4% of the truth; require every seed below truth·1.05, which the
// noise alone would reach only at four and eight of those spreads above the
// bound's truth (further still above where the fits lie). The kernel model
// carries the estimate here: +0.4% and +1.8% mean (per seed −1%…+2.3% and
// −2.1%…+6.5%, StdErr 1.8% and 3.5% of the truth, so the mean of four has
// an error of about 1% and 2%); require the reported mean within 5%.
func TestLSMIBoundedCopula(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	testtier.Long(t, "8 cross-validated estimates at n = 10⁴")
	const n, seeds = 10_000, 4
	for _, s := range []float64{0.1, 0.3} {
		truth := boundedSMI(s)
		var mean, meanK, meanC float64
		for seed := range seeds {
			rnd := rand.New(rand.NewPCG(uint64(seed), 15))
			x, y := make([]float64, n), make([]float64, n)
			for i := range n {
				x[i] = rnd.Float64()
				y[i] = x[i] + s*rnd.NormFloat64()
			}
			r, err := LSMI(ctx, Column(x), Column(y), &LSMISettings{Settings: Settings{Src: rand.NewPCG(uint64(seed), 16)}})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("s = %.1f seed %d: %.4f ± %.4f by the %s model (kernel %.4f, copula %.4f), truth %.4f", s, seed, r.SMI, r.StdErr, r.Model, r.KernelSMI, r.CopulaSMI, truth)
			if !(r.CopulaSMI < truth*1.05) {
				t.Errorf("s = %.1f seed %d: copula SMI %.4f overshoots the truth %.4f by more than 5%%", s, seed, r.CopulaSMI, truth)
			}
			mean += r.SMI / seeds
			meanK += r.KernelSMI / seeds
			meanC += r.CopulaSMI / seeds
		}
		t.Logf("s = %.1f: truth %.4f, mean %.4f (%+.1f%%), kernel %.4f (%+.1f%%), copula %.4f (%+.1f%%)", s, truth, mean, 100*(mean/truth-1), meanK, 100*(meanK/truth-1), meanC, 100*(meanC/truth-1))
		if math.Abs(mean/truth-1) > 0.05 {
			t.Errorf("s = %.1f: mean SMI %.4f more than 5%% from %.4f", s, mean, truth)
		}
	}
}

// TestLSMIMultivariateGaussian runs LSMI on three independent standard
// normal columns X and Y = bᵀX + σε, b = (1, ½, 0), jointly Gaussian with
// one nonzero canonical correlation ρ² = |b|²/(|b|² + σ²). For jointly
// Gaussian variables SMI = ½(Π 1/(1 − ρᵢ²) − 1), here ρ²/(2(1 − ρ²)); σ² =
// |b|²(1 − ρ²)/ρ² sets ρ² = 0.64, SMI = 0.64/0.72 = 0.8889, the bivariate
// case ρ = 0.8 seen through three columns of which one is noise. The
// copula is Gaussian (with a 4×4 R), so the copula model holds: measured
// (seeds 0–3) 0.82, 0.80, 1.08, 0.87, mean +0.4%, against the kernel
// model's −24%; in the bivariate case at ρ = 0.8 the copula model's spread
// is 14% per fit (TestCopulaGaussian), 7% for the mean of four, with a
// −7% mean bias: require issue 13's 15% at ρ = 0.8 for the mean.
func TestLSMIMultivariateGaussian(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	testtier.Long(t, "4 cross-validated estimates at n = 10⁴")
	const n, seeds, rho2 = 10_000, 4, 0.64
	b := []float64{1, 0.5, 0}
	b2 := mat.Dot(mat.NewVecDense(3, b), mat.NewVecDense(3, b))
	sigma := math.Sqrt(b2 * (1 - rho2) / rho2)
	truth := rho2 / (2 * (1 - rho2))
	var mean, meanK, meanC float64
	for seed := range seeds {
		rnd := rand.New(rand.NewPCG(uint64(seed), 17))
		x, y := mat.NewDense(n, 3, nil), mat.NewDense(n, 1, nil)
		for i := range n {
			v := sigma * rnd.NormFloat64()
			for j := range 3 {
				x.Set(i, j, rnd.NormFloat64())
				v += b[j] * x.At(i, j)
			}
			y.Set(i, 0, v)
		}
		r, err := LSMI(ctx, x, y, &LSMISettings{Settings: Settings{Src: rand.NewPCG(uint64(seed), 18)}})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("seed %d: %.4f ± %.4f by the %s model (kernel %.4f, copula %.4f), truth %.4f", seed, r.SMI, r.StdErr, r.Model, r.KernelSMI, r.CopulaSMI, truth)
		mean += r.SMI / seeds
		meanK += r.KernelSMI / seeds
		meanC += r.CopulaSMI / seeds
	}
	t.Logf("truth %.4f, mean %.4f (%+.1f%%), kernel %.4f (%+.1f%%), copula %.4f (%+.1f%%)", truth, mean, 100*(mean/truth-1), meanK, 100*(meanK/truth-1), meanC, 100*(meanC/truth-1))
	if math.Abs(mean/truth-1) > 0.15 {
		t.Errorf("mean SMI %.4f more than 15%% from %.4f", mean, truth)
	}
}

// TestLSMICopulaModelChoice checks where the copula model does and does not apply,
// and that Model chooses the reported estimate.
func TestLSMICopulaModelChoice(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t) // single-threaded arithmetic, checked by the run without the detector
	// A class target (three codes, ClassSigma): the copula of normal
	// scores means nothing for labels, so LSMI reports the kernel model and
	// CopulaSMI NaN, and asking for the copula is an error.
	xc, labels := classSample(600, []float64{0.3, 0.3, 0.4}, []float64{-1.5, 0, 1.5}, rand.New(rand.NewPCG(19, 19)))
	codes, classes := ClassCodes(labels)
	if len(classes) != 3 {
		t.Fatalf("%d classes, want 3", len(classes))
	}
	r, err := LSMI(ctx, Column(xc), codes, &LSMISettings{SigmaY: ClassSigma, Settings: Settings{Src: rand.NewPCG(19, 20)}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Model != ModelKernel || !math.IsNaN(r.CopulaSMI) || r.SMI != r.KernelSMI {
		t.Errorf("class target: model %q, SMI %v, kernel %v, copula %v: want the kernel model and NaN", r.Model, r.SMI, r.KernelSMI, r.CopulaSMI)
	}
	const notApply = "the Gaussian-copula model does not apply"
	_, err = LSMI(ctx, Column(xc), codes, &LSMISettings{SigmaY: ClassSigma, Model: ModelCopula})
	if !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), notApply) {
		t.Errorf("class target with Model %q: err = %v, want ErrSettings", ModelCopula, err)
	}

	// A repeated column makes the scores' correlation matrix singular.
	x, y := bivariate(600, 0.5, rand.New(rand.NewPCG(21, 21)))
	twice := mat.NewDense(600, 2, nil)
	twice.SetCol(0, mat.Col(nil, 0, x))
	twice.SetCol(1, mat.Col(nil, 0, x))
	r, err = LSMI(ctx, twice, y, &LSMISettings{Settings: Settings{Src: rand.NewPCG(21, 22)}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Model != ModelKernel || !math.IsNaN(r.CopulaSMI) {
		t.Errorf("repeated column: model %q, copula %v: want the kernel model and NaN", r.Model, r.CopulaSMI)
	}
	_, err = LSMI(ctx, twice, y, &LSMISettings{Model: ModelCopula})
	if !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), notApply) {
		t.Errorf("repeated column with Model %q: err = %v, want ErrSettings", ModelCopula, err)
	}

	// Settings that name no model, or an exact copula.
	for _, c := range []struct {
		s    LSMISettings
		text string
	}{
		{LSMISettings{Model: "bogus"}, `Model "bogus"`},
		{LSMISettings{Model: ModelCopula, Settings: Settings{Exact: true}}, "cannot be exact"},
	} {
		if _, err := LSMI(ctx, x, y, &c.s); !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("Model %q Exact %v: err = %v, want ErrSettings with %q", c.s.Model, c.s.Exact, err, c.text)
		}
	}

	// At ρ = 0.8 the copula model's SMI exceeds the kernel model's (here
	// 0.9310 against 0.7526, truth 0.8889; the kernel model is about 20%
	// low there): "" reports it, ModelKernel the kernel
	// estimate and ModelCopula the copula's. The models are fitted from the
	// same seeds whatever Model says, so KernelSMI is the same number in all
	// three and CopulaSMI in the two that fit it (ModelKernel does not:
	// NaN).
	x, y = bivariate(3000, 0.8, rand.New(rand.NewPCG(23, 23)))
	fit := func(model string) *LSMIResult {
		r, err := LSMI(ctx, x, y, &LSMISettings{Model: model, Settings: Settings{Src: rand.NewPCG(23, 24)}})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("Model %q: %s %.4f ± %.4f (kernel %.4f, copula %.4f)", model, r.Model, r.SMI, r.StdErr, r.KernelSMI, r.CopulaSMI)
		return r
	}
	auto, kern, cop := fit(""), fit(ModelKernel), fit(ModelCopula)
	if !(auto.CopulaSMI > auto.KernelSMI) {
		t.Fatalf("ρ = 0.8: copula %v not above kernel %v; the case tests nothing", auto.CopulaSMI, auto.KernelSMI)
	}
	for _, c := range []struct {
		name  string
		r     *LSMIResult
		model string
		smi   float64
	}{
		{"auto", auto, ModelCopula, auto.CopulaSMI},
		{"kernel", kern, ModelKernel, kern.KernelSMI},
		{"copula", cop, ModelCopula, cop.CopulaSMI},
	} {
		if c.r.Model != c.model || c.r.SMI != c.smi {
			t.Errorf("%s: model %q SMI %v, want %q and %v", c.name, c.r.Model, c.r.SMI, c.model, c.smi)
		}
		wantC := auto.CopulaSMI
		if c.model == ModelKernel {
			wantC = math.NaN()
		}
		if c.r.KernelSMI != auto.KernelSMI || !(c.r.CopulaSMI == wantC || math.IsNaN(c.r.CopulaSMI) && math.IsNaN(wantC)) {
			t.Errorf("%s: kernel %v copula %v, want %v and %v", c.name, c.r.KernelSMI, c.r.CopulaSMI, auto.KernelSMI, wantC)
		}
	}
	if kern.StdErr == cop.StdErr {
		t.Errorf("kernel and copula report the same StdErr %v", kern.StdErr)
	}
}

// TestCopulaRepeatedYColumn checks that a repeated column of y, not only of
// x, makes the copula model refuse. The scores' correlation matrix R is
// then singular, but rounding can leave the last pivot of R's Cholesky
// factor a few ulps above zero while that of R_yy, [[1, 1], [1, 1]], is
// exactly zero: copulaDensity dereferenced R_yy's missing inverse (it
// panicked at n = 52 below). Every n must refuse, so the count of fits
// accepted is exactly 0; the n = 52 case is also run through LSMI, which
// must report the kernel model and CopulaSMI NaN.
func TestCopulaRepeatedYColumn(t *testing.T) {
	t.Parallel()
	sample := func(n int) (x, y *mat.Dense) {
		rnd := rand.New(rand.NewPCG(uint64(n), 9))
		x, y = mat.NewDense(n, 1, nil), mat.NewDense(n, 2, nil)
		rho := float64(n%10) / 10
		for i := range n {
			a := rnd.NormFloat64()
			b := rho*a + rnd.NormFloat64()
			x.Set(i, 0, a)
			y.Set(i, 0, b)
			y.Set(i, 1, b)
		}
		return x, y
	}
	accepted := 0
	for n := 30; n < 300; n++ {
		x, y := sample(n)
		px, err := newPoints("x", x)
		if err != nil {
			t.Fatal(err)
		}
		py, err := newPoints("y", y)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok, err := fitCopula(ctx, px, py, rand.New(rand.NewPCG(1, 2))); err != nil {
			t.Fatal(err)
		} else if ok {
			accepted++
		}
	}
	if accepted != 0 {
		t.Errorf("%d of 270 fits with a repeated y column accepted, want 0", accepted)
	}
	x, y := sample(52)
	r, err := LSMI(ctx, x, y, &LSMISettings{Settings: Settings{K: 10, M: 40, Draws: 2, Lambda: 1, Src: rand.NewPCG(52, 1)}, SigmaX: 1, SigmaY: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Model != ModelKernel || !math.IsNaN(r.CopulaSMI) {
		t.Errorf("repeated y column: model %q, copula %v: want the kernel model and NaN", r.Model, r.CopulaSMI)
	}
}

// TestCopulaDesign checks the copula model's standard error for rows drawn
// in two stages (Subsample.Units) against cases whose design effect is
// known. Each row its own draw: V_units = D/(D−1) Σ zⱼ² equals
// V_iid = m/(m−1) Σ eᵢ² exactly when D = m (n = 2000), and within
// (n/(n−1))/(m/(m−1)) − 1 ≈ −2·10⁻⁵ when the fit keeps m = copulaRows of
// n = 12000 rows; StdErr is then that of independent rows. Rows assigned
// to 100 draws at random: the draws are like random rows, the effect is 1
// in expectation with a spread about √(2/99) ≈ 0.14 (more for ψ's heavy
// tail at ρ = 0.6), so 1 ± 0.5. Every row from one draw: NaN, and StdErr
// that of independent rows.
func TestCopulaDesign(t *testing.T) {
	t.Parallel()
	fit := func(x, y *mat.Dense, units []int, draws int) copulaFit {
		t.Helper()
		n, _ := x.Dims()
		px, err := newPoints("x", Subsample{Matrix: x, Rows: n, Units: units, UnitDraws: draws})
		if err != nil {
			t.Fatal(err)
		}
		py, err := newPoints("y", y)
		if err != nil {
			t.Fatal(err)
		}
		c, ok, err := fitCopula(ctx, px, py, rand.New(rand.NewPCG(7, 8)))
		if err != nil || !ok {
			t.Fatalf("fitCopula: ok %v, err %v", ok, err)
		}
		return c
	}
	for _, n := range []int{2000, 12000} {
		x, y := bivariate(n, 0.6, rand.New(rand.NewPCG(uint64(n), 3)))
		iid := fit(x, y, nil, 0)
		if iid.designEffect != 0 {
			t.Errorf("n = %d, independent rows: design effect %v, want 0", n, iid.designEffect)
		}
		single := indices.Range(n)
		one := fit(x, y, single, n)
		if math.Abs(one.designEffect-1) > 1e-4 || math.Abs(one.stderr/iid.stderr-1) > 1e-4 || one.smi != iid.smi {
			t.Errorf("n = %d, a draw per row: effect %v, SMI %v ± %v; want 1 and %v ± %v", n, one.designEffect, one.smi, one.stderr, iid.smi, iid.stderr)
		}
		rnd := rand.New(rand.NewPCG(uint64(n), 4))
		random := make([]int, n)
		for i := range random {
			random[i] = rnd.IntN(100)
		}
		if r := fit(x, y, random, 100); math.Abs(r.designEffect-1) > 0.5 || r.stderr < iid.stderr {
			t.Errorf("n = %d, 100 random draws: effect %v, StdErr %v (independent %v); want 1 ± 0.5 and no smaller", n, r.designEffect, r.stderr, iid.stderr)
		} else {
			t.Logf("n = %d, 100 random draws: effect %.3f", n, r.designEffect)
		}
		if a := fit(x, y, make([]int, n), 3); !math.IsNaN(a.designEffect) || a.stderr != iid.stderr {
			t.Errorf("n = %d, one draw: effect %v, StdErr %v; want NaN and %v", n, a.designEffect, a.stderr, iid.stderr)
		}
	}
}

// TestCopulaRefusalNamesColumn checks that asking for the copula model
// where it does not apply says where: Rank with a binary feature among
// continuous ones failed with a message that named neither the feature
// nor the reason that held; and a monotone function of a column (here
// y = exp(x), whose normal scores equal x's; a decreasing one negates
// them) makes R singular as a repeated column does, which the message
// must say.
func TestCopulaRefusalNamesColumn(t *testing.T) {
	t.Parallel()
	const n = 400
	rnd := rand.New(rand.NewPCG(31, 31))
	features, target := mat.NewDense(n, 2, nil), mat.NewDense(n, 1, nil)
	for i := range n {
		a := rnd.NormFloat64()
		features.Set(i, 0, a+rnd.NormFloat64())
		features.Set(i, 1, float64(rnd.IntN(2)))
		target.Set(i, 0, a)
	}
	s := &RankSettings{LSMISettings: LSMISettings{Model: ModelCopula, Settings: Settings{K: 10, M: 100, Draws: 2, Lambda: 1}, SigmaX: 1, SigmaY: 1}}
	_, err := Rank(ctx, features, target, s)
	if want := "feature 1 column 0 holds 20 or fewer distinct values"; !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), want) {
		t.Errorf("Rank with a binary feature: err = %v, want ErrSettings naming %q", err, want)
	}
	x, _ := bivariate(n, 0.5, rand.New(rand.NewPCG(31, 32)))
	y := mat.NewDense(n, 1, nil)
	for i := range n {
		y.Set(i, 0, math.Exp(x.At(i, 0)))
	}
	_, err = LSMI(ctx, x, y, &s.LSMISettings)
	if want := "monotone function of another"; !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), want) {
		t.Errorf("LSMI with y = exp(x): err = %v, want ErrSettings saying %q", err, want)
	}
}

// TestCopulaSortedRows checks that the copula model's E_q does not depend on
// the order of the rows in the data: its pairings i ↦ i + s paired row
// indices, so in a file sorted by x a small shift paired each x with the y
// of a row of nearly the same x, a sample of the joint, not of the product
// of marginals; with 20 shifts the average over them is unbiased but
// stratified by them. Over 20 seeds at ρ = 0.8, n = 10⁴ (SMI 0.889) the
// root-mean-square error was 0.40 for the sorted rows (estimates 0.17 to
// 1.60) against 0.09 for the same rows unsorted, with StdErr about 0.1
// for both. The pairings now run over the rows in a random order: the
// RMS error of the sorted file must be that of the unsorted one, within
// the spread of an RMS over 20 heavy-tailed values (half of it either
// way), and below 0.2.
func TestCopulaSortedRows(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	const n, seeds, rho = 10_000, 20, 0.8
	truth := rho * rho / (2 * (1 - rho*rho))
	var sorted, unsorted float64
	for seed := range seeds {
		x, y := bivariate(n, rho, rand.New(rand.NewPCG(uint64(seed), 3)))
		idx := indices.Range(n)
		slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(x.At(a, 0), x.At(b, 0)) })
		xs, ys := mat.NewDense(n, 1, nil), mat.NewDense(n, 1, nil)
		for i, r := range idx {
			xs.Set(i, 0, x.At(r, 0))
			ys.Set(i, 0, y.At(r, 0))
		}
		fit := func(x, y *mat.Dense) float64 {
			px, err := newPoints("x", x)
			if err != nil {
				t.Fatal(err)
			}
			py, err := newPoints("y", y)
			if err != nil {
				t.Fatal(err)
			}
			c, ok, err := fitCopula(ctx, px, py, rand.New(rand.NewPCG(uint64(seed), 5)))
			if err != nil || !ok {
				t.Fatalf("seed %d: ok %v, err %v", seed, ok, err)
			}
			return c.smi
		}
		u, s := fit(x, y), fit(xs, ys)
		unsorted += (u - truth) * (u - truth) / seeds
		sorted += (s - truth) * (s - truth) / seeds
	}
	sorted, unsorted = math.Sqrt(sorted), math.Sqrt(unsorted)
	t.Logf("RMS error over %d seeds: sorted rows %.3f, unsorted %.3f", seeds, sorted, unsorted)
	if sorted > 0.2 || sorted > 1.5*unsorted || sorted < unsorted/1.5 {
		t.Errorf("RMS error of sorted rows %.3f, unsorted %.3f: want below 0.2 and within a factor 1.5", sorted, unsorted)
	}
}

// TestFirstCanonical checks firstCanonical against closed forms: ρ for a
// bivariate correlation matrix; the multiple correlation
// √(r_xyᵀ Rxx⁻¹ r_xy) for one y column (written out for two x columns);
// and, for two independent canonical pairs in a block-diagonal layout
// (x = (a, b), y = (c, d), corr(a, c) = 0.6, corr(b, d) = 0.3), the larger.
func TestFirstCanonical(t *testing.T) {
	t.Parallel()
	if got := firstCanonical(mat.NewSymDense(2, []float64{1, 0.7, 0.7, 1}), 1); math.Abs(got-0.7) > 1e-12 {
		t.Errorf("bivariate ρ = 0.7: %v", got)
	}
	// x₁, x₂ correlated 0.2; each with y: 0.5 and 0.4.
	r := mat.NewSymDense(3, []float64{1, 0.2, 0.5, 0.2, 1, 0.4, 0.5, 0.4, 1})
	a, b, c := 0.5, 0.4, 0.2
	want := math.Sqrt((a*a + b*b - 2*a*b*c) / (1 - c*c))
	if got := firstCanonical(r, 2); math.Abs(got-want) > 1e-12 {
		t.Errorf("multiple correlation: %v, want %v", got, want)
	}
	r4 := mat.NewSymDense(4, []float64{
		1, 0, 0.6, 0,
		0, 1, 0, 0.3,
		0.6, 0, 1, 0,
		0, 0.3, 0, 1})
	if got := firstCanonical(r4, 2); math.Abs(got-0.6) > 1e-12 {
		t.Errorf("two canonical pairs 0.6 and 0.3: %v", got)
	}
}
