// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
)

// The constants of reading ahead; readAhead documents them.
const (
	aheadMin     = 16   // positions predicted at least
	aheadMax     = 2048 // positions predicted at most: 8 MiB of blocks
	aheadReaders = 16   // runs of blocks read concurrently
)

// readAhead reads the blocks that the next draws of a seeker will read
// before they are drawn, in file order, concurrently, one read for each run
// of adjacent blocks, so that a sample costs few system calls and a cold
// disk serves its reads in the order and the number it serves best, not
// one random read after another.
//
// It changes no draw: the seeker draws its positions and accepts its lines
// from its own random stream as it would without reading ahead. The
// positions are predicted from a copy of that stream, taking each draw to
// consume one number for its position and one for its acceptance, as it
// does unless the line drawn is blank (or, with probability below 2⁻³²,
// when Int64N rejects a number); the first draw that was not predicted,
// and every read outside the blocks read ahead, goes to the file
// directly, and the next draw predicts afresh. A source that cannot be
// copied (not a *rand.PCG or *rand.ChaCha8) is not read ahead.
type readAhead struct {
	src    rand.Source // the seeker's stream
	pos    []int64     // the positions predicted
	starts []int64     // the offsets of their blocks, sorted, distinct
	data   [][]byte    // the bytes of each block read; nil if it failed
	buf    []byte      // the storage of data
	runs   []blockRun
	next   int // the index in pos of the next draw's position
	size   int // positions to predict next
}

// newReadAhead returns the reader ahead for a seeker drawing from src, or
// nil when src cannot be copied.
func newReadAhead(src rand.Source) *readAhead {
	if copySource(src) == nil {
		return nil
	}
	return &readAhead{src: src, size: aheadMin}
}

// copySource returns a copy of src in its current state, which draws the
// numbers src will draw; nil when src is not of a type it can copy.
func copySource(src rand.Source) rand.Source {
	switch s := src.(type) {
	case *rand.PCG:
		c := *s
		return &c
	case *rand.ChaCha8:
		c := *s
		return &c
	}
	return nil
}

// expect is called before a draw, with the draws expected per accepted
// row and the groups kept: when the draw was not predicted, it predicts the
// positions of the next draws and reads their blocks. It predicts as many
// draws as the rows still wanted are expected to take, with a quarter more,
// but at most twice as many as the batch before when that one was
// predicted right, and aheadMin after a draw that was not: a file whose
// blank lines upset the prediction reads little ahead.
func (a *readAhead) expect(sk *seeker, perRow float64, groups int) {
	if a.next < len(a.pos) {
		return
	}
	if len(a.pos) > 0 {
		a.size = min(aheadMax, 2*a.size)
	}
	need := sk.want * groups
	for _, g := range sk.wanted() {
		need -= min(sk.want, len(g.offsets))
	}
	a.predict(sk, min(a.size, max(aheadMin, int(1.25*perRow*float64(max(0, need)))+1)))
}

// block returns the bytes [ws, we) of the file when a block read ahead
// holds them all, nil otherwise.
func (a *readAhead) block(ws, we int64) []byte {
	if a == nil {
		return nil
	}
	start := ws - ws%seekBlock
	i, ok := slices.BinarySearch(a.starts, start)
	if !ok {
		return nil
	}
	b := a.data[i]
	if we-start > int64(len(b)) {
		return nil
	}
	return b[ws-start : we-start]
}

// drawn is called with the position a draw drew; a position that was not
// predicted ends the batch.
func (a *readAhead) drawn(u int64) {
	if a.next < len(a.pos) && a.pos[a.next] == u {
		a.next++
		return
	}
	a.pos, a.next, a.size = a.pos[:0], 0, aheadMin
}

// predict predicts the positions of the next n draws and reads their
// blocks, dropping the blocks read before.
func (a *readAhead) predict(sk *seeker, n int) {
	r := rand.New(copySource(a.src))
	span := sk.end - sk.h
	a.pos, a.next = a.pos[:0], 0
	starts := a.starts[:0]
	for range n {
		u := sk.h + r.Int64N(span) // as seeker.draw draws it
		r.Uint64()                 // its acceptance
		a.pos = append(a.pos, u)
		starts = append(starts, u-u%seekBlock)
	}
	slices.Sort(starts)
	a.starts = slices.Compact(starts)
	sk.buf, sk.ws, sk.we = nil, 0, 0 // it may hold blocks read before, which a.buf now reuses
	a.readBlocks(sk)
}

// readBlocks reads the blocks of seekBlock bytes (fewer at the end of the
// file) starting at a.starts, multiples of seekBlock, sorted and distinct,
// into a.data: each run of adjacent ones in one read, aheadReaders runs at
// a time. A run that cannot be read is left out (nil), so that reading it
// again reports the error where it is needed.
func (a *readAhead) readBlocks(sk *seeker) {
	runs := a.runs[:0]
	for i, s := range a.starts {
		if l := len(runs) - 1; l >= 0 && a.starts[i-1]+seekBlock == s {
			runs[l].n++
			continue
		}
		runs = append(runs, blockRun{first: i, n: 1})
	}
	a.runs = runs
	if need := len(a.starts) * seekBlock; cap(a.buf) < need {
		a.buf = make([]byte, need)
	}
	a.data = slices.Grow(a.data[:0], len(a.starts))[:len(a.starts)]
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(aheadReaders, len(runs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(runs) {
					return
				}
				r := runs[i]
				off := a.starts[r.first]
				buf := a.buf[r.first*seekBlock : (r.first+r.n)*seekBlock]
				buf = buf[:min(int64(len(buf)), sk.size-off)]
				ok := sk.readAt(buf, off) == nil
				for j := r.first; j < r.first+r.n; j++ {
					a.data[j] = nil
					if ok {
						lo := (j - r.first) * seekBlock
						a.data[j] = buf[lo:min(len(buf), lo+seekBlock)]
					}
				}
			}
		}()
	}
	wg.Wait()
}

// blockRun is a run of adjacent blocks: a.starts[first : first+n].
type blockRun struct{ first, n int }
