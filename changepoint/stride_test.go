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

// TestNearPeaks checks the rescoring of a strided scan's peaks below the
// penalty (nearPeaks) against a scan of every row, the method's own
// definition: a shift of 2 at row 1000 of 2000 rows, sampled every 50 rows
// from 975 (the change halfway between two samples), with the penalty set
// between the strided scan's best score and the best of every row's
// within 50 rows of it (and within 1/strideNear of the strided best: a
// change halfway between two samples scored a sixth of its row-by-row
// best here). strongestPeaks alone finds nothing; nearPeaks must
// find the row-by-row maximum; with the penalty above it, nothing.
func TestNearPeaks(t *testing.T) {
	const rows, at, stride, lo = 2000, 1000, 50, 25
	rng := rand.New(rand.NewPCG(3, 4))
	x := mat.NewDense(rows, 1, nil)
	for r := range rows {
		v := rng.NormFloat64()
		if r >= at {
			v += 2
		}
		x.Set(r, 0, v)
	}
	p := SegmentParamsFor(rows, nil)
	p.Stride = stride
	sg := &segmenter{x: x, rows: rows, dim: 1, k: p.Embed, n: p.Window, sizes: ladder(p.Window), alpha: 0.1, seed: 1}
	ctx := context.Background()
	score := func(b int) float64 {
		sc, _, err := sg.score(ctx, b, sg.size(b, 0, rows))
		if err != nil {
			t.Fatal(err)
		}
		return sc.Value
	}
	var scores []Score
	coarse, coarseAt := math.Inf(-1), 0
	for b := lo; b <= rows-lo; b += stride {
		v := score(b)
		scores = append(scores, Score{Time: b, Value: v})
		if v > coarse {
			coarse, coarseAt = v, b
		}
	}
	fine, fineAt := math.Inf(-1), 0
	for b := coarseAt - stride; b <= coarseAt+stride; b++ {
		if v := score(b); v > fine {
			fine, fineAt = v, b
		}
	}
	if !(fine > coarse) || coarseAt-at > stride || at-coarseAt > stride {
		t.Fatalf("strided best %.1f at %d, row by row %.1f at %d: the case does not test the rescoring", coarse, coarseAt, fine, fineAt)
	}
	z := func(v float64, _ []float64, _ int) float64 { return v }
	p.Penalty = min((coarse+fine)/2, 0.9*coarse/strideNear)
	if keep := strongestPeaks(scores, scores, p, lo); len(keep) != 0 {
		t.Fatalf("strongestPeaks: %v, want none below the penalty", keep)
	}
	if coarse <= strideNear*p.Penalty {
		t.Fatalf("strided best %.1f below %g × the penalty %.1f", coarse, strideNear, p.Penalty)
	}
	got, err := sg.nearPeaks(ctx, nil, scores, scores, p, lo, z)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Time != fineAt || got[0].Calibrated != fine {
		t.Errorf("nearPeaks: %v, want the row-by-row best %.1f at %d", got, fine, fineAt)
	}
	p.Penalty = fine * 1.01
	if got, err = sg.nearPeaks(ctx, nil, scores, scores, p, lo, z); err != nil || len(got) != 0 {
		t.Errorf("penalty above the row-by-row best: %v, %v, want none", got, err)
	}
}
