// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/sublinear/pearson/internal/isnil"
)

// The constants of sampling in blocks; NewCSVBlocks documents the rules.
const (
	blockAttempts = 3    // samples drawn, the blocks doubled each time, before a short group means a full read
	minBlock      = 4096 // bytes of a block at least
	blockFull     = 4    // read in full when the blocks would cover more than 1/blockFull of the data
)

// CSVBlocks is a CSV Source whose Sample, with Sampling.Seek, reads
// blocks of rows at random offsets; see NewCSVBlocks.
type CSVBlocks struct {
	*CSV
	onRequest bool // sample in blocks only with Sampling.Blocks (a file opened by Open)
}

// NewCSVBlocks returns a Source reading the CSV text held by the size bytes
// of r, as NewCSVAt does, except that Sample with Sampling.Seek draws a
// two-stage sample of blocks of rows instead of single rows: a number of
// reads that depends on Sampling.Units, not on Sampling.Size, which is what
// an object behind a network with a long round trip needs (r may be a
// Prefetcher: the blocks are then fetched concurrently).
//
// # Sampling in blocks
//
// The data region (the bytes after the header, H of them, up to the end),
// read as a circle, is cut by n = Sampling.Units (DefaultUnits when zero)
// blocks of B bytes, each starting at an offset u drawn uniformly from the
// H offsets of the region, independently: a draw takes every row that
// starts inside [u, u + B), wrapping past the end to the region's start
// (rows start after a newline), so that every row is taken by a draw with
// probability B/H whatever its length or place, and every draw covers B
// bytes — a cluster sample of equal-probability clusters of equal size,
// drawn with replacement. (Blocks cut short at the region's edges, as
// when u ranged from B − 1 bytes before it, made the rows per draw
// skewed by rare short draws, and the count's error bar covered 87% of
// runs rather than 95%.) B is chosen for
// 1.2·Size rows expected over the draws for each group kept, from the mean
// length of the first rows (and doubled, with new draws, up to
// three times, when a group kept ends with fewer than Size rows).
// The rows of the draws (a row met by two draws once, for the first) are
// then subsampled uniformly to Size rows per group. Group.Units labels each
// kept row with its draw, as a two-stage Parquet sample does (see
// NewParquetAt): the rows of a block are not independent, and an error bar
// must treat the draws as the independent observations.
//
// The row counts are estimated by Hansen–Hurwitz: with k_j the rows of a
// group in draw j (a row met by several draws counted in each), N̂ =
// (H/B)·mean(k_j), unbiased, with standard error (H/B)·sd(k_j)/√n;
// Table.Dropped is estimated alike.
//
// Sample reads every row instead, as NewCSVAt does, when the first rows
// are the whole file or do not settle the columns, or when the blocks
// would cover more than a quarter of the data (a full read is then
// cheaper; a file opened by Open is then sampled row by row, or read in
// full, as NewCSVAt decides), or, with a note in
// Table.Fallback, when a line holds an odd number of quotes (a quoted
// field spanning lines defeats random access) or a group is too rare.
func NewCSVBlocks(r io.ReaderAt, size int64, name string, opts Options) *CSVBlocks {
	return &CSVBlocks{CSV: NewCSVAt(r, size, name, opts)}
}

// Sample samples the rows that q selects in blocks with s.Seek, or reads
// every row as CSV.Sample does; see NewCSVBlocks.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func (c *CSVBlocks) Sample(ctx context.Context, q Query, s Sampling) (*Table, error) {
	isnil.Context(ctx, "dataset.CSVBlocks.Sample")
	if c == nil || c.CSV == nil {
		return nil, errNilSource
	}
	if s.Size < 0 || !s.Seek || s.Size == 0 || c.onRequest && !s.Blocks {
		return c.CSV.Sample(ctx, q, s)
	}
	rewind := rewinder(s.Src)
	t, why, err := c.blockSample(ctx, q, s)
	if t != nil || err != nil {
		return t, err
	}
	rewind()
	if c.onRequest && why == "" {
		// A local file too small for blocks to pay: sampled row by row,
		// or read in full, as NewCSVAt decides.
		return c.CSV.Sample(ctx, q, s)
	}
	t, err = c.CSV.read(ctx, q, newSampler(s), nil)
	if t != nil {
		t.Fallback = why
	}
	return t, err
}

// blockRow is a row taken by a draw of a block sample.
type blockRow struct {
	off  int64
	draw int
	at   int // of its values in the group's data
}

// blockGroup is a group being sampled in blocks.
type blockGroup struct {
	key      string
	earliest int64
	rows     []blockRow
	data     []float64
	hits     []int // per draw
}

// blockSample draws the block sample of NewCSVBlocks. It returns a nil
// table and no error when the input must be read in full, with the reason
// for a note, if any.
func (c *CSV) blockSample(ctx context.Context, q Query, s Sampling) (*Table, string, error) {
	sk := c.newSeeker(ctx, q, s)
	if sk == nil {
		return nil, "", nil // the full read reports it
	}
	rd := sk.rd
	meanLen, err := sk.head(c.alwaysSeek)
	if fb, ok := err.(*errFallback); ok {
		return nil, fb.reason, nil
	}
	if err != nil {
		return nil, "", err
	}
	n := cmp.Or(s.Units, DefaultUnits)
	if n < 0 {
		n = DefaultUnits
	}
	groups := max(1, len(sk.first))
	if len(q.Groups) > 0 {
		groups = len(q.Groups)
	}
	if q.MaxGroups > 0 {
		groups = min(groups, q.MaxGroups)
	}
	span := sk.end - sk.h
	block := int64(math.Ceil(groupMargin * float64(s.Size) * float64(groups) * meanLen / float64(n)))
	block = max(block, minBlock, int64(2*meanLen))
	head := rd.table // the state after the first rows, for each attempt
	headRows := sk.rows
	var why string
	for range blockAttempts {
		if int64(n)*block > span/blockFull {
			return nil, "", nil // the blocks would read much of the file: a full read is cheaper
		}
		rd.table = head
		sk.rows = headRows
		t, short, err := sk.blocks(n, block, meanLen)
		if fb, ok := err.(*errFallback); ok {
			return nil, fb.reason, nil
		}
		if err != nil || t != nil {
			return t, "", err
		}
		why = short
		block *= 2
	}
	return nil, why, nil
}

// newSeeker returns the state of a sample of c by seeking or in blocks,
// without reading ahead; nil when the delimiter or q is invalid (the full
// read reports it).
func (c *CSV) newSeeker(ctx context.Context, q Query, s Sampling) *seeker {
	rd := &reader{ctx: ctx, name: c.name, q: q, delim: c.opts.Delimiter, gcol: -1}
	if rd.delim == 0 {
		rd.delim = ','
	}
	if !validDelimiter(rd.delim) || rd.checkQuery() != nil {
		return nil
	}
	src := s.Src
	if src == nil {
		src = rand.NewPCG(1, 2)
	}
	return &seeker{rd: rd, ra: c.ra, size: c.size, src: src, rng: rand.New(src), want: s.Size, maxLine: int64(cmp.Or(c.opts.MaxLine, DefaultMaxLine)),
		groups: make(map[string]*seekGroup), first: make(map[string]int64), taken: make(map[int64]bool)}
}

// blocks draws n blocks of size bytes and returns the table, or a nil
// table and why a group kept has too few rows.
func (sk *seeker) blocks(n int, size int64, meanLen float64) (*Table, string, error) {
	rd := sk.rd
	span := sk.end - sk.h
	starts := sk.blockStarts(n, size)
	margin := int64(4*meanLen) + 2
	sk.prefetchBlocks(starts, size, margin)
	st := &blockState{n: n, groups: make(map[string]*blockGroup), taken: make(map[int64]metRow), dropped: make([]int, n)}
	for j, u := range starts {
		if err := rd.ctx.Err(); err != nil {
			return nil, "", fmt.Errorf("dataset: %s: after %d blocks: %w", rd.name, j, err)
		}
		for _, seg := range sk.blockSegments(u, size) {
			if err := sk.readSegment(st, j, seg[0], seg[1], size, margin); err != nil {
				return nil, "", err
			}
		}
	}
	groups := st.groups
	kept := keptBlockGroups(rd, groups)
	if short := sk.blockShortfall(groups, kept, n, size); short != "" {
		return nil, short, nil
	}
	scale := float64(span) / float64(size)
	t := &rd.table
	t.Sampled, t.Draws, t.Units, t.RowsRead, t.BlockBytes = true, n, n, sk.rows, size
	d, _ := blockEstimate(st.dropped, scale)
	t.Dropped = int(math.Round(d))
	c := len(rd.cols)
	for _, g := range kept {
		gr := g.sample(sk.rng, sk.want, c, scale)
		if rd.mixed != nil {
			rd.mixed.estimate(&gr, c)
		}
		t.Groups = append(t.Groups, gr)
	}
	rd.complete(t)
	return t, "", nil
}

// blockState is what blocks collects over its n draws.
type blockState struct {
	n       int
	groups  map[string]*blockGroup
	taken   map[int64]metRow // the rows met, by the offset of their start
	dropped []int            // per draw: the rows dropped for a missing value
}

// metRow is what a row met by a draw came to: its group (nil for a row
// not kept), or dropped for a missing value.
type metRow struct {
	group   *blockGroup
	dropped bool
}

// blockStarts draws from sk.rng the starts of n blocks of size bytes,
// uniformly over the data region (a block that runs past its end wraps to
// its start: see blockSegments).
func (sk *seeker) blockStarts(n int, size int64) []int64 {
	span := sk.end - sk.h
	starts := make([]int64, n)
	for j := range starts {
		starts[j] = sk.h + sk.rng.Int64N(span)
	}
	return starts
}

// blockSegments returns the byte ranges [lo, hi) of the data region whose
// rows (those starting in them) the block of size bytes at u takes: the
// region is read as a circle, so that a block that runs past its end
// takes the rows at its start, every block covers size bytes (none is cut
// short at an edge) and every row is taken with probability size/H.
func (sk *seeker) blockSegments(u, size int64) [][2]int64 {
	hi := u + size
	if hi <= sk.end {
		return [][2]int64{{u, hi}}
	}
	return [][2]int64{{u, sk.end}, {sk.h, min(u, sk.h+hi-sk.end)}}
}

// readSegment reads into st, for draw j, the rows starting in [lo, hi) of
// a block of size bytes.
func (sk *seeker) readSegment(st *blockState, j int, lo, hi, size, margin int64) error {
	if lo >= hi {
		return nil
	}
	pos, ok, err := sk.firstRowFrom(lo, hi, size, margin)
	if err != nil || !ok { // !ok: no row starts after lo
		return err
	}
	return sk.readBlockRows(st, j, pos, hi)
}

// prefetchBlocks asks a Prefetcher, when sk reads from one, for the bytes
// of the blocks of size bytes at starts, margin bytes past each for the
// row that crosses its end, as lineAt reads them: in blocks aligned to
// seekBlock.
func (sk *seeker) prefetchBlocks(starts []int64, size, margin int64) {
	pf, ok := sk.ra.(Prefetcher)
	if !ok {
		return
	}
	rs := make([][2]int64, 0, len(starts))
	for _, u := range starts {
		for _, seg := range sk.blockSegments(u, size) {
			lo, hi := max(sk.h, seg[0]-1), seg[1]+margin
			lo -= lo % seekBlock
			hi += seekBlock - hi%seekBlock
			rs = append(rs, [2]int64{max(sk.h, lo), min(sk.size, hi)})
		}
	}
	pf.Prefetch(rs, false)
}

// firstRowFrom returns the start of the first row at or after lo, in a
// block of size bytes that ends at hi, or false when no row starts after
// lo; an error when the line there is longer than sk.maxLine.
func (sk *seeker) firstRowFrom(lo, hi, size, margin int64) (int64, bool, error) {
	if lo <= sk.h {
		return lo, true, nil
	}
	if err := sk.window(lo-1, min(sk.size, hi+margin)); err != nil {
		return 0, false, err
	}
	i := bytes.IndexByte(sk.buf, '\n')
	for i < 0 && sk.we < sk.size && sk.we-sk.ws <= sk.maxLine+size {
		if err := sk.window(sk.ws, min(sk.size, sk.we+max(minBlock, sk.we-sk.ws))); err != nil {
			return 0, false, err
		}
		i = bytes.IndexByte(sk.buf, '\n')
	}
	if i < 0 {
		if sk.we < sk.size {
			return 0, false, sk.tooLong(lo)
		}
		return 0, false, nil
	}
	return sk.ws + int64(i) + 1, true, nil
}

// readBlockRows reads the rows of draw j that start in [pos, hi), skipping
// blank lines, into st: a row with a missing value counts as dropped, one
// of a group not wanted goes to rd.other, the others to their group. A row
// met by an earlier draw is counted again in draw j's hits (or dropped) but
// not kept twice: Hansen–Hurwitz's count per draw must count every row the
// draw covers, or the estimate of the rows falls short by the blocks'
// overlaps (961 146–990 635 for 10⁶ rows, issue 37).
func (sk *seeker) readBlockRows(st *blockState, j int, pos, hi int64) error {
	rd := sk.rd
	for pos < hi && pos < sk.size {
		start, ln, text, err := sk.lineAt(pos)
		if err != nil {
			return err
		}
		next := start + ln
		if isBlankLine(text, len(rd.header), rd.delim) {
			pos = next
			continue
		}
		if met, ok := st.taken[start]; ok {
			st.countAgain(met, j)
			pos = next
			continue
		}
		rec, err := sk.fields(text)
		if err != nil || len(rec) != len(rd.header) {
			return fallback("the line at byte %d is not one row of %d fields (a quoted field spanning lines?): random access needs one row per line",
				start, len(rd.header))
		}
		key, missing, err := rd.parseRow(rec, func(i int, kind error) error {
			return &ParseError{File: rd.name, Offset: start, Column: rd.header[i], Index: i + 1, Err: kind,
				msg: cellMessage(kind, rec[i], rd.delim)}
		})
		if err != nil {
			return err
		}
		sk.rows++
		pos = next
		if missing {
			st.dropped[j]++
			st.taken[start] = metRow{dropped: true}
			continue
		}
		if rd.gcol >= 0 && len(rd.q.Groups) > 0 && !slices.Contains(rd.q.Groups, key) {
			rd.other(key)
			st.taken[start] = metRow{}
			continue
		}
		g := st.groups[key]
		if g == nil {
			if len(st.groups) == maxSeekGroups {
				return fallback("more than %d group values", maxSeekGroups)
			}
			g = &blockGroup{key: strings.Clone(key), earliest: start, hits: make([]int, st.n)}
			if f, ok := sk.first[key]; ok {
				g.earliest = min(f, start)
			}
			st.groups[g.key] = g
		}
		g.earliest = min(g.earliest, start)
		g.hits[j]++
		st.taken[start] = metRow{group: g}
		g.rows = append(g.rows, blockRow{off: start, draw: j, at: len(g.data)})
		g.data = append(g.data, rd.row...)
	}
	return nil
}

// countAgain counts in draw j a row met by an earlier draw.
func (st *blockState) countAgain(met metRow, j int) {
	switch {
	case met.dropped:
		st.dropped[j]++
	case met.group != nil:
		met.group.hits[j]++
	}
}

// keptBlockGroups returns the groups met, in the order of their earliest
// rows, at most Query.MaxGroups of them; the others go to rd.other.
func keptBlockGroups(rd *reader, groups map[string]*blockGroup) []*blockGroup {
	all := make([]*blockGroup, 0, len(groups))
	for _, g := range groups {
		all = append(all, g)
	}
	sort.Slice(all, func(a, b int) bool { return all[a].earliest < all[b].earliest })
	var kept []*blockGroup
	for _, g := range all {
		if rd.q.MaxGroups > 0 && len(kept) == rd.q.MaxGroups {
			rd.other(g.key)
			continue
		}
		kept = append(kept, g)
	}
	return kept
}

// blockShortfall returns why the groups kept from n blocks of size bytes
// do not make the sample, or "": every group wanted must be met, with
// sk.want rows.
func (sk *seeker) blockShortfall(groups map[string]*blockGroup, kept []*blockGroup, n int, size int64) string {
	rd := sk.rd
	for _, k := range rd.q.Groups {
		if groups[k] == nil && (rd.q.MaxGroups == 0 || len(kept) < rd.q.MaxGroups) {
			return fmt.Sprintf("group %s was not met in %d blocks of %d bytes", quote(k), n, size)
		}
	}
	if len(rd.q.Groups) == 0 {
		for k := range sk.first {
			if groups[k] == nil && (rd.q.MaxGroups == 0 || len(kept) < rd.q.MaxGroups) {
				return fmt.Sprintf("group %s was not met in %d blocks of %d bytes", quote(k), n, size)
			}
		}
	}
	if len(kept) == 0 {
		return fmt.Sprintf("no row kept in %d blocks of %d bytes", n, size)
	}
	for _, g := range kept {
		if len(g.rows) < sk.want {
			what := "the table"
			if rd.gcol >= 0 {
				what = "group " + quote(g.key)
			}
			return fmt.Sprintf("%s: %d rows of it in %d blocks of %d bytes, fewer than %d", what, len(g.rows), n, size, sk.want)
		}
	}
	return ""
}

// blockEstimate returns scale times the mean of k, a count per block, and
// its standard error.
func blockEstimate(k []int, scale float64) (float64, float64) {
	m, v := 0.0, 0.0
	for _, x := range k {
		m += float64(x)
	}
	m /= float64(len(k))
	for _, x := range k {
		v += (float64(x) - m) * (float64(x) - m)
	}
	if len(k) > 1 {
		v /= float64(len(k) - 1)
	}
	return scale * m, scale * math.Sqrt(v/float64(len(k)))
}

// sample returns the group's Group: a uniform subsample of want of its
// rows drawn from rng, in the order of their offsets, with c values each,
// and its rows estimated from its hits per block (blockEstimate, scale).
func (g *blockGroup) sample(rng *rand.Rand, want, c int, scale float64) Group {
	rows := g.rows
	for i := range want { // a uniform subsample of want rows
		k := i + rng.IntN(len(rows)-i)
		rows[i], rows[k] = rows[k], rows[i]
	}
	rows = rows[:want]
	slices.SortFunc(rows, func(a, b blockRow) int { return cmp.Compare(a.off, b.off) })
	est, se := blockEstimate(g.hits, scale)
	gr := Group{Key: g.key, Rows: max(int(math.Round(est)), len(rows)), RowsStdErr: se,
		Data: make([]float64, 0, len(rows)*c), Lines: make([]int, len(rows)), Offsets: make([]int64, len(rows)), Units: make([]int, len(rows))}
	for i, r := range rows {
		gr.Data = append(gr.Data, g.data[r.at:r.at+c]...)
		gr.Offsets[i], gr.Units[i] = r.off, r.draw
	}
	return gr
}
