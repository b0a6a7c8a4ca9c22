// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/kernel"
)

// scaled returns p divided by the fixed width, or by its median heuristic
// (see medianScale) when fixed is zero.
func scaled(rnd *rand.Rand, p *points, fixed float64) (*points, error) {
	if fixed != 0 {
		return p.withScale(fixed), nil
	}
	sc, err := medianScale(rnd, p)
	if err != nil {
		return nil, err
	}
	return p.withScale(sc), nil
}

// medianScale returns the median heuristic over at most 500 rows of each of
// the samples (unscaled data). When those rows are all equal, it reads every
// row: a variable that is constant but for rare rows takes its width from
// them, and only a variable constant on every row is an error (ErrConstant).
func medianScale(rnd *rand.Rand, samples ...*points) (float64, error) {
	rows := make([][]int, len(samples))
	for i, s := range samples {
		rows[i] = indices.Sample(s.n, min(s.n, kernel.DefaultMedianPoints/2), false, rnd)
	}
	return medianScaleOf(rnd, samples, rows)
}

// medianScaleOf is medianScale over the given rows of each sample, every one
// of them.
func medianScaleOf(rnd *rand.Rand, samples []*points, sampleRows [][]int) (float64, error) {
	if samples[0].allCategorical() {
		return 1, nil // the delta kernel has no width
	}
	var blocks []*mat.Dense
	total := 0
	for i, s := range samples {
		rows := sampleRows[i]
		b, err := s.withScale(1).withoutCategories().rows(rows)
		if err != nil {
			return 0, err
		}
		blocks = append(blocks, b)
		total += len(rows)
	}
	pooled := mat.NewDense(total, samples[0].dim, nil)
	at := 0
	for _, b := range blocks {
		if b.IsEmpty() {
			continue
		}
		r, _ := b.Dims()
		pooled.Slice(at, at+r, 0, samples[0].dim).(*mat.Dense).Copy(b)
		at += r
	}
	names := samples[0].name
	for _, s := range samples[1:] {
		names += " and " + s.name
	}
	sigma, err := kernel.MedianHeuristic(pooled, total, rnd)
	if errors.Is(err, kernel.ErrConstant) {
		// Every sampled row is the same. Either the variable is constant,
		// or it differs from that value on rare rows only: look through
		// every row (this degenerate case alone costs O(n)), and take the
		// width from the rare rows against the common value.
		var rare *mat.Dense
		if rare, err = rareRows(pooled.RawRowView(0), samples); err != nil {
			return 0, err
		}
		if rare == nil {
			return 0, fmt.Errorf("divergence: %w: every row of %s is the same: a constant variable carries no information (remove it, or fix the kernel width)", ErrConstant, names)
		}
		sigma, err = kernel.MedianHeuristic(rare, 0, rnd)
	}
	if err != nil {
		return 0, fmt.Errorf("divergence: %s: %w", names, err)
	}
	return sigma, nil
}

// errEnough stops a scan early.
var errEnough = errors.New("enough rows")

// rareRows returns the value common (unscaled) followed by at most
// kernel.DefaultMedianPoints−1 rows of the samples that differ from it, or
// nil when every row equals it. It reads every row.
func rareRows(common []float64, samples []*points) (*mat.Dense, error) {
	dim := len(common)
	found := [][]float64{slices.Clone(common)}
	for _, s := range samples {
		err := s.withScale(1).withoutCategories().each(func(block *mat.Dense) error {
			r, _ := block.Dims()
			for i := range r {
				if row := block.RawRowView(i); !slices.Equal(row, common) {
					found = append(found, slices.Clone(row))
				}
				if len(found) == kernel.DefaultMedianPoints {
					return errEnough
				}
			}
			return nil
		})
		if errors.Is(err, errEnough) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(found) == 1 {
		return nil, nil
	}
	m := mat.NewDense(len(found), dim, nil)
	for i, row := range found {
		m.SetRow(i, row)
	}
	return m, nil
}
