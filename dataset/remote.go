// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"encoding/binary"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/sublinear/pearson/internal/isnil"
)

// Object is a file read by byte ranges, such as an object of a store or a
// file behind a URL (see package objstore): one of the objects of a
// dataset given to OpenObjects.
type Object struct {
	// Path names the object in messages (its URL, shown without its
	// userinfo and query string).
	Path string
	// Key is its path below the prefix listed, "/"-separated ("" when
	// the object was named itself): its key=value segments are partition
	// keys, as the segments of a file's path below a directory are, and
	// its segments starting with "_" or "." are ignored.
	Key string
	// Size is its size in bytes.
	Size int64
	// R reads its bytes. When R is a Prefetcher, the readers tell it the
	// ranges they will read before they read them.
	R io.ReaderAt
}

// Prefetcher is an io.ReaderAt that can start fetching byte ranges before
// they are read, such as an object of a store over a network with a long
// round trip (objstore.Object): the readers of this package give it the
// ranges of the footer and page indexes of a Parquet object (with keep:
// they are read again), then, before each read, of every unit (row group
// or page) drawn, so that the ranges are fetched by concurrent requests
// instead of one after the other. Each range is a pair {start, end}: the
// bytes [start, end).
type Prefetcher interface {
	io.ReaderAt
	Prefetch(ranges [][2]int64, keep bool)
}

// The bytes of the end of a Parquet object prefetched with its footer,
// and the most bytes of page indexes kept.
const (
	remoteTail    = 64 << 10
	remoteIndexes = 256 << 10
)

// OpenObjects returns the Source reading the objects objs, a dataset
// named name in messages: Parquet when every object is one (a name ending
// in ".parquet", or "PAR1" as its first bytes), objects whose key has
// another suffix or a segment starting with "_" or "." left out as a
// directory's files are (see Parquet); CSV when objs is one object that
// is not Parquet, or the objects ending in ".csv" of a prefix without
// Parquet objects, which must share one header (see openCSVObjects). The
// footers of a Parquet dataset are fetched concurrently, with its page
// indexes, before they are read; uncompressed CSV is sampled in blocks
// (see NewCSVBlocks). A prefix holding compressed CSV objects (.csv.gz,
// .csv.zst) is sampled by drawing whole objects at random and reading
// them through their decoders, within a budget of compressed bytes (see
// Sampling.ObjectBytes and compressedObjects.Sample). A compressed CSV
// object named itself is refused: it cannot be sampled, and reading it
// would download it whole.
func OpenObjects(name string, objs []Object, opts Options) (Source, error) {
	name = displayName(name)
	objs = slices.Clone(objs)
	for i := range objs {
		objs[i].Path = displayName(objs[i].Path) // no userinfo or query string
	}
	if len(objs) == 0 {
		return nil, &ParseError{File: name, Err: ErrEmpty, msg: "no object"}
	}
	for _, o := range objs {
		if isnil.Is(o.R) {
			return nil, fmt.Errorf("dataset: %s: no reader (nil)", o.Path)
		}
	}
	if len(objs) == 1 && objs[0].Key == "" {
		o := objs[0]
		var head []byte
		if !isParquetName(o.Path) { // a Parquet object's head costs a request of its own
			head = make([]byte, len(pqMagic))
			n, err := o.R.ReadAt(head, 0)
			if err != nil && err != io.EOF {
				return nil, fmt.Errorf("dataset: %s: reading: %w", o.Path, err)
			}
			head = head[:n]
		}
		f, _, err := detect(o.Path, head)
		switch {
		case err != nil:
			return nil, err
		case f == FormatParquet:
			return openParquetObjects(name, objs, opts)
		case f == FormatNPZ:
			return nil, fmt.Errorf("dataset: %s: a NumPy archive is read from a local file: download it and give its local path", o.Path)
		case f != FormatCSV:
			return nil, fmt.Errorf("dataset: %s: a compressed CSV object cannot be sampled by byte ranges and would be downloaded whole: store it uncompressed, or as Parquet, or download it and give its local path", o.Path)
		}
		return NewCSVBlocks(o.R, o.Size, o.Path, opts), nil
	}
	var pq []Object
	for _, o := range objs {
		if ignoredKey(o.Key) {
			continue
		}
		pq = append(pq, o)
	}
	if len(pq) > 0 {
		return openParquetObjects(name, pq, opts)
	}
	var csv []Object
	for _, o := range objs {
		if csvObjectKey(o.Key) {
			csv = append(csv, o)
		}
	}
	if len(csv) == 0 {
		return nil, &ParseError{File: name, Err: ErrEmpty, msg: fmt.Sprintf("no .parquet or .csv object among the %d objects under the prefix", len(objs))}
	}
	if slices.ContainsFunc(csv, func(o Object) bool { return isCompressedKey(o.Key) }) {
		return openCompressedCSVObjects(name, csv, opts), nil
	}
	return openCSVObjects(name, csv, opts)
}

// ignoredKey reports whether an object below a prefix is not a shard of a
// Parquet dataset: its name does not end in ".parquet", or a segment of
// its key starts with "_" or ".".
func ignoredKey(key string) bool {
	return !isParquetName(key) || hiddenKey(key)
}

// keyPartitions returns the key=value segments of the folders of key, a
// "/"-separated path below the prefix listed, as partitions does for a file
// below a directory.
func keyPartitions(key string) map[string]string {
	return partitions(".", filepath.FromSlash(key))
}

// openParquetObjects opens a Parquet dataset of objects: their tails
// prefetched at once, then the rest of the footers longer than a tail
// (DuckDB's, of hundreds of row groups) at once, then each footer read and
// its page indexes kept, so that opening n objects costs two round trips,
// not n.
func openParquetObjects(name string, objs []Object, opts Options) (*Parquet, error) {
	for _, o := range objs {
		if pf, ok := o.R.(Prefetcher); ok {
			pf.Prefetch([][2]int64{{max(0, o.Size-remoteTail), o.Size}}, true)
		}
	}
	for _, o := range objs {
		pf, ok := o.R.(Prefetcher)
		if !ok || o.Size < 12+remoteTail {
			continue
		}
		var tail [8]byte
		if _, err := o.R.ReadAt(tail[:], o.Size-8); err != nil {
			continue // addShard reports it
		}
		// A length out of bounds is left to checkFooter to refuse.
		n := int64(binary.LittleEndian.Uint32(tail[:4]))
		if isParquetMagic(tail[4:]) && n+8 > remoteTail && n <= min(limits.footer, o.Size-12) {
			pf.Prefetch([][2]int64{{o.Size - 8 - n, o.Size - remoteTail}}, true)
		}
	}
	p := &Parquet{name: name, opts: opts}
	for _, o := range objs {
		sh := &pqShard{path: o.Path, size: o.Size, ra: o.R, parts: keyPartitions(o.Key)}
		if err := p.addShard(sh); err != nil {
			return nil, err
		}
		if pf, ok := o.R.(Prefetcher); ok && p.open != nil {
			keepIndexes(p.open, pf)
		}
	}
	return p, nil
}

// keepIndexes prefetches, to keep, the offset indexes of the open shard o
// when they are at most remoteIndexes bytes in all; otherwise those of the
// row groups drawn are fetched when drawn (prefetchIndexes), so that the
// bytes fetched do not grow with the rows of the dataset.
func keepIndexes(o *pqOpen, pf Prefetcher) {
	var rs [][2]int64
	total := int64(0)
	for _, rg := range o.pf.Metadata().RowGroups {
		for _, cc := range rg.Columns {
			if off, n := cc.OffsetIndexOffset, int64(cc.OffsetIndexLength); off > 0 && n > 0 && n <= limits.index {
				rs = append(rs, [2]int64{off, off + n})
				total += n
			}
		}
	}
	if len(rs) > 0 && total <= remoteIndexes {
		pf.Prefetch(rs, true)
	}
}

// prefetchIndexes prefetches, to keep, the offset indexes of the chunks
// of the columns pl reads in the row groups holding the rows drawn (rows
// of the dataset), for the shards whose readers are Prefetchers.
func (p *Parquet) prefetchIndexes(pl *pqPlan, rows []int64) {
	byReader := make(map[Prefetcher][][2]int64)
	var order []Prefetcher
	seen := make(map[[2]int]bool)
	rows = slices.Sorted(slices.Values(rows)) // a copy: one shard open after the other
	for _, x := range rows {
		k, g, _ := p.locate(x)
		sh := p.shards[k]
		pf, ok := sh.ra.(Prefetcher)
		if !ok {
			continue
		}
		if seen[[2]int{k, g}] {
			continue
		}
		seen[[2]int{k, g}] = true
		o, err := p.hold(sh)
		if err != nil {
			continue // the read reports it
		}
		rg := &o.pf.Metadata().RowGroups[g]
		for _, c := range pl.readCols(sh, true) {
			cc := &rg.Columns[c.leaf]
			if off, n := cc.OffsetIndexOffset, int64(cc.OffsetIndexLength); off > 0 && n > 0 && n <= limits.index {
				if byReader[pf] == nil {
					order = append(order, pf)
				}
				byReader[pf] = append(byReader[pf], [2]int64{off, off + n})
			}
		}
		p.release(o)
	}
	for _, pf := range order {
		pf.Prefetch(byReader[pf], true)
	}
}

// prefetchUnits tells the readers of the shards of reads that are
// Prefetchers the bytes that reading them will read: the column chunks, or
// with an offset index the pages holding the rows read and the
// dictionary page. It does nothing for local files.
func (p *Parquet) prefetchUnits(reads []unitRead) {
	byReader := make(map[Prefetcher][][2]int64)
	var order []Prefetcher
	for i := range reads {
		u := &reads[i]
		pf, ok := u.shard.ra.(Prefetcher)
		if !ok {
			continue
		}
		o, err := p.hold(u.shard)
		if err != nil {
			continue // the read reports it
		}
		rs := byReader[pf]
		if rs == nil {
			order = append(order, pf)
		}
		for j := range u.cols {
			c := &u.cols[j]
			ck, err := o.chunk(u.g, c)
			if err != nil {
				continue
			}
			var loc []pqLocation
			if u.useIndex && (u.from > 0 || u.to < ck.rows) {
				if l, err := o.pages(u.g, c); err == nil {
					for _, x := range l {
						loc = append(loc, pqLocation{x.Offset, int64(x.CompressedPageSize), x.FirstRowIndex})
					}
				}
			}
			if loc == nil {
				rs = append(rs, [2]int64{ck.start, ck.end})
				continue
			}
			// The library reads a page through a buffer of pqReadBuffer
			// bytes, which may reach past the page's end.
			pad := func(end int64) int64 { return min(ck.end, end+pqReadBuffer) }
			if loc[0].off > ck.start { // a dictionary page
				rs = append(rs, [2]int64{ck.start, pad(loc[0].off)})
			}
			for k, l := range loc {
				next := ck.rows
				if k+1 < len(loc) {
					next = loc[k+1].first
				}
				if next > u.from && l.first < u.to {
					rs = append(rs, [2]int64{l.off, pad(l.off + l.size)})
				}
			}
		}
		byReader[pf] = rs
		p.release(o)
	}
	for _, pf := range order {
		pf.Prefetch(byReader[pf], false)
	}
}

// pqReadBuffer is the size of the buffer through which the library reads
// pages (parquet.ReadBufferSize in openShard).
const pqReadBuffer = 4096

// pqLocation is a page's place in a file: its offset, its size, its first
// row in the row group.
type pqLocation struct{ off, size, first int64 }
