// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// sampler keeps a uniform random sample of at most size rows of each group
// of a stream of rows, by Li's algorithm L ("Reservoir-sampling algorithms
// of time complexity O(n(1 + log(N/n)))", ACM TOMS 20(4), 1994): once the
// reservoir of k rows is full, it skips a geometric number of rows, with
// parameter W, the largest of k uniform variables, and replaces a random row
// of the reservoir by the next one. Every subset of k rows is equally likely,
// and the cost is O(k(1 + log(N/k))) random numbers for N rows. The groups
// share one stream of random numbers, drawn in row order, so a sample
// depends only on the input and the source.
type sampler struct {
	size int        // rows kept per group; 0 keeps every row
	rng  *rand.Rand // nil when size is 0
	each RowFunc    // Sampling.Rows: told every row; nil for none
}

// reservoir is algorithm L's state for one group.
type reservoir struct {
	logW float64 // log of W
	next int     // 0-based index, among the group's rows, of the next row to take
}

// newSampler returns the sampler of s, whose Size is not negative.
func newSampler(s Sampling) *sampler {
	sm := &sampler{size: s.Size, each: s.Rows}
	if s.Size > 0 {
		src := s.Src
		if src == nil {
			src = rand.NewPCG(1, 2)
		}
		sm.rng = rand.New(src)
	}
	return sm
}

// keep adds a valid row, at line, to group g, whose reservoir is r: always
// while the reservoir is not full, then when algorithm L takes it.
func (sm *sampler) keep(g *Group, r *reservoir, row []float64, line int) {
	i := g.Rows
	g.Rows++
	k := sm.size
	if k == 0 || i < k {
		if c := len(row); k > 0 && len(g.Data)+c > cap(g.Data) {
			// Double, up to the reservoir's size: append grows a large
			// slice by a quarter, copying it about four times over.
			g.Data = slices.Grow(g.Data, min(k*c, 2*cap(g.Data)+c)-len(g.Data))
		}
		g.Data = append(g.Data, row...)
		g.Lines = append(g.Lines, line)
		if i == k-1 {
			r.logW = math.Log(sm.uniform()) / float64(k)
			r.next = k
			r.advance(sm.skip(r.logW), false)
		}
		return
	}
	if i != r.next {
		return
	}
	j := sm.rng.IntN(k)
	c := len(row)
	copy(g.Data[j*c:(j+1)*c], row)
	g.Lines[j] = line
	r.logW += math.Log(sm.uniform()) / float64(k)
	r.advance(sm.skip(r.logW), true)
}

// uniform returns a uniform random number in the open interval (0, 1).
func (sm *sampler) uniform() float64 {
	return (float64(sm.rng.Uint64()>>12) + 0.5) * 0x1p-52
}

// maxSkip bounds the number of rows skipped at once, to stay clear of
// integer overflow.
const maxSkip = 1 << 62

// skip returns how many rows algorithm L skips before taking the next one:
// floor(log(U) / log(1-W)) for a fresh uniform U.
func (sm *sampler) skip(logW float64) int {
	// log(1-W) computed from log W without cancellation.
	den := math.Log(-math.Expm1(logW))
	s := math.Floor(math.Log(sm.uniform()) / den)
	if !(s < maxSkip) { // +Inf or NaN when den is 0 or W underflows
		return maxSkip
	}
	return int(s)
}

// advance sets the index of the next row to take: skip rows after the current
// next one (taken is true) or starting at next (the reservoir was just
// filled, taken is false).
func (r *reservoir) advance(skip int, taken bool) {
	step := skip
	if taken {
		step++
	}
	if r.next > math.MaxInt-step {
		r.next = math.MaxInt
		return
	}
	r.next += step
}

// sortByLine reorders the kept rows of g by increasing line.
func sortByLine(g *Group, c int) { g.Data, g.Lines = sortRows(g.Data, g.Lines, c) }

// sortRows returns the rows of c values of data, each with its key, in
// increasing order of key.
func sortRows[K cmp.Ordered](data []float64, keys []K, c int) ([]float64, []K) {
	n := len(keys)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	sort.Slice(perm, func(a, b int) bool { return keys[perm[a]] < keys[perm[b]] })
	sorted := make([]float64, len(data))
	sk := make([]K, n)
	for i, p := range perm {
		copy(sorted[i*c:(i+1)*c], data[p*c:(p+1)*c])
		sk[i] = keys[p]
	}
	return sorted, sk
}
