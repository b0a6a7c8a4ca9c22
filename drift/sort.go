// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"cmp"
	"math"
	"slices"
)

// Sorted returns the column results in the order of a report: drifted
// columns first, then by increasing q-value (untested last), then by
// decreasing divergence, then by name.
func (res *Result) Sorted() []ColumnResult {
	s := slices.Clone(res.Columns)
	key := func(x float64) float64 {
		if math.IsNaN(x) {
			return math.Inf(1)
		}
		return x
	}
	slices.SortStableFunc(s, func(a, b ColumnResult) int {
		if a.Drifted != b.Drifted {
			if a.Drifted {
				return -1
			}
			return 1
		}
		qa, qb := key(math.Min(key(a.QValue), key(a.MissingQValue))), key(math.Min(key(b.QValue), key(b.MissingQValue)))
		if c := cmp.Compare(qa, qb); c != 0 {
			return c
		}
		if c := cmp.Compare(key(-a.Divergence), key(-b.Divergence)); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return s
}
