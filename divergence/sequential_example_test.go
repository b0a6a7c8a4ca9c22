// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/sublinear/pearson/divergence"
)

// Two samples from one distribution: the sequential test stops at the
// tenth permutation whose statistic reaches the observed one, long before
// its 999, and Extend runs the rest when a precise p-value is wanted.
func ExampleSequentialTwoSampleTest() {
	rnd := rand.New(rand.NewPCG(1, 2))
	n := 2000
	p, q := make([]float64, n), make([]float64, n)
	for i := range n {
		p[i], q[i] = rnd.NormFloat64(), rnd.NormFloat64()
	}
	s := &divergence.TwoSampleSettings{Permutations: 999}
	s.Src = rand.NewPCG(3, 4)
	res, err := divergence.SequentialTwoSampleTest(context.Background(),
		divergence.Column(p), divergence.Column(q), divergence.DefaultAlpha, s, 10)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("stopped early:", res.Permutations < 999, "p > 0.1:", res.PValue > 0.1)
	if err := res.Extend(context.Background(), 999); err != nil {
		log.Fatal(err)
	}
	fmt.Println("permutations after Extend:", res.Permutations, "p > 0.1:", res.PValue > 0.1)
	// Output:
	// stopped early: true p > 0.1: true
	// permutations after Extend: 999 p > 0.1: true
}
