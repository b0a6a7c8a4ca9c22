// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"fmt"
	"runtime"
	"sync"
)

// The bounds of reading units ahead; readUnits documents them.
const (
	maxUnitReaders = 4       // goroutines reading units ahead at most
	maxAheadBytes  = 1 << 20 // bytes of decoded pages after which a cursor reads no more ahead (it reads one at least)
)

// unitRead is the reading of the rows [from, to) of row group g of a shard
// (a unit of a two-stage sample, or the part of it holding the rows
// drawn): the columns cols, read through their offset indexes with
// useIndex (see pqOpen.checkChunk).
type unitRead struct {
	shard    *pqShard
	g        int
	cols     []pqCol
	from, to int64
	useIndex bool
	// work, if not nil, is called by prepare with the shard and the
	// cursors once the pages are read ahead, on the preparing goroutine:
	// work on the unit alone, whose result does not depend on the units
	// before it. Its error is the preparation's.
	work func(o *pqOpen, curs []*pqCursor) error
}

// unitPages is a unitRead prepared: its shard held, its chunks checked and
// its cursors made at row from, with the pages holding the rows read,
// decompressed and decoded ahead (pqCursor.readAhead); or the error met
// on the way, which the sequential read would have met at the same point.
type unitPages struct {
	o    *pqOpen
	curs []*pqCursor
	err  error
}

// prepare prepares the reading u of p.
func (p *Parquet) prepare(u *unitRead) *unitPages {
	o, err := p.hold(u.shard)
	if err != nil {
		return &unitPages{err: err}
	}
	up := &unitPages{o: o}
	up.curs, up.err = o.cursors(u.g, u.cols, u.from, u.to, u.useIndex)
	if up.err == nil {
		for _, c := range up.curs {
			c.readAhead(u.to)
		}
		if u.work != nil {
			up.err = u.work(o, up.curs)
		}
	}
	return up
}

// done closes the cursors of up and releases its shard.
func (p *Parquet) done(up *unitPages) {
	closeCursors(up.curs)
	up.curs = nil
	if up.o != nil {
		p.release(up.o)
		up.o = nil
	}
}

// readUnits calls use(i, o, curs) for each reading reads[i] in order, on
// the calling goroutine, with the shard o and the cursors curs of the
// columns reads[i].cols, and returns the first error of a preparation or
// of use, after which it calls use no more. The units are prepared ahead
// (prepare) on w = min(GOMAXPROCS, 4) goroutines, at most w + 1 units at a
// time counting the one in use (so at most w + 2 shards are open), so that
// decompressing and decoding the pages, most of the cost of reading a
// unit, runs on every core, with the memory of a few units' pages; what
// use sees, and so every row kept, is the same on any number of cores. A unit not prepared
// when ctx is done is not prepared at all: use is not called for it and the
// cancellation is reported as the sequential read reports it.
func (p *Parquet) readUnits(ctx context.Context, reads []unitRead, use func(i int, o *pqOpen, curs []*pqCursor) error) error {
	n := len(reads)
	p.prefetchUnits(reads) // remote objects: their bytes fetched concurrently
	workers := min(runtime.GOMAXPROCS(0), maxUnitReaders, n)
	if workers <= 1 {
		for i := range reads {
			up := p.prepare(&reads[i])
			err := up.err
			if err == nil {
				err = use(i, up.o, up.curs)
			}
			p.done(up)
			if err != nil {
				return err
			}
		}
		return nil
	}
	prepared := make([]*unitPages, n)
	ready := make([]chan struct{}, n)
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	// A worker takes a token before it prepares a unit; use returns it
	// when done with the unit.
	tokens := make(chan struct{}, workers+1)
	for range cap(tokens) {
		tokens <- struct{}{}
	}
	stop := make(chan struct{})
	var next int
	var mu sync.Mutex // guards next
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-tokens:
				case <-stop:
					return
				}
				select {
				case <-stop:
					return
				default:
				}
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				if err := ctx.Err(); err != nil {
					u := &reads[i]
					prepared[i] = &unitPages{err: fmt.Errorf("dataset: %s: row group %d: %w", u.shard.path, u.g, err)}
				} else {
					prepared[i] = p.prepare(&reads[i])
				}
				close(ready[i])
			}
		}()
	}
	defer func() {
		close(stop)
		wg.Wait()
		for i, up := range prepared {
			if up != nil {
				p.done(up)
				prepared[i] = nil
			}
		}
	}()
	for i := range reads {
		<-ready[i]
		up := prepared[i]
		err := up.err
		if err == nil {
			err = use(i, up.o, up.curs)
		}
		p.done(up)
		prepared[i] = nil
		if err != nil {
			return err
		}
		tokens <- struct{}{}
	}
	return nil
}
