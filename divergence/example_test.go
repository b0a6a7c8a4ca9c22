// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence_test

import (
	"context"
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
)

// The paper's example: P = N(1, 0.5²) and Q = N(1.5, 0.5²), here with a
// million points each. PE_½(P‖Q) = 0.1020 by numerical integration.
func ExampleRelativePE() {
	rnd := rand.New(rand.NewPCG(1, 2))
	n := 1_000_000
	p, q := make([]float64, n), make([]float64, n)
	for i := range n {
		p[i] = 1 + 0.5*rnd.NormFloat64()
		q[i] = 1.5 + 0.5*rnd.NormFloat64()
	}
	res, err := divergence.RelativePE(context.Background(),
		mat.NewVecDense(n, p), mat.NewVecDense(n, q), divergence.DefaultAlpha,
		&divergence.PESettings{Settings: divergence.Settings{Src: rand.NewPCG(3, 4)}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("PE = %.3f ± %.3f from %d draws of k = %d centres and m = %d points\n", res.PE, res.StdErr, len(res.Draws), res.K, res.M)

	// The fitted relative ratio r̂ ≈ p/(½p + ½q), as importance weights,
	// beside the true ratio.
	x := []float64{0.5, 1.25, 2}
	w, err := res.Ratio.Eval(mat.NewVecDense(3, x))
	if err != nil {
		log.Fatal(err)
	}
	for i, xi := range x {
		pd := math.Exp(-2 * (xi - 1) * (xi - 1))
		qd := math.Exp(-2 * (xi - 1.5) * (xi - 1.5))
		fmt.Printf("r̂(%.2f) = %.2f, true %.2f\n", xi, w[i], pd/(pd/2+qd/2))
	}
	// Output:
	// PE = 0.104 ± 0.003 from 6 draws of k = 100 centres and m = 4000 points
	// r̂(0.50) = 1.64, true 1.64
	// r̂(1.25) = 0.99, true 1.00
	// r̂(2.00) = 0.36, true 0.36
}

// The simplest call: two plain slices, every setting at its default.
func ExampleColumn() {
	rnd := rand.New(rand.NewPCG(1, 2))
	p, q := make([]float64, 2000), make([]float64, 2000)
	for i := range p {
		p[i] = rnd.NormFloat64()
		q[i] = 0.5 + rnd.NormFloat64()
	}
	res, err := divergence.RelativePE(context.Background(), divergence.Column(p), divergence.Column(q), divergence.DefaultAlpha, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("PE = %.2f ± %.2f\n", res.PE, res.StdErr)
	// Output:
	// PE = 0.03 ± 0.00
}

// Two-dimensional points as a [][]float64: the second sample is rotated by
// 90 degrees, which changes neither marginal's spread. PE_½ = 0.303 by
// quadrature.
func ExampleRows() {
	rnd := rand.New(rand.NewPCG(1, 2))
	p, q := make([][]float64, 1000), make([][]float64, 1000)
	for i := range p {
		x, y := 2*rnd.NormFloat64(), 0.5*rnd.NormFloat64()
		p[i] = []float64{x, y}
		x, y = 2*rnd.NormFloat64(), 0.5*rnd.NormFloat64()
		q[i] = []float64{y, x}
	}
	s := &divergence.PESettings{Settings: divergence.Settings{K: 50, M: 1000}}
	res, err := divergence.RelativePE(context.Background(), divergence.Rows(p), divergence.Rows(q), divergence.DefaultAlpha, s)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("PE = %.2f ± %.2f\n", res.PE, res.StdErr)
	// Output:
	// PE = 0.31 ± 0.01
}

// The squared-loss mutual information of a bivariate normal with
// correlation ρ = 0.6 is ρ²/(2(1 − ρ²)) = 0.28; the kernel model's
// regularisation makes LSMI a little low for strong dependence.
func ExampleLSMI() {
	rnd := rand.New(rand.NewPCG(1, 2))
	n := 5000
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i] = rnd.NormFloat64()
		y[i] = 0.6*x[i] + 0.8*rnd.NormFloat64()
	}
	res, err := divergence.LSMI(context.Background(), divergence.Column(x), divergence.Column(y), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("SMI = %.2f ± %.2f\n", res.SMI, res.StdErr)
	// Output:
	// SMI = 0.27 ± 0.03
}

// A shift of a third of a standard deviation, detected by the permutation
// test at level 0.05 (PE_½ = 0.0133 by quadrature; 500 rows each).
func ExampleTwoSampleTest() {
	rnd := rand.New(rand.NewPCG(1, 2))
	p, q := make([]float64, 500), make([]float64, 500)
	for i := range p {
		p[i] = rnd.NormFloat64()
		q[i] = 0.33 + rnd.NormFloat64()
	}
	s := &divergence.TwoSampleSettings{Permutations: 200, Points: 1000}
	s.K, s.M = 50, 1000
	res, err := divergence.TwoSampleTest(context.Background(), divergence.Column(p), divergence.Column(q), divergence.DefaultAlpha, s)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("PE = %.3f, p-value %.3f over %d permutations: reject at 0.05: %v\n", res.PE.PE, res.PValue, res.Permutations, res.PValue <= 0.05)
	// Output:
	// PE = 0.010, p-value 0.005 over 200 permutations: reject at 0.05: true
}

// Dependence through the spread only: y = x·z, uncorrelated with x.
func ExampleIndependenceTest() {
	rnd := rand.New(rand.NewPCG(1, 2))
	n := 500
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i] = rnd.NormFloat64()
		y[i] = x[i] * rnd.NormFloat64()
	}
	s := &divergence.IndependenceSettings{Permutations: 200}
	s.K, s.M = 50, 1000
	res, err := divergence.IndependenceTest(context.Background(), divergence.Column(x), divergence.Column(y), s)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("p-value %.3f: reject at 0.05: %v\n", res.PValue, res.PValue <= 0.05)
	// Output:
	// p-value 0.005: reject at 0.05: true
}

// Three features, of which the target depends on the second strongly, on
// the third weakly, and not at all on the first: the ranking puts them in
// that order, the weak feature's SMI is a fraction of the strong one's but
// its p-value is as small as 100 permutations can give (1/101), and the
// noise is not detected.
func ExampleRank() {
	rnd := rand.New(rand.NewPCG(1, 2))
	n := 1000
	features := make([][]float64, n)
	target := make([]float64, n)
	for i := range n {
		f := []float64{rnd.NormFloat64(), rnd.NormFloat64(), rnd.NormFloat64()}
		features[i] = f
		target[i] = 2*f[1] + 0.8*f[2] + rnd.NormFloat64()
	}
	s := &divergence.RankSettings{PValuePermutations: 100}
	s.K, s.M = 50, 1000
	res, err := divergence.Rank(context.Background(), divergence.Rows(features), divergence.Column(target), s)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Features {
		fmt.Printf("%d. feature %d: SMI %.2f, p-value %.2f\n", f.Rank, f.Column, f.SMI, f.PValue)
	}
	// Output:
	// 1. feature 1: SMI 0.75, p-value 0.01
	// 2. feature 2: SMI 0.05, p-value 0.01
	// 3. feature 0: SMI 0.00, p-value 0.61
}

// The fitted ratio r̂_α(x) = p(x)/(αp(x) + (1−α)q(x)) at single points, as
// importance weights; σ and λ fixed for speed.
func ExampleRatio_At() {
	rnd := rand.New(rand.NewPCG(1, 2))
	p, q := make([]float64, 2000), make([]float64, 2000)
	for i := range p {
		p[i] = rnd.NormFloat64()
		q[i] = 1 + rnd.NormFloat64()
	}
	s := &divergence.PESettings{Sigma: 0.5}
	s.Lambda = 1
	res, err := divergence.RelativePE(context.Background(), divergence.Column(p), divergence.Column(q), divergence.DefaultAlpha, s)
	if err != nil {
		log.Fatal(err)
	}
	for _, x := range []float64{-1, 0.5, 2} {
		fmt.Printf("r̂(%.1f) = %.2f\n", x, res.Ratio.At([]float64{x}))
	}
	// Output:
	// r̂(-1.0) = 1.68
	// r̂(0.5) = 1.01
	// r̂(2.0) = 0.39
}

// The estimate alone, for a caller that reads only PE (many small windows):
// the same number as RelativePE's.
func ExampleRelativePEValue() {
	rnd := rand.New(rand.NewPCG(1, 2))
	p, q := make([]float64, 60), make([]float64, 60)
	for i := range p {
		p[i] = rnd.NormFloat64()
		q[i] = 1 + rnd.NormFloat64()
	}
	s := func() *divergence.PESettings {
		return &divergence.PESettings{Settings: divergence.Settings{Src: rand.NewPCG(3, 4), K: 20}}
	}
	pv, qv := mat.NewVecDense(60, p), mat.NewVecDense(60, q)
	pe, err := divergence.RelativePEValue(context.Background(), pv, qv, divergence.DefaultAlpha, s())
	if err != nil {
		log.Fatal(err)
	}
	res, err := divergence.RelativePE(context.Background(), pv, qv, divergence.DefaultAlpha, s())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("PE = %.4f, the same as RelativePE's: %t\n", pe, pe == res.PE)
	// Output:
	// PE = 0.1152, the same as RelativePE's: true
}

// Tuning σ and λ once, to hold them fixed for estimates of one's own.
func ExampleTunePE() {
	rnd := rand.New(rand.NewPCG(1, 2))
	n := 2000
	p, q := make([]float64, n), make([]float64, n)
	for i := range p {
		p[i] = rnd.NormFloat64()
		q[i] = 0.5 + rnd.NormFloat64()
	}
	pv, qv := mat.NewVecDense(n, p), mat.NewVecDense(n, q)
	tuned, err := divergence.TunePE(context.Background(), pv, qv, divergence.DefaultAlpha,
		&divergence.PESettings{Settings: divergence.Settings{Src: rand.NewPCG(3, 4)}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("σ = %.3f, λ = %.4f\n", tuned.Sigma, tuned.Lambda)
	// Output:
	// σ = 5.602, λ = 0.0020
}
