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
	// PE = 0.100 ± 0.003 from 6 draws of k = 100 centres and m = 4000 points
	// r̂(0.50) = 1.66, true 1.64
	// r̂(1.25) = 1.01, true 1.00
	// r̂(2.00) = 0.39, true 0.36
}
