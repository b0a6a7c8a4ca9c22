// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestColumnScores checks that each column's score of a series of several
// columns is the score of that column segmented alone: the same
// standardisation over the two windows, the same width for k coordinates.
// At windows of at most segmentK subsequences every subsequence is a
// centre and every point is averaged over, so the estimates use no
// randomness and must agree to rounding.
func TestColumnScores(t *testing.T) {
	t.Parallel()
	const rows, dim = 300, 3
	rnd := rand.New(rand.NewPCG(7, 8))
	x := mat.NewDense(rows, dim, nil)
	for r := range rows {
		for c := range dim {
			v := rnd.NormFloat64() * float64(c+1)
			if c == 1 && r >= 150 {
				v += 2
			}
			x.Set(r, c, v)
		}
	}
	p := SegmentParamsFor(rows, nil)
	if p.Window > segmentK || 2*p.Window > segmentM {
		t.Fatalf("window %d: the estimates would sample", p.Window)
	}
	joint := &segmenter{x: x, rows: rows, dim: dim, k: p.Embed, n: p.Window, sizes: ladder(p.Window), alpha: 0.1, seed: 1}
	for _, b := range []int{20, 100, 150, 151, 260} {
		nb := joint.size(b, 0, rows)
		_, cols, err := joint.score(context.Background(), b, nb)
		if err != nil {
			t.Fatal(err)
		}
		if len(cols) != dim {
			t.Fatalf("b = %d: %d column scores, want %d", b, len(cols), dim)
		}
		if b == 150 && !(cols[1] > 3*math.Max(math.Abs(cols[0]), math.Abs(cols[2]))) {
			t.Errorf("b = 150: column scores %v: the shifted column 1 should stand out", cols)
		}
		for c := range dim {
			one := &segmenter{x: mat.DenseCopyOf(x.Slice(0, rows, c, c+1)), rows: rows, dim: 1, k: p.Embed, n: p.Window, sizes: ladder(p.Window), alpha: 0.1, seed: 2}
			want, none, err := one.score(context.Background(), b, nb)
			if err != nil {
				t.Fatal(err)
			}
			if none != nil {
				t.Fatalf("one column: column scores %v, want none", none)
			}
			if math.Abs(cols[c]-want.Value) > 1e-9*math.Max(1, math.Abs(want.Value)) {
				t.Errorf("b = %d, column %d: score %v, alone %v", b, c, cols[c], want.Value)
			}
		}
	}
}
