// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// paperSamples returns the paper's samples: P = N(1, 0.5²) and
// Q = N(1.5, 0.5²), n and n′ rows.
func paperSamples(n, nq int) (x, y *mat.Dense) {
	rnd := rand.New(rand.NewPCG(1, 1))
	return normal{[]float64{1}, []float64{0.5}}.sample(n, rnd), normal{[]float64{1.5}, []float64{0.5}}.sample(nq, rnd)
}

var sinkPE float64

func benchPE(b *testing.B, x, y *mat.Dense, s PESettings) {
	b.Helper()
	for b.Loop() {
		ss := s
		ss.Src = rand.NewPCG(1, 2)
		r, err := RelativePE(ctx, x, y, DefaultAlpha, &ss)
		if err != nil {
			b.Fatal(err)
		}
		sinkPE = r.PE
	}
}

// BenchmarkRelativePE shows the cost of the constant-time estimate staying
// flat as the number of rows grows from 10⁴ to 10⁷ (n = n′), with σ and λ
// fixed (the estimate alone) and with cross-validation (what a user waits
// for), at the default k, m and draws.
func BenchmarkRelativePE(b *testing.B) {
	for _, n := range []int{1e4, 1e5, 1e6, 1e7} {
		x, y := paperSamples(n, n)
		b.Run(fmt.Sprintf("fixed/n=%.0e", float64(n)), func(b *testing.B) {
			benchPE(b, x, y, PESettings{Sigma: 0.5, Settings: Settings{Lambda: 1e-4 * float64(n)}})
		})
		b.Run(fmt.Sprintf("cv/n=%.0e", float64(n)), func(b *testing.B) {
			benchPE(b, x, y, PESettings{})
		})
	}
}

// BenchmarkRelativePEExactAverages shows the exact-averages mode (M =
// AllPoints) growing linearly with n: every point enters every average.
func BenchmarkRelativePEExactAverages(b *testing.B) {
	for _, n := range []int{1e4, 1e5, 1e6} {
		x, y := paperSamples(n, n)
		b.Run(fmt.Sprintf("n=%.0e", float64(n)), func(b *testing.B) {
			benchPE(b, x, y, PESettings{Sigma: 0.5, Settings: Settings{Lambda: 1e-4 * float64(n), M: AllPoints, Draws: 1}})
		})
	}
}

// BenchmarkRelativePEAllCentre compares the all-centre RuLSIF solution
// (every numerator point a centre, O(n³)) with the constant-time estimate on
// the paper's setting n = 2000, n′ = 200, σ and λ fixed.
func BenchmarkRelativePEAllCentre(b *testing.B) {
	x, y := paperSamples(2000, 200)
	s := PESettings{Sigma: 1, Settings: Settings{Lambda: 0.2}}
	b.Run("all-centre/n=2000", func(b *testing.B) {
		e := s
		e.Exact = true
		benchPE(b, x, y, e)
	})
	b.Run("constant-time/n=2000", func(b *testing.B) {
		benchPE(b, x, y, s)
	})
}

// BenchmarkTwoSampleTest is the two-sample test with B = 1000 permutations
// at n = n′ = 10⁵, estimate and cross-validation included.
func BenchmarkTwoSampleTest(b *testing.B) {
	x, y := paperSamples(100_000, 100_000)
	for b.Loop() {
		r, err := TwoSampleTest(ctx, x, y, DefaultAlpha, &TwoSampleSettings{Permutations: 1000})
		if err != nil {
			b.Fatal(err)
		}
		sinkPE = r.PValue
	}
}

// BenchmarkIndependenceTest is the independence test with B = 1000
// permutations at n = 10⁵, estimate and cross-validation included.
func BenchmarkIndependenceTest(b *testing.B) {
	x, y := bivariateBench(100_000, 0.3)
	for b.Loop() {
		r, err := IndependenceTest(ctx, x, y, &IndependenceSettings{Permutations: 1000})
		if err != nil {
			b.Fatal(err)
		}
		sinkPE = r.PValue
	}
}

// BenchmarkRank ranks 100 features of 10⁵ rows against a target depending
// on four of them, with both models (auto) and with the kernel model alone.
func BenchmarkRank(b *testing.B) {
	const n, p = 100_000, 100
	rnd := rand.New(rand.NewPCG(1, 1))
	f := mat.NewDense(n, p, nil)
	y := mat.NewDense(n, 1, nil)
	for i := range n {
		row := f.RawRowView(i)
		for j := range row {
			row[j] = 2*rnd.Float64() - 1
		}
		y.Set(i, 0, row[0]+row[1]*row[1]+row[2]*row[3]+0.3*rnd.NormFloat64())
	}
	// "kernel" is the kernel model alone, which gives the copula model's
	// share of the cost.
	for _, model := range []string{"", ModelKernel} {
		b.Run("model="+map[string]string{"": "auto"}[model]+model, func(b *testing.B) {
			for b.Loop() {
				r, err := Rank(ctx, f, y, &RankSettings{LSMISettings: LSMISettings{Model: model}})
				if err != nil {
					b.Fatal(err)
				}
				sinkPE = r.Features[0].SMI
			}
		})
	}
}

func bivariateBench(n int, rho float64) (x, y *mat.Dense) {
	return bivariate(n, rho, rand.New(rand.NewPCG(2, 2)))
}
