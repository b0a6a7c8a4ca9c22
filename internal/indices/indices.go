// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package indices makes sets of row indices: all of them, or a random
// sample. Every random draw of rows in the module goes through it, so that
// one algorithm serves each kind of draw and a seed reproduces it.
package indices

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Range returns 0, 1, …, n−1.
func Range(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// Sample returns k indices from [0, n): independent and uniform when replace
// is true; otherwise distinct, a uniformly random k-subset (Floyd's
// algorithm; the order is not uniformly random). It takes O(k) time and
// space, whatever n is. It panics unless 0 ≤ k, and k ≤ n without
// replacement (or 1 ≤ n with it).
func Sample(n, k int, replace bool, rnd *rand.Rand) []int {
	if k < 0 || (!replace && k > n) || (replace && k > 0 && n < 1) {
		panic(fmt.Sprintf("indices: cannot sample %d indices from %d (replace %v)", k, n, replace))
	}
	idx := make([]int, 0, k)
	if replace {
		for range k {
			idx = append(idx, rnd.IntN(n))
		}
		return idx
	}
	seen := make(map[int]struct{}, k)
	for j := n - k; j < n; j++ {
		t := rnd.IntN(j + 1)
		if _, ok := seen[t]; ok {
			t = j
		}
		seen[t] = struct{}{}
		idx = append(idx, t)
	}
	return idx
}

// Shuffled returns k distinct indices from [0, n) in uniformly random order:
// the first k entries of a random permutation, by a partial Fisher–Yates
// shuffle over a map, in O(k) time and space whatever n is. It panics unless
// 0 ≤ k ≤ n.
func Shuffled(n, k int, rnd *rand.Rand) []int {
	if k < 0 || k > n {
		panic(fmt.Sprintf("indices: cannot shuffle %d indices from %d", k, n))
	}
	idx := make([]int, k)
	swapped := make(map[int]int, 2*k)
	at := func(i int) int {
		if v, ok := swapped[i]; ok {
			return v
		}
		return i
	}
	for i := range k {
		j := i + rnd.IntN(n-i)
		idx[i] = at(j)
		swapped[j] = at(i)
	}
	return idx
}

// SampleExcept returns m distinct indices of [0, n) drawn uniformly from
// those not in except (which must be distinct indices of [0, n)), in a
// random order; all of them, shuffled, when fewer than m remain.
func SampleExcept(n, m int, except []int, rnd *rand.Rand) []int {
	ex := slices.Sorted(slices.Values(except))
	avail := n - len(ex)
	m = min(m, avail)
	idx := Sample(avail, m, false, rnd)
	for i, t := range idx {
		// The t-th index (from 0) not in ex.
		r := t
		for _, e := range ex {
			if e > r {
				break
			}
			r++
		}
		idx[i] = r
	}
	rnd.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	return idx
}

// AllOrSample returns every index of [0, n) in order when m ≥ n, otherwise
// m distinct ones drawn by Sample.
func AllOrSample(n, m int, rnd *rand.Rand) []int {
	if m >= n {
		return Range(n)
	}
	return Sample(n, m, false, rnd)
}
