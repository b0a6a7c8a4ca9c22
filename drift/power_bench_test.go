// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkDriftVersusKS compares tables of n rows × cols standard normal
// columns (one shifted by 0.1 sd) with the defaults, joint row included,
// and, side by side over the same columns, the reference KS two-sample test
// of power_test.go (Go, sort and merge, asymptotic p-value) with
// Benjamini–Hochberg.
func BenchmarkDriftVersusKS(b *testing.B) {
	for _, size := range []struct{ n, cols int }{{1_000, 20}, {10_000, 20}, {100_000, 20}} {
		rnd := rand.New(rand.NewPCG(1, 1))
		ref := normalTable(size.n, size.cols, nil, rnd)
		cur := normalTable(size.n, size.cols, map[int]float64{0: 0.1}, rnd)
		b.Run(fmt.Sprintf("pearson/%d×%d", size.n, size.cols), func(b *testing.B) {
			for range b.N {
				s := &Settings{}
				s.Src = rand.NewPCG(1, 2)
				if _, err := Compare(context.Background(), ref, cur, s); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("KS+BH/%d×%d", size.n, size.cols), func(b *testing.B) {
			for range b.N {
				p := make([]float64, size.cols)
				for j := range p {
					p[j] = ksPValue(ref[j].Values, cur[j].Values)
				}
				_ = bhReference(p)
			}
		})
	}
}
