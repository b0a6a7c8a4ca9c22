// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// ClassSigma is the kernel width on a target coded by ClassCodes: set
// LSMISettings.SigmaY to it. Distinct codes are at least 1 apart, so
// L(y, v) = exp(−(y − v)²/(2σ²)) is exactly 1[y = v] in floating point
// (exp(−5000) underflows to 0): the delta kernel that LSMI uses for a
// classification target (docs/DESIGN.md §5.4).
const ClassSigma = 0.01

// MaxClasses is the most distinct values a numeric column may hold for
// IsClasses to take it for class labels.
const MaxClasses = 20

// ClassCodes codes class labels as a target for LSMI, IndependenceTest and
// Rank, to be scored with the delta kernel (LSMISettings.SigmaY =
// ClassSigma): the n×1 matrix of codes 0, 1, …, C−1, numbered by first
// appearance, and the C classes in that order. With the delta kernel,
//
//	SMI(X, Y) = ½ Σ_c p(c) ∫ p(x|c)²/p(x) dx − ½.
func ClassCodes[L comparable](labels []L) (codes *mat.Dense, classes []L) {
	code := make(map[L]int)
	data := make([]float64, len(labels))
	for i, l := range labels {
		c, ok := code[l]
		if !ok {
			c = len(classes)
			code[l] = c
			classes = append(classes, l)
		}
		data[i] = float64(c)
	}
	if len(labels) == 0 {
		return &mat.Dense{}, nil
	}
	return mat.NewDense(len(labels), 1, data), classes
}

// IsClasses reports whether numeric values look like class labels: at most
// MaxClasses distinct values, every one an integer. Non-finite values are
// not labels.
func IsClasses(values []float64) bool {
	seen := make(map[float64]bool)
	for _, v := range values {
		if v != math.Trunc(v) || math.IsInf(v, 0) {
			return false
		}
		if !seen[v] {
			if len(seen) == MaxClasses {
				return false
			}
			seen[v] = true
		}
	}
	return true
}
