// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package radix sorts float64 values by a least-significant-digit radix
// sort of their bits: the order of slices.Sort and of a stable sort by
// value, in linear time, for the columns of tens of thousands of values
// that drift and the two-sample test sort.
package radix

import (
	"cmp"
	"math"
	"slices"
)

// small is the length below which a comparison sort is as fast.
const small = 256

// digitBits is the width of a pass's digit: 6 passes of 11 bits cover 64,
// with 2048 counters a pass.
const (
	digitBits = 11
	passes    = (64 + digitBits - 1) / digitBits
	buckets   = 1 << digitBits
)

// key maps a float64 to a uint64 of the same order: negative values' bits
// inverted, the sign bit of the others set. With zero set, −0 maps to +0's
// key, so that the two compare equal, as cmp.Compare has them.
func key(v float64, zero bool) uint64 {
	if zero && v == 0 {
		v = 0
	}
	b := math.Float64bits(v)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// value is key's inverse.
func value(k uint64) float64 {
	if k>>63 == 1 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// Floats sorts v in increasing order in place, as slices.Sort does (which
// it calls when v is short or holds a NaN); −0 precedes +0.
func Floats(v []float64) {
	if len(v) < small || slices.ContainsFunc(v, math.IsNaN) {
		slices.Sort(v)
		return
	}
	keys := make([]uint64, len(v))
	for i, x := range v {
		keys[i] = key(x, false)
	}
	keys = sortKeys(keys, nil)
	for i, k := range keys {
		v[i] = value(k)
	}
}

// Order returns the indices 0…n−1 of vals in increasing order of their
// values, ties (−0 and +0 among them) in increasing order of index: a
// stable sort's order by cmp.Compare, NaNs first.
func Order(vals []float64) []int {
	order := make([]int, len(vals))
	for i := range order {
		order[i] = i
	}
	if len(vals) < small || slices.ContainsFunc(vals, math.IsNaN) {
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(vals[a], vals[b]) })
		return order
	}
	keys := make([]uint64, len(vals))
	for i, x := range vals {
		keys[i] = key(x, true)
	}
	sortKeys(keys, order)
	return order
}

// sortKeys sorts keys, and idx alongside when not nil, stably (the result
// may be in new slices: idx's sorted values are copied back into it); it
// returns the sorted keys. A pass whose digit all keys share is skipped.
func sortKeys(keys []uint64, idx []int) []uint64 {
	n := len(keys)
	var count [passes][buckets]int
	for _, k := range keys {
		for p := range passes {
			count[p][k>>(p*digitBits)&(buckets-1)]++
		}
	}
	tmp := make([]uint64, n)
	var idxTmp []int
	orig := idx
	if idx != nil {
		idxTmp = make([]int, n)
	}
	for p := range passes {
		c := &count[p]
		if c[keys[0]>>(p*digitBits)&(buckets-1)] == n {
			continue // every key has this digit
		}
		at := 0
		for b := range c {
			c[b], at = at, at+c[b]
		}
		shift := p * digitBits
		for i, k := range keys {
			d := k >> shift & (buckets - 1)
			tmp[c[d]] = k
			if idx != nil {
				idxTmp[c[d]] = idx[i]
			}
			c[d]++
		}
		keys, tmp = tmp, keys
		idx, idxTmp = idxTmp, idx
	}
	if orig != nil {
		copy(orig, idx)
	}
	return keys
}
