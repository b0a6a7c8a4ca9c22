// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/sublinear/pearson/internal/isnil"
)

// DefaultObjectBytes is about how many compressed bytes a sample (with Seek) of a
// prefix of compressed CSV objects reads (Sampling.ObjectBytes).
const DefaultObjectBytes = 32 << 20

// objectAhead is how many bytes of an object being decompressed are
// fetched ahead of the decoder.
const objectAhead = 16 << 20

// compressedObjects is a prefix of CSV objects of which some are
// compressed (as Spark and Hive write them, part-….csv.gz): a compressed
// object cannot be read from an offset, so a sample draws whole objects,
// each as likely as any other, and reads them through their decoders.
type compressedObjects struct {
	name  string
	objs  []Object // in key order
	total int64    // their bytes
	opts  Options
}

// isCompressedKey reports whether the key of a CSV object announces a
// compressed object (.gz or .zst).
func isCompressedKey(key string) bool { return byExtension(key) != uncompressed }

// openCompressedCSVObjects returns the source of a prefix of CSV objects
// of which some are compressed; see compressedObjects.Sample. No object
// is read before Sample or Scan.
func openCompressedCSVObjects(name string, objs []Object, opts Options) *compressedObjects {
	c := &compressedObjects{name: name, objs: objs, opts: opts}
	for _, o := range objs {
		c.total += max(0, o.Size)
	}
	return c
}

// Name returns the prefix's name.
func (c *compressedObjects) Name() string { return c.name }

// Close does nothing: the objects' readers belong to the caller.
func (c *compressedObjects) Close() error { return nil }

// Sample reads, with s.Seek (without it, every object is read, as a
// stream is), a simple random sample of k of the M objects of the
// prefix, whole, each drawn with the same probability k/M (without
// replacement), so that every row of the dataset is read with probability
// k/M, and keeps a uniform sample of s.Size rows of each group of the rows
// read (the reservoir of a CSV stream). k is the number of objects of the
// mean size that s.ObjectBytes holds, at least 2 (and at most M): the
// compressed bytes read are about s.ObjectBytes whatever the size of the
// prefix, more when the objects drawn are larger than the mean. When k is
// M, or s.Size is 0, or s.Seek is false, every object is read and the table is that of the
// one CSV of their rows; s.Size 0 (every row kept) is refused when the
// objects hold more than s.ObjectBytes, whose rows, held in memory, could
// be any number. Otherwise Table.Sampled is set, Table.Objects and
// Table.ObjectsRead are M and k, Table.Draws and Table.Units are k and
// Group.Units gives the object (0 to k−1) of each kept row: the objects
// are the independent draws of the sample, and an error bar must treat
// them, not the rows, as the independent observations. A group's rows are
// estimated by the ratio to the compressed bytes, Rows = n·B/b for n rows
// in the b bytes read of B, with the standard error of a ratio estimator
// under sampling without replacement, M·sqrt((1 − k/M)/k · Σ(nⱼ −
// R·bⱼ)²/(k − 1)) for R = n/b; Table.Dropped and Group.Missing are scaled
// alike. Group.Lines are the lines of the objects read, counted one after
// the other.
func (c *compressedObjects) Sample(ctx context.Context, q Query, s Sampling) (*Table, error) {
	isnil.Context(ctx, "dataset.OpenObjects(...).Sample")
	if s.Size < 0 {
		return nil, fmt.Errorf("dataset: %s: negative sample size %d", c.name, s.Size)
	}
	if s.Src == nil {
		s.Src = rand.NewPCG(1, 2)
	}
	if budget := c.budget(s); s.Size == 0 && c.total > budget {
		return nil, fmt.Errorf("dataset: %s: keeping every row of its %d compressed CSV objects would download and decompress them all (%d bytes compressed, more than the %d bytes a sample reads) and hold every row: keep a sample of the rows, or scan them",
			c.name, len(c.objs), c.total, budget)
	}
	picked := c.pick(s)
	st := c.stream(ctx, picked)
	src := NewCSV(st, c.name, c.opts)
	if c.opts.Progress != nil {
		src.opts.Progress = nil
		st.progress = c.opts.Progress
	}
	m := len(picked)
	counts := make(map[string][]float64)
	src.tally = func(group string, line int) {
		n := counts[group]
		if n == nil {
			n = make([]float64, m)
			counts[group] = n
		}
		n[st.object(line)]++
	}
	if m < len(c.objs) {
		s.Rows = nil // a sample of the objects: not every row
	}
	t, err := src.read(ctx, q, newSampler(s), nil)
	if err != nil {
		return nil, st.locate(err)
	}
	if m == len(c.objs) {
		return t, nil
	}
	c.estimate(t, picked, counts)
	for i := range t.Groups {
		g := &t.Groups[i]
		g.Units = make([]int, len(g.Lines))
		for j, l := range g.Lines {
			g.Units[j] = st.object(l)
		}
	}
	return t, nil
}

// pick returns the objects a sample reads, in key order: every one when
// s.Size is 0 or s.Seek is false, otherwise a simple random sample of k of them (see Sample).
func (c *compressedObjects) pick(s Sampling) []Object {
	m := len(c.objs)
	if s.Size == 0 || !s.Seek || m <= 2 || c.total == 0 {
		return c.objs
	}
	budget := c.budget(s)
	k := m
	if f := float64(budget) * float64(m) / float64(c.total); f < float64(m) {
		k = max(2, int(f))
	}
	if k >= m {
		return c.objs
	}
	rnd := rand.New(s.Src)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	for i := range k { // a partial Fisher–Yates shuffle
		j := i + rnd.IntN(m-i)
		idx[i], idx[j] = idx[j], idx[i]
	}
	idx = idx[:k]
	slices.Sort(idx)
	out := make([]Object, k)
	for i, j := range idx {
		out[i] = c.objs[j]
	}
	return out
}

// budget returns the compressed bytes a sample reads, about.
func (c *compressedObjects) budget(s Sampling) int64 {
	if s.ObjectBytes <= 0 {
		return DefaultObjectBytes
	}
	return s.ObjectBytes
}

// estimate turns the counts of the table t, read from the objects picked,
// into estimates for the whole prefix (see Sample); counts holds the rows
// of each group in each object.
func (c *compressedObjects) estimate(t *Table, picked []Object, counts map[string][]float64) {
	k, m := float64(len(picked)), float64(len(c.objs))
	read := int64(0)
	for _, o := range picked {
		read += o.Size
	}
	scale := float64(c.total) / float64(max(read, 1))
	t.Sampled = true
	t.Objects, t.ObjectsRead = len(c.objs), len(picked)
	t.Draws, t.Units = len(picked), len(picked)
	t.Dropped = int(math.Round(float64(t.Dropped) * scale))
	for i := range t.Groups {
		g := &t.Groups[i]
		n := counts[g.Key]
		r := float64(g.Rows) / float64(max(read, 1))
		ss := 0.0
		for j, o := range picked {
			e := n[j] - r*float64(o.Size)
			ss += e * e
		}
		g.RowsStdErr = m * math.Sqrt((1-k/m)/k*ss/(k-1))
		rows := int(math.Round(float64(g.Rows) * scale))
		for j := range g.Missing {
			g.Missing[j] = int(math.Round(float64(g.Missing[j]) * scale))
		}
		g.Rows = max(rows, g.Len())
	}
}

// Scan reads every object, in key order, as the one CSV of their rows
// (each object's header line, which must be the first object's, left
// out). The lines given to fn are counted through the objects one after
// the other.
func (c *compressedObjects) Scan(ctx context.Context, q Query, fn RowFunc) (*Table, error) {
	isnil.Context(ctx, "dataset.OpenObjects(...).Scan")
	if fn == nil {
		return nil, fmt.Errorf("dataset: %s: Scan: nil RowFunc", c.name)
	}
	st := c.stream(ctx, c.objs)
	src := NewCSV(st, c.name, c.opts)
	if c.opts.Progress != nil {
		src.opts.Progress = nil
		st.progress = c.opts.Progress
	}
	t, err := src.read(ctx, q, nil, fn)
	if err != nil {
		return nil, st.locate(err)
	}
	return t, nil
}

// stream returns the reader of the text of objs one after the other.
func (c *compressedObjects) stream(ctx context.Context, objs []Object) *objectStream {
	st := &objectStream{ctx: ctx, name: c.name, objs: objs, maxLine: c.opts.MaxLine}
	if st.maxLine <= 0 {
		st.maxLine = DefaultMaxLine
	}
	for _, o := range objs {
		st.size += o.Size
	}
	return st
}

// objectStream reads the decompressed text of objects one after the
// other: the first object's header line, then the data lines of every
// object, whose header line must be the same, a line end added after an
// object that lacks one. It remembers where each object's lines start.
type objectStream struct {
	ctx     context.Context
	name    string // the prefix's, as messages show it
	objs    []Object
	maxLine int
	size    int64 // the compressed bytes of objs

	i      int           // the object being read, len(objs) when done
	open   bool          // objs[i] is open
	text   *bufio.Reader // its decompressed text
	closer io.Closer     // its decoder; nil for an uncompressed object
	pend   []byte        // bytes to give before reading on

	header []byte // the first object's header line, its line end included
	lines  int    // line ends given so far
	last   byte   // the last byte given
	starts []int  // the stream line of the first data line of each object
	hlines []int  // the line of each object's header in the object

	read     int64 // compressed bytes read, of the objects done
	cur      *objectCounter
	progress func(read, size int64)
}

// Read gives the next bytes of the text.
func (st *objectStream) Read(p []byte) (int, error) {
	for {
		if len(st.pend) > 0 {
			n := copy(p, st.pend)
			st.pend = st.pend[n:]
			st.given(p[:n])
			return n, nil
		}
		if st.i == len(st.objs) {
			return 0, io.EOF
		}
		if !st.open {
			if err := st.next(); err != nil {
				return 0, err
			}
			continue
		}
		n, err := st.text.Read(p)
		st.given(p[:n])
		if st.progress != nil {
			st.progress(st.read+st.cur.n, st.size)
		}
		if err == io.EOF {
			st.done()
			err = nil
		}
		if err != nil {
			return n, fmt.Errorf("%s: %w", st.objs[st.i].Path, err)
		}
		if n > 0 {
			return n, nil
		}
	}
}

// given accounts for bytes given to the reader.
func (st *objectStream) given(b []byte) {
	if len(b) > 0 {
		st.lines += bytes.Count(b, []byte{'\n'})
		st.last = b[len(b)-1]
	}
}

// done closes the object being read.
func (st *objectStream) done() {
	if st.closer != nil {
		st.closer.Close()
	}
	st.read += st.objs[st.i].Size
	st.open, st.text, st.closer, st.cur = false, nil, nil, nil
	st.i++
}

// next opens the next object and reads its header line, leaving in
// st.pend what to give before its data lines.
func (st *objectStream) next() error {
	if err := st.ctx.Err(); err != nil {
		return err
	}
	o := st.objs[st.i]
	st.cur = &objectCounter{o: o}
	if o.Size == 0 { // an empty object, not even a compressed empty stream
		st.open, st.text = true, bufio.NewReader(bytes.NewReader(nil))
		st.starts = append(st.starts, st.lines+1)
		st.hlines = append(st.hlines, 0)
		return nil
	}
	raw := bufio.NewReaderSize(st.cur, 64<<10)
	head, err := raw.Peek(4)
	if err != nil && err != io.EOF {
		return fmt.Errorf("dataset: %s: reading: %w", o.Path, err)
	}
	k, err := checkCompression(o.Path, head)
	if err != nil {
		return err
	}
	var text io.Reader = raw
	if k != uncompressed {
		d, err := newDecoder(k, raw, o.Path)
		if err != nil {
			return err
		}
		st.closer, text = d, d
	}
	st.text, st.open = bufio.NewReaderSize(text, 64<<10), true
	h, hline, err := st.headerLine(o)
	if err != nil {
		return err
	}
	var pend []byte
	if st.last != '\n' && st.lines+len(st.header) > 0 {
		pend = append(pend, '\n') // the previous object lacks its line end
	}
	switch {
	case h == nil: // an empty object
	case st.header == nil:
		st.header = h
		pend = append(pend, h...)
		if h[len(h)-1] != '\n' {
			pend = append(pend, '\n')
		}
	case !bytes.Equal(bytes.TrimRight(h, "\r\n"), bytes.TrimRight(st.header, "\r\n")):
		return fmt.Errorf("dataset: %s: its header %s differs from the header %s of %s: the CSV objects under a prefix must share one header",
			o.Path, quote(strings.TrimRight(string(h), "\r\n")), quote(strings.TrimRight(string(st.header), "\r\n")), st.objs[0].Path)
	}
	st.pend = pend
	st.starts = append(st.starts, st.lines+bytes.Count(pend, []byte{'\n'})+1)
	st.hlines = append(st.hlines, hline)
	return nil
}

// headerLine reads the header line of the object o being opened (after
// blank lines and a byte-order mark), returning it and its line in the
// object; nil for an object without a line.
func (st *objectStream) headerLine(o Object) ([]byte, int, error) {
	for line := 1; ; line++ {
		var h []byte
		for {
			b, err := st.text.ReadSlice('\n')
			h = append(h, b...)
			if len(h) > st.maxLine {
				return nil, 0, &ParseError{File: o.Path, Line: line, Err: ErrLineTooLong,
					msg: fmt.Sprintf("the header line is longer than %d bytes", st.maxLine)}
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil && err != io.EOF {
				return nil, 0, fmt.Errorf("dataset: %s: reading: %w", o.Path, err)
			}
			break
		}
		if line == 1 {
			h = bytes.TrimPrefix(h, []byte("\ufeff"))
		}
		if len(bytes.TrimSpace(h)) > 0 {
			return h, line, nil
		}
		if len(h) == 0 || h[len(h)-1] != '\n' {
			return nil, 0, nil // the end of the object
		}
	}
}

// object returns the index of the object holding the stream line l.
func (st *objectStream) object(l int) int {
	return max(0, sort.SearchInts(st.starts, l+1)-1)
}

// locate rewrites an error naming a line of the stream to name the object
// and its line.
func (st *objectStream) locate(err error) error {
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line <= 0 || len(st.starts) == 0 || pe.File != st.name {
		return err // not a line of the stream
	}
	e := *pe
	j := st.object(pe.Line)
	e.File = st.objs[j].Path
	if pe.Line < st.starts[j] { // the header line
		e.Line = st.hlines[j]
	} else {
		e.Line = pe.Line - st.starts[j] + st.hlines[j] + 1
	}
	return &e
}

// objectCounter reads an object from its start, fetching objectAhead
// bytes ahead of the reads when it is a Prefetcher, and counts the bytes
// read.
type objectCounter struct {
	o     Object
	n     int64 // bytes read
	ahead int64 // bytes asked for
}

func (r *objectCounter) Read(p []byte) (int, error) {
	if r.n >= r.o.Size {
		return 0, io.EOF
	}
	if pf, ok := r.o.R.(Prefetcher); ok && r.ahead < r.o.Size && r.n+objectAhead/2 >= r.ahead {
		end := min(r.o.Size, r.ahead+objectAhead)
		pf.Prefetch([][2]int64{{r.ahead, end}}, false)
		r.ahead = end
	}
	p = p[:min(int64(len(p)), r.o.Size-r.n)]
	n, err := r.o.R.ReadAt(p, r.n)
	r.n += int64(n)
	if err == io.EOF && n == len(p) {
		err = nil
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF // shorter than listed
	}
	return n, err
}
