// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"context"
	"math/rand/v2"
)

// categoricalPE returns PE_α(P‖Q) between the categorical distributions of
// the counts p and q (over the same categories):
//
//	PE_α = ½ Σ_c q_α(c) (p(c)/q_α(c) − 1)² = ½ Σ_c (1−α)² (p(c) − q(c))² / q_α(c),
//
// q_α = αp + (1−α)q, with p(c) and q(c) the frequencies. With a delta kernel
// on categories, RuLSIF's model has one parameter per category and fits the
// ratio exactly, so this plug-in value is the estimate itself, with no
// Monte Carlo error; at α = ½ it is ¼ Σ (p − q)²/(p + q).
func categoricalPE(p, q []int, np, nq int, alpha float64) float64 {
	if np == 0 || nq == 0 {
		return 0
	}
	var pe float64
	for c := range p {
		pc, qc := float64(p[c])/float64(np), float64(q[c])/float64(nq)
		qa := alpha*pc + (1-alpha)*qc
		if qa > 0 {
			d := (1 - alpha) * (pc - qc)
			pe += d * d / qa
		}
	}
	return pe / 2
}

// categoricalTest returns the divergence of the counts of cur (P) from
// those of ref (Q), codes into ncat categories, −1 for missing, and the
// p-value (1 + #{T_b ≥ T})/(1 + B) of a permutation test of equal
// distributions on it. A permutation draws which of the pooled present
// values are labelled P, uniformly, keeping the sizes of the two samples:
// under the null hypothesis the pooled values are exchangeable, so the
// p-value is exact. A permutation costs O(min(n_P, n_Q) + ncat).
func categoricalTest(ctx context.Context, cur, ref []int32, ncat, b int, rnd *rand.Rand) (pe, p float64, err error) {
	pooled := make([]int32, 0, len(cur)+len(ref))
	for _, c := range cur {
		if c >= 0 {
			pooled = append(pooled, c)
		}
	}
	np := len(pooled)
	for _, c := range ref {
		if c >= 0 {
			pooled = append(pooled, c)
		}
	}
	nq := len(pooled) - np
	total := make([]int, ncat)
	for _, c := range pooled {
		total[c]++
	}
	cp := make([]int, ncat)
	cq := make([]int, ncat)
	for _, c := range pooled[:np] {
		cp[c]++
	}
	for c := range cq {
		cq[c] = total[c] - cp[c]
	}
	pe = categoricalPE(cp, cq, np, nq, Alpha)
	// Draw the smaller side; the other gets the rest.
	small, smallIsP := np, true
	if nq < np {
		small, smallIsP = nq, false
	}
	exceed := 0
	const tol = 1e-12
	for range b {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		clear(cp)
		for i := range small {
			j := i + rnd.IntN(len(pooled)-i)
			pooled[i], pooled[j] = pooled[j], pooled[i]
			cp[pooled[i]]++
		}
		for c := range cq {
			cq[c] = total[c] - cp[c]
		}
		var t float64
		if smallIsP {
			t = categoricalPE(cp, cq, np, nq, Alpha)
		} else {
			t = categoricalPE(cq, cp, np, nq, Alpha)
		}
		if t >= pe*(1-tol) {
			exceed++
		}
	}
	return pe, float64(1+exceed) / float64(1+b), nil
}
