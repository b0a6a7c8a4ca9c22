// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// linkSMI is the truth SMI(X; Y) for Y = f(X₁) + bX₂ + sε, X and ε
// standard normal (b = 0: one column), by quadrature as sineSMI: with
// v = b² + s², p(y) = ∫φ(x)N(y; f(x), v)dx and, since N(y; μ, s²)² =
// N(y; μ, s²/2)/(2s√π), E_{p(x)}∫p(y|x)²/p(y)dy = 1/(2s√π)∫q(y)/p(y)dy
// with q(y) = ∫φ(x)N(y; f(x), b² + s²/2)dx.
func linkSMI(f func(float64) float64, b, s, ylo, yhi float64) float64 {
	mix := func(y, v float64) float64 {
		return quad.Fixed(func(x float64) float64 {
			return distuv.UnitNormal.Prob(x) * distuv.Normal{Mu: f(x), Sigma: math.Sqrt(v)}.Prob(y)
		}, -10, 10, 600, quad.Legendre{}, 0)
	}
	i := quad.Fixed(func(y float64) float64 { return mix(y, b*b+s*s/2) / mix(y, b*b+s*s) }, ylo, yhi, 600, quad.Legendre{}, 0)
	return i/(2*s*math.Sqrt(math.Pi))/2 - 0.5
}

// mixedSMI is the truth SMI(X; Y) for X = (C, X₁), C uniform on {0, 1, 2}
// and X₁ standard normal, and Y = a·C + sin 3X₁ + sε, by linkSMI's
// quadrature with the mixture over C: p(y) = ⅓Σ_c ∫φ(x)N(y; ac + sin 3x, s²)dx.
func mixedSMI(a, s float64) float64 {
	mix := func(y, v float64) float64 {
		var p float64
		for c := range 3 {
			p += quad.Fixed(func(x float64) float64 {
				return distuv.UnitNormal.Prob(x) * distuv.Normal{Mu: a*float64(c) + math.Sin(3*x), Sigma: math.Sqrt(v)}.Prob(y)
			}, -10, 10, 600, quad.Legendre{}, 0) / 3
		}
		return p
	}
	i := quad.Fixed(func(y float64) float64 { return mix(y, s*s/2) / mix(y, s*s) }, -3, 2*a+3, 800, quad.Legendre{}, 0)
	return i/(2*s*math.Sqrt(math.Pi))/2 - 0.5
}

// mixedData draws n rows of mixedSMI's X (the category as column 0,
// Categorical) and Y.
func mixedData(n int, a, s float64, rnd *rand.Rand) (x mat.Matrix, y *mat.Dense) {
	xd, y := mat.NewDense(n, 2, nil), mat.NewDense(n, 1, nil)
	for i := range n {
		c, v := float64(rnd.IntN(3)), rnd.NormFloat64()
		xd.Set(i, 0, c)
		xd.Set(i, 1, v)
		y.Set(i, 0, a*c+math.Sin(3*v)+s*rnd.NormFloat64())
	}
	return Categorical{Matrix: xd, Columns: []int{0}}, y
}

// linkData draws n rows of x (d standard normal columns) and y = f(x₁) +
// b·x₂ + s·ε.
func linkData(n, d int, f func(float64) float64, b, s float64, rnd *rand.Rand) (x, y *mat.Dense) {
	x, y = mat.NewDense(n, d, nil), mat.NewDense(n, 1, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, rnd.NormFloat64())
		}
		v := f(x.At(i, 0)) + s*rnd.NormFloat64()
		if d > 1 {
			v += b * x.At(i, 1)
		}
		y.Set(i, 0, v)
	}
	return x, y
}

// circleSMI is the truth SMI(X; Y) for X = cos Θ, Y = sin Θ + sε, Θ
// uniform on [0, 2π): given x, sin Θ = ±√(1 − x²) with equal chances, so
// with p(y) = 1/2π ∫N(y; sin θ, s²)dθ,
// SMI = ½ ∫ 1/2π ∫ (½N(y; sin θ, s²) + ½N(y; −sin θ, s²))² dθ / p(y) dy − ½.
func circleSMI(s float64) float64 {
	over := func(f func(th float64) float64) float64 {
		return quad.Fixed(f, 0, 2*math.Pi, 400, quad.Legendre{}, 0) / (2 * math.Pi)
	}
	return quad.Fixed(func(y float64) float64 {
		py := over(func(th float64) float64 { return distuv.Normal{Mu: math.Sin(th), Sigma: s}.Prob(y) })
		return over(func(th float64) float64 {
			a := (distuv.Normal{Mu: math.Sin(th), Sigma: s}.Prob(y) + distuv.Normal{Mu: -math.Sin(th), Sigma: s}.Prob(y)) / 2
			return a * a
		}) / py
	}, -1-8*s, 1+8*s, 600, quad.Legendre{}, 0)/2 - 0.5
}

// boundedAbsSMI is the truth SMI(X; Y) for X uniform on (−1, 1) and
// Y = |X| + sε: with T = |X| uniform on (0, 1), p(y) = ∫₀¹N(y; t, s²)dt and
// SMI = ½ ∫ ∫₀¹ N(y; t, s²)² dt / p(y) dy − ½.
func boundedAbsSMI(s float64) float64 {
	over := func(f func(t float64) float64) float64 { return quad.Fixed(f, 0, 1, 400, quad.Legendre{}, 0) }
	return quad.Fixed(func(y float64) float64 {
		py := over(func(t float64) float64 { return distuv.Normal{Mu: t, Sigma: s}.Prob(y) })
		return over(func(t float64) float64 {
			a := distuv.Normal{Mu: t, Sigma: s}.Prob(y)
			return a * a
		}) / py
	}, -8*s, 1+8*s, 600, quad.Legendre{}, 0)/2 - 0.5
}

// circleData draws n rows of circleSMI's X and Y.
func circleData(n int, s float64, rnd *rand.Rand) (x, y *mat.Dense) {
	x, y = mat.NewDense(n, 1, nil), mat.NewDense(n, 1, nil)
	for i := range n {
		th := 2 * math.Pi * rnd.Float64()
		x.Set(i, 0, math.Cos(th))
		y.Set(i, 0, math.Sin(th)+s*rnd.NormFloat64())
	}
	return x, y
}

// boundedAbsData draws n rows of boundedAbsSMI's X and Y.
func boundedAbsData(n int, s float64, rnd *rand.Rand) (x, y *mat.Dense) {
	x, y = mat.NewDense(n, 1, nil), mat.NewDense(n, 1, nil)
	for i := range n {
		v := 2*rnd.Float64() - 1
		x.Set(i, 0, v)
		y.Set(i, 0, math.Abs(v)+s*rnd.NormFloat64())
	}
	return x, y
}

func TestLinkSMIQuadrature(t *testing.T) {
	longStudies(t) // a few seconds of quadrature
	// Against sineSMI's own quadrature and TestLSMISine's midpoint rule.
	if got, want := linkSMI(func(x float64) float64 { return math.Sin(2 * x) }, 0.5, 0.4, -7, 7), sineSMI(); math.Abs(got-want) > 1e-6 {
		t.Errorf("sine of two columns: %.6f, sineSMI %.6f", got, want)
	}
	if got := linkSMI(func(x float64) float64 { return math.Sin(3 * x) }, 0, 0.3, -3, 3); math.Abs(got-0.85887) > 2e-4 {
		t.Errorf("sin 3x + 0.3ε: %.5f, the midpoint rule's 0.85887", got)
	}
	// Against sums on a 4000 × 4000 grid (numpy), another rule.
	if got := circleSMI(0.2); math.Abs(got-0.53560) > 2e-4 {
		t.Errorf("circle, s = 0.2: %.5f, the grid's 0.53560", got)
	}
	if got := boundedAbsSMI(0.1); math.Abs(got-1.25620) > 1e-3 {
		t.Errorf("|x| + 0.1ε on (−1, 1): %.5f, the grid's 1.25620", got)
	}
	// With a = 0 the category carries nothing: linkSMI's one-column value.
	if got, want := mixedSMI(0, 0.5), linkSMI(func(x float64) float64 { return math.Sin(3 * x) }, 0, 0.5, -3, 3); math.Abs(got-want) > 1e-6 {
		t.Errorf("mixed case with a = 0: %.6f, one column %.6f", got, want)
	}
}

// study is one case of TestLSMIStudy and BenchmarkLSMICoverage: a name,
// the relative error allowed on the mean of the runs not flagged, the
// truth, and a generator of n rows.
type study struct {
	name  string
	tol   float64
	truth float64
	gen   func(rnd *rand.Rand) (x mat.Matrix, y *mat.Dense)
}

// studyCases are issue 37's cases at n rows: truths in closed form
// (normals: ρ²/(2(1 − ρ²)) for the one canonical correlation ρ,
// linearIrrelevant) or by quadrature (linkSMI, mixedSMI, circleSMI,
// boundedAbsSMI). tol is 10% at 10⁴ rows; at 10³ the averages take every
// row and one run's error bar is up to a third of the truth: 15%.
func studyCases(n int) []study {
	sin3 := func(x float64) float64 { return math.Sin(3 * x) }
	sin2 := func(x float64) float64 { return math.Sin(2 * x) }
	cos2 := func(x float64) float64 { return math.Cos(2 * x) }
	tol := 0.10
	if n < 10_000 {
		tol = 0.15
	}
	normal := func(name string, d, r int, rho float64) study {
		return study{name, tol, rho * rho / 2 / (1 - rho*rho), func(rnd *rand.Rand) (x mat.Matrix, y *mat.Dense) { return linearIrrelevant(n, d, r, rho, rnd) }}
	}
	link := func(name string, d int, f func(float64) float64, b, s, lo, hi float64) study {
		return study{name, tol, linkSMI(f, b, s, lo, hi), func(rnd *rand.Rand) (x mat.Matrix, y *mat.Dense) { return linkData(n, d, f, b, s, rnd) }}
	}
	return []study{
		normal("normal ρ = 0.3", 1, 1, 0.3),
		normal("normal ρ = 0.5", 1, 1, 0.5),
		normal("normal ρ = 0.7", 1, 1, 0.7),
		normal("normal ρ = 0.9", 1, 1, 0.9),
		normal("normal ρ = 0.95", 1, 1, 0.95),
		normal("normal ρ = 0.6, x 2 columns", 2, 2, 0.6),
		normal("normal ρ = 0.8, x 3 columns, 1 irrelevant", 3, 2, 0.8),
		link("sin 3x + 0.3ε", 1, sin3, 0, 0.3, -3, 3),
		link("|x| + 0.5ε", 1, math.Abs, 0, 0.5, -4, 12),
		{"circle: cos θ, sin θ + 0.2ε", tol, circleSMI(0.2), func(rnd *rand.Rand) (x mat.Matrix, y *mat.Dense) { return circleData(n, 0.2, rnd) }},
		{"|x| + 0.1ε, x uniform on (−1, 1)", tol, boundedAbsSMI(0.1), func(rnd *rand.Rand) (x mat.Matrix, y *mat.Dense) { return boundedAbsData(n, 0.1, rnd) }},
		link("sin 3x + 0.3ε, 2 irrelevant columns", 3, sin3, 0, 0.3, -3, 3),
		link("sin 2x₁ + 0.5x₂ + 0.4ε, 1 irrelevant", 3, sin2, 0.5, 0.4, -7, 7),
		link("cos 2x₁ + 0.5x₂ + 0.4ε", 2, cos2, 0.5, 0.4, -7, 7),
		{"category C and x₁, 0.5C + sin 3x₁ + 0.5ε", tol, mixedSMI(0.5, 0.5), func(rnd *rand.Rand) (x mat.Matrix, y *mat.Dense) { return mixedData(n, 0.5, 0.5, rnd) }},
	}
}

// TestLSMIStudy is issue 37's accuracy and coverage check of LSMI at its
// defaults (both models, the larger reported): studyCases at n = 10⁴ and
// three of them at 10³ (the sine, ρ = 0.5, and ρ = 0.9 where the copula
// model's flag matters most), 6 fresh data sets and seeds per case. A run
// is covered when |SMI − truth| ≤ 2·StdErr; a run flagged LowerBound must
// lie below the truth (or within 2·StdErr of it). The tolerances follow
// from the runs' own spread, the 20-run table being BenchmarkLSMICoverage's
// (docs/RESULTS.md):
//
//   - at most 2 of a case's 6 runs miss unflagged: a case covered at the
//     issue's floor of 90% passes with chance 98.4%, one covered at 50%
//     fails with chance 66%;
//   - at most 9 unflagged misses in all (≈ 108 runs): 5% of them plus two
//     binomial standard errors at the nominal 95%;
//   - where three or more runs are not flagged, the mean of their relative
//     errors lies within tol (10%; 15% at 10³ rows) plus two standard
//     errors of that mean (the spread of one run is up to a quarter of the
//     truth at small SMI, so a single run is not held to 10%).
func TestLSMIStudy(t *testing.T) {
	t.Parallel()
	longStudies(t)
	cases := studyCases(10_000)
	for _, c := range studyCases(1_000) {
		switch c.name {
		case "sin 3x + 0.3ε", "normal ρ = 0.5", "normal ρ = 0.9":
			c.name += ", 10³ rows"
			cases = append(cases, c)
		}
	}
	total, misses := 0, 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runs, missed := studyCase(t, c)
			total, misses = total+runs, misses+missed
		})
	}
	if limit := 0.05*float64(total) + 2*math.Sqrt(float64(total)*0.05*0.95); float64(misses) > limit {
		t.Errorf("%d of %d runs miss the truth unflagged, more than %.1f", misses, total, limit)
	}
}

// studyCase runs TestLSMIStudy's seeds on one case and returns the runs and
// the unflagged misses.
func studyCase(t *testing.T, c study) (runs, missed int) {
	const seeds = 6
	covered, flagged := 0, 0
	var relErr float64
	var unflaggedErr []float64
	for seed := range seeds {
		x, y := c.gen(rand.New(rand.NewPCG(uint64(seed), 37)))
		r, err := LSMI(ctx, x, y, &LSMISettings{Settings: Settings{Src: rand.NewPCG(uint64(seed), 38)}})
		if err != nil {
			t.Fatal(err)
		}
		e := r.SMI/c.truth - 1
		relErr += e / seeds
		in := math.Abs(r.SMI-c.truth) <= 2*r.StdErr
		if in {
			covered++
		}
		if r.LowerBound {
			flagged++
			if r.SMI > c.truth+2*r.StdErr {
				t.Errorf("%s, seed %d: flagged a lower bound, but %.4f ± %.4f lies above the truth %.4f", c.name, seed, r.SMI, r.StdErr, c.truth)
			}
			continue
		}
		unflaggedErr = append(unflaggedErr, e)
		if !in {
			missed++
			t.Logf("miss: %s, seed %d: %.4f ± %.4f (%s), truth %.4f (z = %.1f), not flagged", c.name, seed, r.SMI, r.StdErr, r.Model, c.truth, (r.SMI-c.truth)/r.StdErr)
		}
	}
	mean, sd := math.NaN(), 0.0
	if len(unflaggedErr) > 0 {
		mean, sd = stat.MeanStdDev(unflaggedErr, nil)
	}
	t.Logf("%s (SMI %.4f): mean error %+.1f%%, within 2·StdErr %d/%d, flagged lower bound %d, mean error of the %d unflagged %+.1f%%", c.name, c.truth, 100*relErr, covered, seeds, flagged, len(unflaggedErr), 100*mean)
	if missed > 2 {
		t.Errorf("%s: %d of %d runs miss the truth unflagged, more than 2", c.name, missed, seeds)
	}
	if k := len(unflaggedErr); k >= 3 {
		if lim := c.tol + 2*sd/math.Sqrt(float64(k)); math.Abs(mean) > lim {
			t.Errorf("%s: mean error of the %d unflagged runs %+.1f%%, beyond %.1f%% (%.0f%% and two standard errors)", c.name, k, 100*mean, 100*lim, 100*c.tol)
		}
	}
	return seeds, missed
}
