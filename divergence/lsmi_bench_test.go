// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
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
