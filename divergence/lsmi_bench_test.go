// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkLSMI is LSMI with the defaults (cross-validation and estimate)
// on 10⁶ pairs of a bivariate normal with ρ = 0.5: the cost a user waits for,
// which must stay independent of n.
func BenchmarkLSMI(b *testing.B) {
	x, y := bivariate(1_000_000, 0.5, rand.New(rand.NewPCG(2, 2)))
	for b.Loop() {
		r, err := LSMI(ctx, x, y, &LSMISettings{Settings: Settings{Src: rand.NewPCG(1, 2)}})
		if err != nil {
			b.Fatal(err)
		}
		sinkPE = r.SMI
	}
}

// BenchmarkCopulaFit is LSMI's Gaussian-copula model alone on n pairs of a
// bivariate normal with ρ = 0.8: it draws at most copulaRows rows, so its
// cost must not grow with n.
func BenchmarkCopulaFit(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		x, y := bivariate(n, 0.8, rand.New(rand.NewPCG(2, 2)))
		px, err := newPoints("x", x)
		if err != nil {
			b.Fatal(err)
		}
		py, err := newPoints("y", y)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rnd := rand.New(rand.NewPCG(1, 2))
			for b.Loop() {
				f, ok, err := fitCopula(ctx, px, py, rnd)
				if err != nil || !ok {
					b.Fatal(err, ok)
				}
				sinkPE = f.smi
			}
		})
	}
}
