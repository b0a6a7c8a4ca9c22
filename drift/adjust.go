// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"math"
	"slices"
)

// adjust returns the adjusted p-values (q-values) of p by the method a,
// over the m non-NaN values of p; NaN stays NaN. Benjamini–Hochberg:
// q_(i) = min_{j ≥ i} min(1, m p_(j)/j); Holm: q_(i) = max_{j ≤ i}
// min(1, (m − j + 1) p_(j)), p_(1) ≤ … ≤ p_(m) the sorted p-values.
func adjust(p []float64, a Adjustment) []float64 {
	q := make([]float64, len(p))
	var idx []int
	for i, v := range p {
		q[i] = v
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	if a == NoAdjustment {
		return q
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		switch {
		case p[i] < p[j]:
			return -1
		case p[i] > p[j]:
			return 1
		}
		return 0
	})
	m := float64(len(idx))
	switch a {
	case BenjaminiHochberg:
		run := 1.0
		for r := len(idx) - 1; r >= 0; r-- {
			run = math.Min(run, m*p[idx[r]]/float64(r+1))
			q[idx[r]] = run
		}
	case Holm:
		run := 0.0
		for r, i := range idx {
			run = math.Max(run, math.Min(1, (m-float64(r))*p[i]))
			q[i] = run
		}
	}
	return q
}
