// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
)

// A category column (codes 0, 1, 2) beside a numeric one: P and Q differ in
// the categories' shares only, so the numeric column alone would show
// nothing. The truth, summed over the categories, is
// PE_½ = ½ Σ_c p_c²/(½p_c + ½q_c) − ½ = 0.029.
func ExampleCategorical() {
	rnd := rand.New(rand.NewPCG(1, 2))
	draw := func(shares []float64, n int) mat.Matrix {
		x := mat.NewDense(n, 2, nil)
		for i := range n {
			c, r := 0, rnd.Float64()
			for c < len(shares)-1 && r >= shares[c] {
				r -= shares[c]
				c++
			}
			x.Set(i, 0, float64(c))
			x.Set(i, 1, rnd.NormFloat64()) // the same law in every category
		}
		return divergence.Categorical{Matrix: x, Columns: []int{0}}
	}
	p, q := draw([]float64{0.5, 0.3, 0.2}, 20000), draw([]float64{0.3, 0.3, 0.4}, 20000)
	res, err := divergence.RelativePE(context.Background(), p, q, divergence.DefaultAlpha,
		&divergence.PESettings{Settings: divergence.Settings{Src: rand.NewPCG(3, 4)}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("PE = %.3f ± %.3f\n", res.PE, res.StdErr)
	// Output:
	// PE = 0.029 ± 0.002
}
