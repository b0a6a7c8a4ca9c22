// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"math/rand/v2"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkTwoSampleTestB1000 times TwoSampleTest with B = 1000 permutations
// on two one-column samples of n rows each (shifted by 0.1 sd), estimate
// included, and the permutation test alone (twoSample): with the default
// budget it averages over all 2n rows up to TwoSamplePointsCap.
func BenchmarkTwoSampleTestB1000(b *testing.B) {
	for _, n := range []int{1000, 10_000, 100_000} {
		rnd := rand.New(rand.NewPCG(1, uint64(n)))
		p, q := mat.NewDense(n, 1, nil), mat.NewDense(n, 1, nil)
		for i := range n {
			p.Set(i, 0, rnd.NormFloat64()+0.1)
			q.Set(i, 0, rnd.NormFloat64())
		}
		s := &TwoSampleSettings{Permutations: 1000}
		b.Run("n="+strconv.Itoa(n)+"/estimate+test", func(b *testing.B) {
			for range b.N {
				if _, err := TwoSampleTest(context.Background(), p, q, DefaultAlpha, s); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("n="+strconv.Itoa(n)+"/test", func(b *testing.B) {
			pp, qq, _ := newTwoSamples(p, q)
			for range b.N {
				if _, err := twoSample(context.Background(), pp, qq, DefaultAlpha, s.resolved(), 0, rand.New(rand.NewPCG(1, 1))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
