// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package spread

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOrderStat checks the selection against sorting, on values with and
// without ties, at every rank.
func TestOrderStat(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 5, 8, 33, 129, 500} {
		for _, ties := range []int{0, 3} {
			v := make([]float64, n)
			for i := range v {
				v[i] = rnd.NormFloat64()
				if ties > 0 {
					v[i] = float64(rnd.IntN(ties))
				}
			}
			sorted := slices.Sorted(slices.Values(v))
			for k := range n {
				if got := OrderStat(slices.Clone(v), k); got != sorted[k] {
					t.Fatalf("n %d ties %d k %d: %v, sorted %v", n, ties, k, got, sorted[k])
				}
			}
		}
	}
}
