// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package adjust adjusts p-values for the number of tests: the one
// Benjamini–Hochberg of divergence.Rank and package drift, and Holm.
package adjust

import (
	"math"
	"slices"
)

// BenjaminiHochberg returns the q-values of p, which control the false
// discovery rate: with the m non-NaN p-values in increasing order
// p₍₁₎ ≤ … ≤ p₍ₘ₎ (ties in the order given),
//
//	q₍ᵢ₎ = min_{j ≥ i} min(1, m·p₍ⱼ₎/j).
//
// A NaN p-value (no test) stays NaN and does not count in m.
func BenjaminiHochberg(p []float64) []float64 {
	q, idx := sorted(p)
	m := float64(len(idx))
	run := 1.0
	for r := len(idx) - 1; r >= 0; r-- {
		run = math.Min(run, m*p[idx[r]]/float64(r+1))
		q[idx[r]] = run
	}
	return q
}

// Holm returns the p-values of p adjusted by Holm's step-down method,
// which controls the family-wise error rate: in the order of BenjaminiHochberg,
//
//	q₍ᵢ₎ = max_{j ≤ i} min(1, (m − j + 1)·p₍ⱼ₎).
//
// A NaN p-value stays NaN and does not count in m.
func Holm(p []float64) []float64 {
	q, idx := sorted(p)
	m := float64(len(idx))
	run := 0.0
	for r, i := range idx {
		run = math.Max(run, math.Min(1, (m-float64(r))*p[i]))
		q[i] = run
	}
	return q
}

// sorted returns a copy of p and the indices of its non-NaN values in
// increasing order of value, ties in index order.
func sorted(p []float64) (q []float64, idx []int) {
	q = slices.Clone(p)
	for i, v := range p {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
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
	return q, idx
}
