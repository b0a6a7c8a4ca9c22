// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"slices"

	adjustp "github.com/sublinear/pearson/internal/adjust"
)

// adjust returns the adjusted p-values (q-values) of p by the method a,
// over the m non-NaN values of p; NaN stays NaN. Benjamini–Hochberg:
// q_(i) = min_{j ≥ i} min(1, m p_(j)/j); Holm: q_(i) = max_{j ≤ i}
// min(1, (m − j + 1) p_(j)), p_(1) ≤ … ≤ p_(m) the sorted p-values.
func adjust(p []float64, a Adjustment) []float64 {
	switch a {
	case BenjaminiHochberg:
		return adjustp.BenjaminiHochberg(p)
	case Holm:
		return adjustp.Holm(p)
	}
	return slices.Clone(p)
}
