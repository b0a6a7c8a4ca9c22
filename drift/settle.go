// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/sublinear/pearson/internal/parallel"
)

// settleGrowth is the factor by which settle multiplies a column's
// permutations in each round.
const settleGrowth = 4

// settle adds permutations to the numeric columns whose p-value is too
// uncertain for the verdict: a column whose Monte Carlo interval
// (PValueLow, PValueHigh, 95% Clopper–Pearson) would change which tests
// are significant after the adjustment, were its p-value at either end of
// the interval, the others' as they are. Such a column's test is extended
// (divergence.TwoSampleResult.Extend), continuing its own sequence of
// permutations, to settleGrowth times its permutations, at most max; the
// round repeats until no column is ambiguous or each ambiguous one has max;
// those then report the upper end of their interval, a conservative
// p-value (with a Note). Without it, a column whose p-value sits at the
// adjustment's cut flips with the seed; with it, the verdict follows the
// p-value of infinitely many permutations, and a column within the
// interval of max permutations of the cut is not flagged, at any seed. Each column extends its own seeded sequence, so
// the result does not depend on Workers.
func (res *Result) settle(ctx context.Context, workers, max int) error {
	for {
		amb := res.ambiguous()
		var more []int
		for _, i := range amb {
			if res.Columns[i].Test.Permutations < max {
				more = append(more, i)
			}
		}
		if len(more) == 0 {
			// Still at the cut with max permutations: the upper end of the
			// interval, a conservative p-value, decides the same way at
			// every seed.
			for _, i := range amb {
				c := &res.Columns[i]
				c.SamplePValue = c.Test.PValueHigh
				c.combine()
				c.Note = fmt.Sprintf("p-value at the adjustment's cut after %d permutations: the upper end of its Monte Carlo interval is reported", c.Permutations)
			}
			return nil
		}
		errs := make([]error, len(more))
		parallel.For(len(more), parallel.Workers(workers), func(i int) {
			c := &res.Columns[more[i]]
			b := min(max, settleGrowth*c.Test.Permutations)
			if errs[i] = c.Test.Extend(ctx, b); errs[i] == nil {
				c.SamplePValue, c.Permutations = c.Test.PValue, c.Test.Permutations
				c.combine()
			}
		})
		if err := errors.Join(errs...); err != nil {
			return err
		}
	}
}

// ambiguous returns the numeric columns whose p-value at the low or the
// high end of its interval changes which of the tests (values and missing
// shares) have q < Level.
func (res *Result) ambiguous() []int {
	n := len(res.Columns)
	p := make([]float64, 2*n)
	for i, c := range res.Columns {
		p[i], p[n+i] = c.PValue, c.MissingPValue
	}
	significant := func(p []float64) []bool {
		q := adjust(p, res.Adjust)
		out := make([]bool, len(q))
		for i, v := range q {
			out[i] = v < res.Level
		}
		return out
	}
	var amb []int
	for i, c := range res.Columns {
		t := c.Test
		if t == nil || math.IsNaN(c.PValue) {
			continue
		}
		lo, hi := slices.Clone(p), slices.Clone(p)
		lo[i], hi[i] = c.withWhole(t.PValueLow), c.withWhole(t.PValueHigh)
		if !slices.Equal(significant(lo), significant(hi)) {
			amb = append(amb, i)
		}
	}
	return amb
}
