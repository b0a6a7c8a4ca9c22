// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
)

// The sizes of fetching; the package documentation describes them.
const (
	MinFetch    = 64 << 10 // bytes fetched at least by a read of bytes not fetched yet
	CoalesceGap = 32 << 10 // ranges of a prefetch closer than this are fetched by one request
	MaxRequest  = 8 << 20  // bytes of one request at most: longer ranges are split and fetched concurrently
)

// Range is the bytes [Start, End) of an object.
type Range struct{ Start, End int64 }

// backend fetches byte ranges of one object.
type backend interface {
	// get returns the bytes [off, off+n) of the object, checking that
	// its version is still the one listed.
	get(ctx context.Context, off, n int64) ([]byte, error)
}

// Object is one object of a store, or one file behind a URL, read by byte
// ranges; see the package documentation. Its methods may be called from
// several goroutines at once.
type Object struct {
	url  string // as shown in messages
	key  string // relative to the prefix listed ("" for one object)
	size int64
	etag string
	st   *Store
	be   backend

	mu    sync.Mutex
	segs  []*segment // sorted by start, possibly overlapping
	clock int64      // for the recency of segments
}

// segment is a range of the object fetched or being fetched.
type segment struct {
	start, end int64
	data       []byte
	done       chan struct{}
	err        error
	keep       bool  // never evicted
	used       int64 // Object.clock at the last read
}

// URL returns the object's URL, as messages show it: without its userinfo
// and query string, which may hold secrets.
func (o *Object) URL() string {
	if o == nil {
		return ""
	}
	return o.url
}

// Key returns the object's key relative to the prefix listed ("" when the
// URL named the object itself): the path whose key=value segments are
// partitions.
func (o *Object) Key() string {
	if o == nil {
		return ""
	}
	return o.key
}

// Size returns the object's size in bytes.
func (o *Object) Size() int64 {
	if o == nil {
		return 0
	}
	return o.size
}

// ETag returns the object's entity tag as listed ("" when the server gives
// none).
func (o *Object) ETag() string {
	if o == nil {
		return ""
	}
	return o.etag
}

// ReadAt reads len(p) bytes at offset off, from the cache or by ranged
// requests (see the package documentation). It returns io.EOF with fewer
// bytes when the object ends first.
func (o *Object) ReadAt(p []byte, off int64) (int, error) {
	if o == nil {
		return 0, errors.New("objstore: ReadAt on a nil *Object")
	}
	if off < 0 {
		return 0, fmt.Errorf("objstore: %s: negative offset %d", o.url, off)
	}
	if off >= o.size {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	end := min(off+int64(len(p)), o.size)
	pos := off
	for pos < end {
		s := o.segmentAt(pos, end)
		<-s.done
		if s.err != nil {
			return int(pos - off), s.err
		}
		pos += int64(copy(p[pos-off:end-off], s.data[pos-s.start:]))
	}
	if n := int(end - off); n < len(p) {
		return n, io.EOF
	}
	return len(p), nil
}

// segmentAt returns a segment holding byte pos, starting its fetch when
// none does: from pos to at least end, MinFetch bytes, up to the next
// segment.
func (o *Object) segmentAt(pos, end int64) *segment {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.clock++
	next := o.size
	for _, s := range o.segs {
		if s.start <= pos && pos < s.end {
			s.used = o.clock
			return s
		}
		if s.start > pos {
			next = min(next, s.start)
		}
	}
	fe := min(o.size, max(end, pos+MinFetch), next)
	return o.fetchLocked(pos, fe, false)
}

// fetchLocked adds the segment [start, end) and starts its fetch; o.mu is
// held.
func (o *Object) fetchLocked(start, end int64, keep bool) *segment {
	s := &segment{start: start, end: end, done: make(chan struct{}), keep: keep, used: o.clock}
	i, _ := slices.BinarySearchFunc(o.segs, start, func(s *segment, x int64) int {
		switch {
		case s.start < x:
			return -1
		case s.start > x:
			return 1
		}
		return 0
	})
	o.segs = slices.Insert(o.segs, i, s)
	o.st.pending.Add(1)
	go func() {
		defer o.st.pending.Add(-1)
		s.data, s.err = o.st.fetch(o, start, end-start)
		if s.err != nil {
			o.drop(s)
		}
		close(s.done)
		o.evict()
	}()
	return s
}

// drop removes the segment s.
func (o *Object) drop(s *segment) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if i := slices.Index(o.segs, s); i >= 0 {
		o.segs = slices.Delete(o.segs, i, i+1)
	}
}

// evict drops the least recently read segments fetched, not kept, while
// the segments of the store hold more than Settings.CacheBytes.
func (o *Object) evict() {
	o.mu.Lock()
	defer o.mu.Unlock()
	held := int64(0)
	for _, s := range o.segs {
		held += s.end - s.start
	}
	for held > o.st.cacheBytes {
		var old *segment
		for _, s := range o.segs {
			select {
			case <-s.done:
			default:
				continue
			}
			if !s.keep && (old == nil || s.used < old.used) {
				old = s
			}
		}
		if old == nil {
			return
		}
		held -= old.end - old.start
		o.segs = slices.DeleteFunc(o.segs, func(s *segment) bool { return s == old })
	}
}

// Prefetch starts fetching the ranges (any order, clipped to the object),
// less those already fetched or being fetched; ranges closer than
// CoalesceGap are fetched by one request, ranges longer than MaxRequest by
// several. With keep, the bytes stay in the cache until the object is
// dropped (a footer, an index). It does not wait: a later ReadAt waits
// for the bytes it reads. Ranges beyond the cache's size are left to be
// fetched when read.
//
// Each range is a pair {start, end}: the bytes [start, end).
func (o *Object) Prefetch(ranges [][2]int64, keep bool) {
	if o == nil {
		return
	}
	rs := make([]Range, 0, len(ranges))
	for _, x := range ranges {
		r := Range{max(x[0], 0), min(x[1], o.size)}
		if r.Start < r.End {
			rs = append(rs, r)
		}
	}
	slices.SortFunc(rs, func(a, b Range) int { return int(max(-1, min(1, a.Start-b.Start))) })
	var merged []Range
	for _, r := range rs {
		if n := len(merged); n > 0 && r.Start <= merged[n-1].End+CoalesceGap {
			merged[n-1].End = max(merged[n-1].End, r.End)
			continue
		}
		merged = append(merged, r)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	budget := o.st.cacheBytes / 2
	for _, r := range merged {
		// The parts of r not held by a segment.
		pos := r.Start
		for pos < r.End {
			covered := false
			next := r.End
			for _, s := range o.segs {
				if s.start <= pos && pos < s.end {
					pos, covered = s.end, true
					if keep {
						s.keep = true
					}
					break
				}
				if s.start > pos {
					next = min(next, s.start)
				}
			}
			if covered {
				continue
			}
			for pos < next {
				e := min(next, pos+MaxRequest)
				if budget < e-pos && !keep {
					return
				}
				budget -= e - pos
				o.fetchLocked(pos, e, keep)
				pos = e
			}
		}
	}
}
