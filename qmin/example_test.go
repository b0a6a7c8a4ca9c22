// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package qmin_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/qmin"
)

// A problem of dimension one billion, given by formulas: the estimate takes
// the same time as for a problem of dimension one thousand. As n grows, z*/n²
// tends to the minimum of ⟨v, Kv⟩ + ⟨v, v⟩ + ⟨b, v⟩ over functions on [0, 1],
// with K(x, y) = cos π(x − y) and b(x) = sin 2πx, which is
// −¼(½ − 32/(27π²)) ≈ −0.0950 (K has rank two: cos πx cos πy + sin πx sin πy).
func Example() {
	const n = 1_000_000_000
	p := qmin.Funcs{
		N: n,
		A: func(i, j int) float64 { return math.Cos(math.Pi * float64(i-j) / n) },
		D: func(int) float64 { return 1 },
		B: func(i int) float64 { return math.Sin(2 * math.Pi * float64(i) / n) },
	}
	res, err := qmin.Estimate(p, &qmin.Settings{K: 100, Draws: 20, Src: rand.NewPCG(1, 2)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("z*/n² ≈ %.3f ± %.3f over %d draws of k = %d\n", res.Value/n/n, res.StdErr/n/n, len(res.Draws), res.K)
	fmt.Printf("limit:  %.4f\n", -(0.5-32/(27*math.Pi*math.Pi))/4)
	// Output:
	// z*/n² ≈ -0.094 ± 0.001 over 20 draws of k = 100
	// limit:  -0.0950
}

// Estimate and Exact on the same dense problem.
func ExampleExact() {
	const n = 500
	rnd := rand.New(rand.NewPCG(3, 4))
	a := mat.NewDense(n, n, nil)
	d := make([]float64, n)
	b := make([]float64, n)
	for i := range n {
		for j := range n {
			a.Set(i, j, math.Exp(-math.Abs(float64(i-j))/n))
		}
		d[i] = 0.5 + rnd.Float64()
		b[i] = 2*rnd.Float64() - 1
	}
	p, err := qmin.NewDense(a, d, b)
	if err != nil {
		log.Fatal(err)
	}
	exact, err := qmin.Exact(p, nil)
	if err != nil {
		log.Fatal(err)
	}
	est, err := qmin.Estimate(p, &qmin.Settings{K: 80, Draws: 20})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("exact     z*/n² = %.4f (%v)\n", exact.Value/n/n, exact.Method)
	fmt.Printf("estimated z*/n² = %.4f ± %.4f\n", est.Value/n/n, est.StdErr/n/n)
	// Output:
	// exact     z*/n² = -0.0853 (cholesky)
	// estimated z*/n² = -0.0838 ± 0.0030
}

// A box constraint makes a non-convex function bounded; its minimum is then
// found locally, and certified global here: v₂ sits at a bound where the
// gradient's margin convexifies the problem.
func ExampleMinimizeQuadratic() {
	// f(v) = v₁² − v₂² + v₁ over [−1, 1]²: the minimum is at v = (−½, ±1).
	m := mat.NewSymDense(2, []float64{1, 0, 0, -1})
	sol, err := qmin.MinimizeQuadratic(m, []float64{1, 0}, &qmin.Settings{Box: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("min %.2f at |v| = (%.2f, %.2f) by %v, certified: %v\n", sol.Value, math.Abs(sol.V[0]), math.Abs(sol.V[1]), sol.Method, sol.Certified)

	// Without the box it has no minimum.
	_, err = qmin.MinimizeQuadratic(m, []float64{1, 0}, nil)
	fmt.Println(err)
	// Output:
	// min -1.25 at |v| = (0.50, 1.00) by box-local, certified: true
	// qmin: the quadratic function is unbounded below: the matrix has the negative eigenvalue -1 (largest magnitude 1)
}
