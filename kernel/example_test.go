// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package kernel_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/kernel"
)

func Example() {
	// Points on a line and two centres.
	x := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	c := mat.NewDense(2, 1, []float64{0, 3})

	sigma, err := kernel.MedianHeuristic(x, 0, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		log.Fatal(err)
	}
	// Squared distances between the 6 pairs: 1, 1, 1, 4, 4, 9; median 1.
	fmt.Printf("σ = %.4f\n", sigma)

	var phi mat.Dense
	kernel.Gaussian{Sigma: sigma}.MatrixTo(&phi, x, c)
	fmt.Printf("%.4f\n", mat.Formatted(&phi))
	// Output:
	// σ = 0.7071
	// ⎡1.0000  0.0001⎤
	// ⎢0.3679  0.0183⎥
	// ⎢0.0183  0.3679⎥
	// ⎣0.0001  1.0000⎦
}
