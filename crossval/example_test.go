// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package crossval_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/sublinear/pearson/crossval"
)

// Choosing the ridge penalty λ of a one-parameter regression y ≈ βx by
// 5-fold cross-validation: β = Σxy/(Σx² + λ) on the training folds, scored by
// squared error on the held-out fold.
func Example() {
	rnd := rand.New(rand.NewPCG(1, 2))
	n := 100
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i] = rnd.NormFloat64()
		y[i] = 2*x[i] + rnd.NormFloat64()
	}
	// Fold f holds the items i with fold[i] = f: sizes 20, in random order.
	fold := make([]int, n)
	for i := range fold {
		fold[i] = i % 5
	}
	rnd.Shuffle(n, func(i, j int) { fold[i], fold[j] = fold[j], fold[i] })
	lambdas := crossval.LogGrid(0.01, 1000, 6)
	score := func(_ context.Context, _ int) ([]float64, error) {
		s := make([]float64, len(lambdas))
		for j, l := range lambdas {
			for f := range 5 {
				var sxy, sxx float64
				for i := range n {
					if fold[i] != f {
						sxy += x[i] * y[i]
						sxx += x[i] * x[i]
					}
				}
				beta := sxy / (sxx + l)
				for i := range n {
					if fold[i] == f {
						s[j] += (y[i] - beta*x[i]) * (y[i] - beta*x[i]) / float64(n)
					}
				}
			}
		}
		return s, nil
	}
	tab, err := crossval.Search(context.Background(), []float64{0}, lambdas, score, 0)
	if err != nil {
		log.Fatal(err)
	}
	_, best := tab.Best()
	fmt.Printf("best λ = %.3g, on an edge: %v\n", best, tab.Edges().Any())
	// Output:
	// best λ = 0.1, on an edge: false
}
