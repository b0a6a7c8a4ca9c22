// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package kernel

import "math"

// exp2Table holds 2^(j/64) for j = 0, …, 63.
var exp2Table = func() (t [64]float64) {
	for j := range t {
		t[j] = math.Exp2(float64(j) / 64)
	}
	return t
}()

// expNonPositive sets dst[i] = exp(src[i]). Kernel values exponentiate
// numbers ≤ 0, for which it is twice as fast as math.Exp and as accurate (a
// relative error below 10⁻¹⁵): src = (64m + j)·ln2/64 + r with |r| ≤ ln2/128,
// so exp(src) = 2^m · 2^(j/64) · exp(r), the middle factor from a table and
// exp(r) from its Taylor polynomial of degree 5 (remainder below 4·10⁻¹⁷).
// Results below e⁻⁷⁰⁸ ≈ 3·10⁻³⁰⁸, where float64 turns subnormal, are
// flushed to zero; positive and NaN arguments go to math.Exp.
func expNonPositive(dst, src []float64) { expScaled(dst, src, 1) }

// expScaled sets dst[i] = exp(gamma·src[i]), gamma·src[i] ≤ 0 being
// computed as expNonPositive does (gamma = 1 leaves src's bits unchanged):
// the kernel values of a row of squared distances in one pass.
func expScaled(dst, src []float64, gamma float64) {
	const (
		scale = 64 * math.Log2E
		c1    = 6.93147180369123816490e-01 / 64 // ln2/64, split in two
		c2    = 1.90821492927058770002e-10 / 64
	)
	dst = dst[:len(src)]
	for i, v := range src {
		x := gamma * v
		switch {
		case x < -708:
			dst[i] = 0
			continue
		case !(x <= 0):
			dst[i] = math.Exp(x)
			continue
		}
		k := int64(x*scale - 0.5) // nearest integer, x ≤ 0
		kf := float64(k)
		r := x - kf*c1 - kf*c2
		r2 := r * r
		p := 1 + r + r2*(0.5+r*(1.0/6)) + r2*r2*(1.0/24+r*(1.0/120))
		dst[i] = math.Float64frombits(math.Float64bits(exp2Table[k&63]*p) + uint64(k>>6)<<52)
	}
}
