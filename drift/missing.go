// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import "math"

// missingTest compares the shares of missing values, missCur of rowsCur and
// missRef of rowsRef. The divergence is PE_½ between the two Bernoulli
// distributions of the missing indicator, so that one threshold serves
// values and missing shares; the p-value is that of Fisher's exact test,
// two-sided (the sum of the probabilities of the tables no more likely than
// the observed one, given the margins).
func missingTest(missCur, rowsCur, missRef, rowsRef int) (pe, p float64) {
	pe = categoricalPE([]int{missCur, rowsCur - missCur}, []int{missRef, rowsRef - missRef}, rowsCur, rowsRef, Alpha)
	return pe, fisher(missCur, rowsCur, missRef+missCur, rowsCur+rowsRef)
}

// fisher returns the two-sided p-value of Fisher's exact test for x
// successes in a sample of n drawn without replacement from N items of which
// k are successes: the hypergeometric probability of the values whose
// probability is at most that of x. It walks from the mode outwards, in
// logarithms relative to the mode, until the terms are negligible beside both
// the mode and x, so its cost grows with the spread of the distribution and
// the distance of x from the mode, not with N.
func fisher(x, n, k, N int) float64 {
	lo, hi := max(0, n+k-N), min(k, n)
	if lo == hi {
		return 1
	}
	lchoose := func(a, b int) float64 {
		la, _ := math.Lgamma(float64(a + 1))
		lb, _ := math.Lgamma(float64(b + 1))
		lc, _ := math.Lgamma(float64(a - b + 1))
		return la - lb - lc
	}
	lpmf := func(x int) float64 { return lchoose(k, x) + lchoose(N-k, n-x) }
	mode := min(max(int(float64(n+1)*float64(k+1)/float64(N+2)), lo), hi)
	lmode := lpmf(mode)
	lobs := lpmf(x) - lmode
	const eps = 1e-7 // relative tolerance for ties
	const negligible = -40.0
	var all, tail float64
	add := func(lw float64) {
		w := math.Exp(lw)
		all += w
		if lw <= lobs+eps {
			tail += w
		}
	}
	add(0)
	lw := 0.0
	for i := mode; i < hi; i++ { // w(i+1)/w(i)
		lw += math.Log(float64(k-i)) + math.Log(float64(n-i)) - math.Log(float64(i+1)) - math.Log(float64(N-k-n+i+1))
		add(lw)
		if lw < negligible && lw < lobs+negligible {
			break
		}
	}
	lw = 0
	for i := mode; i > lo; i-- { // w(i−1)/w(i)
		lw += math.Log(float64(i)) + math.Log(float64(N-k-n+i)) - math.Log(float64(k-i+1)) - math.Log(float64(n-i+1))
		add(lw)
		if lw < negligible && lw < lobs+negligible {
			break
		}
	}
	return math.Min(1, tail/all)
}
