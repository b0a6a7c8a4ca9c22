// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The constants of sampling by seeking; NewCSVAt documents the rules they
// set.
const (
	seekBlock     = 4096     // bytes of the aligned block read around a drawn byte
	headBytes     = 64 << 10 // bytes of rows after the header read before drawing
	seekRowsRatio = 8        // seek when the draws expected are at most rows/seekRowsRatio,
	seekByteRatio = 512      // or at most (bytes of rows)/seekByteRatio
	maxAcceptRate = 8        // accepted rows allowed per row wanted (Size × groups)
	maxDrawRate   = 64       // draws allowed per draw expected
	minDrawBudget = 4096     // draws allowed in any case
	maxSeekGroups = 256      // group values met before the groups are read in full
	seekCheck     = 256      // draws between two looks at the context
)

// seeker is the state of one Sample by seeking.
type seeker struct {
	rd   *reader
	ra   io.ReaderAt
	size int64       // bytes of the file
	h    int64       // the first byte of the data region
	end  int64       // one past its last byte: size, plus 1 without a final newline
	lmin int64       // lower bound on the length of a valid data row
	src  rand.Source // of rng
	rng  *rand.Rand
	// ahead reads the blocks of the next draws before they are drawn; nil
	// when the random source cannot be copied.
	ahead *readAhead
	want  int // rows of each group
	// the longest line read (Options.MaxLine)
	maxLine int64

	buf  []byte // the bytes [ws, we) of the file
	back []byte // storage reused for buf
	ws   int64
	we   int64

	groups  map[string]*seekGroup
	first   map[string]int64 // earliest offset of each group value met in the first rows
	taken   map[int64]bool   // start offsets of the rows kept
	hits    int              // accepted draws of valid rows, repeats included
	dropped int              // accepted draws of rows dropped for an empty cell
	rows    int              // rows read and validated
	split   []string         // scratch for splitting a line
}

// seekGroup is a group being sampled by seeking.
type seekGroup struct {
	key      string
	earliest int64 // offset of its earliest row met
	hits     int   // accepted draws of its rows, repeats included
	data     []float64
	offsets  []int64
}

// errFallback is returned inside the seeker when the input must be read
// in full; reason says why when it deserves a note.
type errFallback struct{ reason string }

func (e *errFallback) Error() string { return e.reason }

// fallback returns an *errFallback whose reason is formatted from format
// and args ("" for no note).
func fallback(format string, args ...any) error {
	if format == "" {
		return &errFallback{}
	}
	return &errFallback{reason: fmt.Sprintf(format, args...)}
}

// seekSample samples the rows that q selects by seeking (see NewCSVAt). It
// returns a nil table and no error when the input must be read in full
// instead, with the reason for a note, if any.
func (c *CSV) seekSample(ctx context.Context, q Query, s Sampling) (*Table, string, error) {
	sk := c.newSeeker(ctx, q, s)
	if sk == nil {
		return nil, "", nil // the full read reports it
	}
	sk.ahead = newReadAhead(sk.src)
	t, err := sk.sample(c.alwaysSeek)
	if fb, ok := err.(*errFallback); ok {
		return nil, fb.reason, nil
	}
	return t, "", err
}

// sample reads the first rows, then draws.
func (sk *seeker) sample(always bool) (*Table, error) {
	meanLen, err := sk.head(always)
	if err != nil {
		return nil, err
	}
	rd := sk.rd
	d := rd.delim
	sk.lmin = int64(len(rd.header)-1)*int64(utf8.RuneLen(d)) + 1
	if !rd.q.DropMissing && rd.mixed == nil { // a mixed table's cells may be empty
		sk.lmin += int64(len(rd.cols))
		if rd.gcol >= 0 {
			sk.lmin++
		}
	}
	sk.lmin = max(sk.lmin, 2)
	groups := max(1, len(sk.first))
	if len(rd.q.Groups) > 0 {
		groups = len(rd.q.Groups)
	}
	if rd.q.MaxGroups > 0 {
		groups = min(groups, rd.q.MaxGroups)
	}
	perRow := meanLen / float64(sk.lmin) // draws per accepted row, expected
	expected := float64(sk.want) * float64(groups) * perRow
	rows := float64(sk.end-sk.h) / meanLen
	if !always && expected > max(rows/seekRowsRatio, float64(sk.end-sk.h)/seekByteRatio) {
		return nil, fallback("")
	}
	return sk.draw(perRow)
}

// head reads the header and the data rows of the first headBytes after it,
// validating them, deciding the default columns and meeting the first
// group values. It returns the mean length of their lines. The whole file
// in its first rows means a full read, unless always.
func (sk *seeker) head(always bool) (float64, error) {
	rd := sk.rd
	var bom [3]byte
	n, _ := sk.ra.ReadAt(bom[:], 0)
	off0 := int64(0)
	if n == 3 && bytes.Equal(bom[:], utf8BOM) {
		off0 = 3
	}
	cr, err := newReader(io.NewSectionReader(sk.ra, 0, sk.size), rd.name, rd.delim, int(sk.maxLine))
	if err != nil {
		return 0, err
	}
	rd.cr = cr
	if err := rd.readHeader(); err != nil {
		return 0, err
	}
	sk.h = off0 + cr.InputOffset()
	sk.end = sk.size
	if sk.size > sk.h {
		var last [1]byte
		if _, err := sk.ra.ReadAt(last[:], sk.size-1); err != nil {
			return 0, fmt.Errorf("dataset: %s: reading: %w", rd.name, err)
		}
		if last[0] != '\n' {
			sk.end++
		}
	}
	rd.table.Name = rd.name
	nh := len(rd.header)
	rows := 0
	for off0+cr.InputOffset() < sk.h+headBytes {
		off := off0 + cr.InputOffset()
		rec, err := cr.Read()
		if err == io.EOF {
			if always {
				break
			}
			return 0, fallback("") // the whole file is in its first rows
		}
		if err != nil {
			return 0, fallback("")
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != nh {
			if nh > 1 && isBlankRecord(rec) {
				continue
			}
			return 0, fallback("")
		}
		for _, f := range rec {
			if strings.ContainsAny(f, "\r\n") {
				return 0, fallback("a quoted field spans lines (line %d): random access needs one row per line", line)
			}
		}
		rows++
		if rows == 1 {
			rd.firstData = line
		}
		if rd.deflt && (rows == 1 || len(rd.undecided) > 0) {
			if err := rd.decide(rec, line); err != nil {
				return 0, fallback("")
			}
		}
		key, missing, err := rd.parseRow(rec, func(_ int, kind error) error { return kind })
		if err != nil {
			return 0, fallback("")
		}
		if _, ok := sk.first[key]; rd.gcol >= 0 && !missing && !ok {
			sk.first[strings.Clone(key)] = off
		}
		rd.rowsSeen = rows
	}
	sk.rows = rows
	switch {
	case rows == 0 || len(rd.cols) == 0:
		return 0, fallback("")
	case len(rd.undecided) > 0:
		return 0, fallback("column %s is empty in the first %d rows: a full read decides whether it is numeric",
			quote(rd.header[rd.undecided[0]]), rows)
	}
	return float64(off0+cr.InputOffset()-sk.h) / float64(rows), nil
}

// draw draws rows until every group kept holds sk.want of them. perRow is
// the expected number of draws per accepted row.
func (sk *seeker) draw(perRow float64) (*Table, error) {
	rd := sk.rd
	span := sk.end - sk.h
	draws := 0
	for {
		if draws%seekCheck == 0 {
			if err := rd.ctx.Err(); err != nil {
				return nil, fmt.Errorf("dataset: %s: after %d draws: %w", rd.name, draws, err)
			}
		}
		groups := max(1, len(sk.groups))
		if m := rd.q.MaxGroups; m > 0 {
			groups = min(groups, m)
		}
		if sk.hits+sk.dropped >= maxAcceptRate*sk.want*groups ||
			float64(draws) >= maxDrawRate*float64(sk.want*groups)*perRow+minDrawBudget {
			return nil, sk.tooRare(draws)
		}
		if sk.ahead != nil {
			sk.ahead.expect(sk, perRow, groups)
		}
		draws++
		u := sk.h + sk.rng.Int64N(span)
		if sk.ahead != nil {
			sk.ahead.drawn(u)
		}
		start, n, text, err := sk.lineAt(u)
		if err != nil {
			return nil, err
		}
		if isBlankLine(text, len(rd.header), rd.delim) || sk.rng.Int64N(n) >= sk.lmin {
			continue
		}
		done, err := sk.accept(start, n, text)
		if err != nil {
			return nil, err
		}
		if done {
			return sk.table(draws, span), nil
		}
	}
}

// isBlankLine reports whether a line, without its terminator, is no data
// row for a header of nh fields and the delimiter d, as a full read skips
// it: empty, or only white space when nh > 1 and d is not white space.
func isBlankLine(text []byte, nh int, d rune) bool {
	return len(text) == 0 || (nh > 1 && !unicode.IsSpace(d) && len(bytes.TrimSpace(text)) == 0)
}

// accept validates the accepted line text, starting at byte start and n
// bytes long with its terminator, and keeps its row in its group. It
// reports whether every group kept is full.
func (sk *seeker) accept(start, n int64, text []byte) (bool, error) {
	rd := sk.rd
	rec, err := sk.fields(text)
	if err != nil || len(rec) != len(rd.header) {
		return false, fallback("the line at byte %d is not one row of %d fields (a quoted field spanning lines?): random access needs one row per line",
			start, len(rd.header))
	}
	key, missing, err := rd.parseRow(rec, func(i int, kind error) error {
		return &ParseError{File: rd.name, Offset: start, Column: rd.header[i], Index: i + 1, Err: kind,
			msg: cellMessage(kind, rec[i], rd.delim)}
	})
	if err != nil {
		return false, err
	}
	sk.rows++
	if n < sk.lmin && !missing {
		// Not possible for a valid row (see NewCSVAt); read in full rather
		// than return a biased sample.
		return false, fallback("the line at byte %d is shorter than a row can be", start)
	}
	if missing {
		sk.dropped++
		return false, nil
	}
	if rd.gcol >= 0 && len(rd.q.Groups) > 0 && !slices.Contains(rd.q.Groups, key) {
		rd.other(key)
		return false, nil
	}
	sk.hits++
	g := sk.groups[key]
	if g == nil {
		if len(sk.groups) == maxSeekGroups {
			return false, fallback("more than %d group values", maxSeekGroups)
		}
		g = &seekGroup{key: strings.Clone(key), earliest: start}
		if f, ok := sk.first[key]; ok {
			g.earliest = f
		}
		sk.groups[g.key] = g
	}
	g.earliest = min(g.earliest, start)
	g.hits++
	if sk.taken[start] || len(g.offsets) == sk.want {
		return false, nil
	}
	sk.taken[start] = true
	g.data = append(g.data, rd.row...)
	g.offsets = append(g.offsets, start)
	if len(g.offsets) < sk.want {
		return false, nil
	}
	return sk.full(), nil
}

// wanted returns the groups kept so far, by earliest row: the first
// Query.MaxGroups of those met.
func (sk *seeker) wanted() []*seekGroup {
	gs := make([]*seekGroup, 0, len(sk.groups))
	for _, g := range sk.groups {
		gs = append(gs, g)
	}
	sort.Slice(gs, func(a, b int) bool { return gs[a].earliest < gs[b].earliest })
	if m := sk.rd.q.MaxGroups; m > 0 && len(gs) > m {
		gs = gs[:m]
	}
	return gs
}

// full reports whether every group kept holds sk.want rows, and as many
// groups have been met as can be kept: every value of Query.Groups (at
// most Query.MaxGroups of them), or Query.MaxGroups values, or, without
// either, every value met in the first rows.
func (sk *seeker) full() bool {
	ws := sk.wanted()
	for _, g := range ws {
		if len(g.offsets) < sk.want {
			return false
		}
	}
	n, m := len(sk.rd.q.Groups), sk.rd.q.MaxGroups
	switch {
	case n > 0 && m > 0:
		return len(ws) >= min(n, m)
	case n > 0:
		return len(ws) >= n
	case m > 0:
		return len(ws) >= m
	}
	// Every group: those met in the first rows too, which the draws may
	// not have reached yet.
	for k := range sk.first {
		if sk.groups[k] == nil {
			return false
		}
	}
	return true
}

// tooRare returns the fallback when the budget of draws is spent.
func (sk *seeker) tooRare(draws int) error {
	rd := sk.rd
	for _, g := range sk.wanted() {
		if len(g.offsets) < sk.want {
			if rd.gcol < 0 {
				break
			}
			return fallback("group %s is too rare to sample: %d of its rows in %d rows drawn", quote(g.key), g.hits, sk.hits+sk.dropped)
		}
	}
	for _, k := range rd.q.Groups {
		if sk.groups[k] == nil {
			return fallback("group %s was not met in %d rows drawn", quote(k), sk.hits+sk.dropped)
		}
	}
	if m := rd.q.MaxGroups; rd.gcol >= 0 && len(sk.groups) < m {
		return fallback("%d group values met in %d rows drawn, fewer than %d", len(sk.groups), sk.hits+sk.dropped, m)
	}
	return fallback("%d draws kept only %d rows", draws, len(sk.taken))
}

// table returns the sampled table after draws draws over span bytes.
func (sk *seeker) table(draws int, span int64) *Table {
	rd := sk.rd
	t := &rd.table
	t.Sampled, t.Draws, t.RowsRead = true, draws, sk.rows
	scale := float64(span) / float64(sk.lmin) // rows if every draw accepted one
	estimate := func(hits int) (float64, float64) {
		p := float64(hits) / float64(draws)
		return scale * p, scale * math.Sqrt(p*(1-p)/float64(draws))
	}
	dr, _ := estimate(sk.dropped)
	t.Dropped = int(math.Round(dr))
	ws := sk.wanted()
	kept := make(map[*seekGroup]bool, len(ws))
	for _, g := range ws {
		kept[g] = true
	}
	all := make([]*seekGroup, 0, len(sk.groups))
	for _, g := range sk.groups {
		all = append(all, g)
	}
	sort.Slice(all, func(a, b int) bool { return all[a].earliest < all[b].earliest })
	c := len(rd.cols)
	for _, g := range all {
		if !kept[g] {
			rd.other(g.key)
			continue
		}
		n, se := estimate(g.hits)
		gr := Group{Key: g.key, Rows: max(int(math.Round(n)), len(g.offsets)), RowsStdErr: se,
			Data: g.data, Lines: make([]int, len(g.offsets)), Offsets: g.offsets}
		gr.Data, gr.Offsets = sortRows(gr.Data, gr.Offsets, c)
		if rd.mixed != nil {
			rd.mixed.estimate(&gr, c)
		}
		t.Groups = append(t.Groups, gr)
	}
	rd.complete(t)
	return t
}

// fields splits a line, without its terminator, into its fields.
func (sk *seeker) fields(text []byte) ([]string, error) {
	d := sk.rd.delim
	if bytes.IndexByte(text, '"') < 0 {
		sk.split = sk.split[:0]
		s := string(text)
		for {
			i := strings.IndexRune(s, d)
			if i < 0 {
				sk.split = append(sk.split, s)
				return sk.split, nil
			}
			sk.split = append(sk.split, s[:i])
			s = s[i+utf8.RuneLen(d):]
		}
	}
	cr := csv.NewReader(bytes.NewReader(text))
	cr.Comma = d
	cr.FieldsPerRecord = -1
	rec, err := cr.Read()
	if err != nil {
		return nil, err
	}
	if _, err := cr.Read(); err != io.EOF {
		return nil, fmt.Errorf("more than one record")
	}
	return rec, nil
}

// lineAt returns the line holding byte u of the data region: the offset
// of its start, its length n with its terminator (counting the newline
// that a last line without one is taken to have), and its text without the
// terminator. It fails when the line is longer than sk.maxLine, or when a
// block read holds a line with an odd number of quote characters.
func (sk *seeker) lineAt(u int64) (start, n int64, text []byte, err error) {
	ws := max(sk.h, u-u%seekBlock)
	if err := sk.window(ws, min(sk.size, ws+seekBlock)); err != nil {
		return 0, 0, nil, err
	}
	for {
		if i := bytes.LastIndexByte(sk.buf[:u-sk.ws], '\n'); i >= 0 {
			start = sk.ws + int64(i) + 1
			break
		}
		if sk.ws == sk.h {
			start = sk.h
			break
		}
		if u-sk.ws > sk.maxLine {
			return 0, 0, nil, sk.tooLong(u)
		}
		if err := sk.window(max(sk.h, sk.ws-max(seekBlock, sk.we-sk.ws)), sk.we); err != nil {
			return 0, 0, nil, err
		}
	}
	end := int64(0)
	for {
		if i := bytes.IndexByte(sk.buf[u-sk.ws:], '\n'); i >= 0 {
			end = u + int64(i) + 1
			break
		}
		if sk.we == sk.size {
			end = sk.size + 1
			break
		}
		if sk.we-start > sk.maxLine {
			return 0, 0, nil, sk.tooLong(u)
		}
		if err := sk.window(sk.ws, min(sk.size, sk.we+max(seekBlock, sk.we-sk.ws))); err != nil {
			return 0, 0, nil, err
		}
	}
	if end-start > sk.maxLine+1 {
		return 0, 0, nil, sk.tooLong(u)
	}
	if err := sk.checkQuotes(); err != nil {
		return 0, 0, nil, err
	}
	text = sk.buf[start-sk.ws : min(end, sk.size)-sk.ws]
	text = bytes.TrimSuffix(text, []byte{'\n'})
	text = bytes.TrimSuffix(text, []byte{'\r'})
	return start, end - start, text, nil
}

// tooLong returns the error for a line longer than sk.maxLine holding the
// byte u (its start is not known).
func (sk *seeker) tooLong(u int64) error {
	return &ParseError{File: sk.rd.name, Offset: u, Err: ErrLineTooLong,
		msg: fmt.Sprintf("the line holding this byte is longer than %d bytes (a huge cell?)", sk.maxLine)}
}

// window reads the bytes [ws, we) of the file into sk.buf, keeping what it
// already holds.
func (sk *seeker) window(ws, we int64) error {
	if ws >= sk.ws && we <= sk.we && sk.buf != nil {
		sk.buf = sk.buf[ws-sk.ws : we-sk.ws]
		sk.ws, sk.we = ws, we
		return nil
	}
	if b := sk.ahead.block(ws, we); b != nil {
		sk.buf, sk.ws, sk.we = b, ws, we
		return nil
	}
	var buf []byte
	if sk.buf != nil && ws <= sk.ws && we >= sk.we && sk.we > sk.ws {
		buf = make([]byte, we-ws)
		copy(buf[sk.ws-ws:], sk.buf)
		if err := sk.readAt(buf[:sk.ws-ws], ws); err != nil {
			return err
		}
		if err := sk.readAt(buf[sk.we-ws:], sk.we); err != nil {
			return err
		}
		sk.back = buf
	} else {
		if int64(cap(sk.back)) < we-ws {
			sk.back = make([]byte, max(we-ws, seekBlock))
		}
		buf = sk.back[:we-ws]
		if err := sk.readAt(buf, ws); err != nil {
			return err
		}
	}
	sk.buf, sk.ws, sk.we = buf, ws, we
	return nil
}

// readAt fills p from offset off of the file.
func (sk *seeker) readAt(p []byte, off int64) error {
	if len(p) == 0 {
		return nil
	}
	n, err := sk.ra.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("dataset: %s: reading at byte %d: %w", sk.rd.name, off, err)
}

// checkQuotes fails when a line wholly in the window holds an odd number
// of quote characters: a quoted field spans lines.
func (sk *seeker) checkQuotes() error {
	b := sk.buf
	if bytes.IndexByte(b, '"') < 0 {
		return nil
	}
	off := sk.ws
	if sk.ws != sk.h { // the window starts inside a line: skip to the next
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return nil
		}
		b, off = b[i+1:], off+int64(i)+1
	}
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return nil
		}
		if bytes.Count(b[:i], []byte{'"'})%2 != 0 {
			return fallback("the line at byte %d has an odd number of quote characters (a quoted field spanning lines?): random access needs one row per line", off)
		}
		b, off = b[i+1:], off+int64(i)+1
	}
}
