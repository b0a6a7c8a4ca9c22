// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sublinear/pearson/internal/testtier"
)

// sineSMI is the truth SMI(X; Y) for Y = sin 2X₁ + 0.5X₂ + 0.4ε, X and ε
// standard normal (any further columns of X independent of Y), by
// quadrature. With N(y; μ, v) the normal density, p(y|x) = N(y; m, 0.16),
// m = sin 2x₁ + 0.5x₂; integrating x₂ out, p(y) = ∫φ(x₁) N(y; sin 2x₁,
// 0.41) dx₁, and since N(y; μ, s²)² = N(y; μ, s²/2)/(2s√π),
//
//	E_{p(x)}∫ p(y|x)²/p(y) dy = 1/(0.8√π) ∫ q(y)/p(y) dy,
//	q(y) = ∫φ(x₁) N(y; sin 2x₁, 0.33) dx₁,
//
// SMI = ½ of that − ½: nested Gauss–Legendre rules of 600 points over
// x₁ ∈ [−10, 10] and y ∈ [−7, 7] (the tails beyond are below 1e−10).
func sineSMI() float64 {
	mix := func(y, v float64) float64 {
		return quad.Fixed(func(x float64) float64 {
			return distuv.UnitNormal.Prob(x) * distuv.Normal{Mu: math.Sin(2 * x), Sigma: math.Sqrt(v)}.Prob(y)
		}, -10, 10, 600, quad.Legendre{}, 0)
	}
	i := quad.Fixed(func(y float64) float64 { return mix(y, 0.33) / mix(y, 0.41) }, -7, 7, 600, quad.Legendre{}, 0)
	return i/(0.8*math.Sqrt(math.Pi))/2 - 0.5
}

// sineData draws n rows of x (d standard normal columns) and y =
// sin 2x₁ + 0.5x₂ + 0.4ε.
func sineData(n, d int, rnd *rand.Rand) (x, y *mat.Dense) {
	x, y = mat.NewDense(n, d, nil), mat.NewDense(n, 1, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, rnd.NormFloat64())
		}
		y.Set(i, 0, math.Sin(2*x.At(i, 0))+0.5*x.At(i, 1)+0.4*rnd.NormFloat64())
	}
	return x, y
}

func TestSineSMIQuadrature(t *testing.T) {
	t.Parallel()
	// The value, from two other quadratures.
	truth := sineSMI()
	if math.Abs(truth-1.389) > 0.002 {
		t.Errorf("quadrature %.5f, the issue's 1.389", truth)
	}
}

// TestLSMIIrrelevantColumn checks that the width per column finds an
// irrelevant column of x (its factor 64) and leaves the relevant ones
// within a factor 2 of each other, on 4000 rows.
func TestLSMIIrrelevantColumn(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t) // single-threaded arithmetic, checked by the run without the detector
	x, y := sineData(4000, 3, rand.New(rand.NewPCG(1, 2)))
	r, err := LSMI(ctx, x, y, &LSMISettings{Model: ModelKernel, Settings: Settings{Src: rand.NewPCG(3, 4)}})
	if err != nil {
		t.Fatal(err)
	}
	if f := r.FactorsX; len(f) != 3 || f[2] < 64 || f[0] > 2*f[1] || f[1] > 2*f[0] {
		t.Errorf("factors %v: want the third 64 or more, the first two within a factor 2", f)
	}
	t.Logf("SMI %.4f ± %.4f (truth %.4f), factors %v", r.SMI, r.StdErr, sineSMI(), r.FactorsX)
}

// TestLSMIRelevanceStudy checks that relevanceX finds the irrelevant
// column of the case, Y = sin 2X₁ + 0.5X₂ + 0.4ε beside an
// irrelevant X₃, n = 10⁴: the factor of X₃ is 64 on at least 9 of 10 seeds
// (measured 20 of 20 with the whole LSMI, and 10 of 10 here; 9 of 10 lets
// one seed's design fall short without hiding a rule that finds the column
// on fewer than about 3 in 4 data sets, which would pass 9 of 10 with
// chance below 0.25). It runs relevanceX alone, on the generator LSMI hands
// it, so that the factors are those LSMI would use; what the factors change
// in the estimate is BenchmarkLSMIRelevance's measurement.
func TestLSMIRelevanceStudy(t *testing.T) {
	t.Parallel()
	longStudies(t)
	const seeds = 10
	found := 0
	for seed := range uint64(seeds) {
		x, y := sineData(10_000, 3, rand.New(rand.NewPCG(seed, 41)))
		s := (&LSMISettings{Model: ModelKernel, Settings: Settings{Src: rand.NewPCG(seed, 42)}}).resolved()
		px, py, rnd, err := scaledPairs(x, y, s)
		if err != nil {
			t.Fatal(err)
		}
		f, err := relevanceX(ctx, px, py, s, rnd)
		if err != nil {
			t.Fatal(err)
		}
		if f[2] >= 64 {
			found++
		} else {
			t.Logf("seed %d: factors %v", seed, f)
		}
	}
	t.Logf("X₃ found irrelevant in %d of %d seeds", found, seeds)
	if found < seeds-1 {
		t.Errorf("X₃ found irrelevant in %d of %d seeds, want %d or more", found, seeds, seeds-1)
	}
}

// BenchmarkLSMIRelevance measures what relevanceX changes on
// TestLSMIRelevanceStudy's case, over 20 seeds with and without the width
// per column (the kernel model): the mean relative error, the runs within
// 2·StdErr, how often X₃'s factor is 64, and CPU seconds per run.
// docs/RESULTS.md records it:
//
//	go test -run '^$' -bench LSMIRelevance -benchtime 1x ./divergence
func BenchmarkLSMIRelevance(b *testing.B) {
	truth := sineSMI()
	const seeds = 20
	for b.Loop() {
		for _, with := range []bool{true, false} {
			in, found := 0, 0
			mean := 0.0
			t0 := cpuSeconds()
			for seed := range uint64(seeds) {
				x, y := sineData(10_000, 3, rand.New(rand.NewPCG(seed, 41)))
				r, err := LSMI(ctx, x, y, &LSMISettings{Model: ModelKernel, oneWidth: !with, Settings: Settings{Src: rand.NewPCG(seed, 42)}})
				if err != nil {
					b.Fatal(err)
				}
				if math.Abs(r.SMI-truth) <= 2*r.StdErr {
					in++
				}
				if r.FactorsX != nil && r.FactorsX[2] >= 64 {
					found++
				}
				mean += (r.SMI/truth - 1) / seeds
			}
			fmt.Printf("width per column %v: mean error %+.1f%%, %d of %d within 2·StdErr, X₃ found irrelevant in %d, %.2f CPU-s per run\n", with, 100*mean, in, seeds, found, (cpuSeconds()-t0)/seeds)
		}
	}
}
