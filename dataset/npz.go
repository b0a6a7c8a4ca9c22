// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"archive/zip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// NPZ is a table of columns stored as an uncompressed NumPy archive, as
// numpy.savez writes it: a zip file of one .npy array per column, the
// entry's name (without .npy) naming the column, the entries' order giving
// the header's. It is how the Python package hands an array or a DataFrame
// to the command without writing it out as text.
//
// Each entry must be stored (numpy.savez, not numpy.savez_compressed) and
// hold a one-dimensional array of one of these dtypes, in either byte
// order: float64 or float32 (NaN is a missing value, an empty cell; ±Inf
// is refused as in a CSV file), signed or unsigned integers of 1 to 8
// bytes, bool (the labels "True" and "False"), or fixed-width unicode
// ('<U', an empty string a missing value). Every array must have the same
// length. An object array (pickled) is refused.
//
// An NPZ is read with the rules of a CSV file whose cells are the arrays'
// values: every Query and Sampling option applies, a number column is
// numeric, a unicode or bool column is text (labels with Query.Labels, a
// mixed table or the default selection's rules). Rows are numbered from 1
// (Group.Lines and the "line" of a message are row numbers). The stored
// arrays are read in place, through the io.ReaderAt: with Sampling.Seek
// and without grouping, Sample draws Size rows uniformly at random and
// reads only the pages holding them; the row counts are then exact
// (Table.Sampled, without a standard error) unless rows are dropped for
// missing values, whose number is then estimated from the rows drawn.
type NPZ struct {
	name   string
	ra     io.ReaderAt
	closer io.Closer
	cols   []npyCol
	rows   int
}

// npyCol is one stored array: a column.
type npyCol struct {
	name  string
	off   int64 // of the first value in the archive
	kind  byte  // 'f', 'i', 'u', 'b' or 'U'
	width int   // bytes per value
	big   bool  // big-endian
}

// maxNpyHeader bounds the header of a .npy entry (numpy writes a few
// hundred bytes).
const maxNpyHeader = 1 << 16

// OpenNPZ opens the NumPy archive at path. See NPZ.
func OpenNPZ(path string, opts Options) (*NPZ, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("dataset: %s: %w", path, err)
	}
	src, err := openNPZ(f, fi.Size(), path, opts)
	if err != nil {
		return nil, err
	}
	return src.(*NPZ), nil
}

// NewNPZAt reads the directory of the NumPy archive of size bytes that r
// holds, and the header of each of its arrays. See NPZ.
func NewNPZAt(r io.ReaderAt, size int64, name string, _ Options) (*NPZ, error) {
	if r == nil {
		return nil, fmt.Errorf("dataset: %s: no reader (nil)", name)
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, &ParseError{File: name, Err: ErrCorrupt, msg: fmt.Sprintf("not a NumPy archive (.npz): %v", err)}
	}
	z := &NPZ{name: name, ra: r, rows: -1}
	for _, f := range zr.File {
		c, n, err := npyEntry(r, size, f)
		if err != nil {
			return nil, &ParseError{File: name, Column: strings.TrimSuffix(f.Name, ".npy"), Err: ErrCorrupt, msg: err.Error()}
		}
		if z.rows >= 0 && n != z.rows {
			return nil, &ParseError{File: name, Column: c.name, Err: ErrRagged,
				msg: fmt.Sprintf("has %d rows, column %s has %d: every array must have the same length", n, quote(z.cols[0].name), z.rows)}
		}
		z.rows = n
		z.cols = append(z.cols, c)
	}
	if len(z.cols) == 0 {
		return nil, &ParseError{File: name, Err: ErrEmpty, msg: "empty NumPy archive: no array"}
	}
	return z, nil
}

// npyHeader matches the fields of a .npy header's dictionary.
var (
	npyDescr   = regexp.MustCompile(`'descr':\s*'([^']*)'`)
	npyFortran = regexp.MustCompile(`'fortran_order':\s*(True|False)`)
	npyShape   = regexp.MustCompile(`'shape':\s*\(([^)]*)\)`)
)

// npyEntry reads the header of the array stored in f and returns its column
// and its length.
func npyEntry(r io.ReaderAt, size int64, f *zip.File) (npyCol, int, error) {
	c := npyCol{name: strings.TrimSuffix(f.Name, ".npy")}
	if !strings.HasSuffix(f.Name, ".npy") {
		return c, 0, fmt.Errorf("entry %s is not a .npy array", quote(f.Name))
	}
	if f.Method != zip.Store {
		return c, 0, errors.New("the array is compressed (numpy.savez_compressed): write it with numpy.savez, whose arrays can be read in place")
	}
	off, err := f.DataOffset()
	if err != nil {
		return c, 0, fmt.Errorf("reading the entry: %v", err)
	}
	var pre [12]byte
	if _, err := r.ReadAt(pre[:], off); err != nil {
		return c, 0, fmt.Errorf("reading the .npy header: %v", err)
	}
	if string(pre[:6]) != "\x93NUMPY" {
		return c, 0, errors.New("not a .npy array (bad magic bytes)")
	}
	var hlen, start int64
	switch pre[6] {
	case 1:
		hlen, start = int64(binary.LittleEndian.Uint16(pre[8:10])), 10
	case 2, 3:
		hlen, start = int64(binary.LittleEndian.Uint32(pre[8:12])), 12
	default:
		return c, 0, fmt.Errorf("unknown .npy version %d", pre[6])
	}
	if hlen > maxNpyHeader || off+start+hlen > size {
		return c, 0, fmt.Errorf(".npy header of %d bytes: too long for the file", hlen)
	}
	head := make([]byte, hlen)
	if _, err := r.ReadAt(head, off+start); err != nil {
		return c, 0, fmt.Errorf("reading the .npy header: %v", err)
	}
	n, err := c.parseHeader(string(head))
	if err != nil {
		return c, 0, err
	}
	c.off = off + start + hlen
	if data := int64(n) * int64(c.width); n < 0 || data/int64(c.width) != int64(n) || c.off+data > size ||
		uint64(start+hlen+data) > f.UncompressedSize64 {
		return c, 0, fmt.Errorf("%d values of %d bytes do not fit in the entry", n, c.width)
	}
	return c, n, nil
}

// parseHeader reads the dtype and length of a .npy header's dictionary.
func (c *npyCol) parseHeader(h string) (int, error) {
	d, fo, sh := npyDescr.FindStringSubmatch(h), npyFortran.FindStringSubmatch(h), npyShape.FindStringSubmatch(h)
	if d == nil || fo == nil || sh == nil {
		return 0, fmt.Errorf("malformed .npy header %s", quote(h))
	}
	dims := strings.FieldsFunc(sh[1], func(r rune) bool { return r == ',' || r == ' ' })
	if len(dims) != 1 {
		return 0, fmt.Errorf("an array of shape (%s): each column must be one-dimensional", sh[1])
	}
	n, err := strconv.Atoi(dims[0])
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad .npy shape (%s)", sh[1])
	}
	descr := d[1]
	if strings.Contains(descr, "O") {
		return 0, errors.New("an object array (pickled): convert it to numbers or to strings (numpy dtype 'U') first")
	}
	if len(descr) < 3 {
		return 0, fmt.Errorf("unsupported dtype %s", quote(descr))
	}
	order, kind := descr[0], descr[1]
	w, err := strconv.Atoi(descr[2:])
	if err != nil || w <= 0 || (order != '<' && order != '>' && order != '|' && order != '=') {
		return 0, fmt.Errorf("unsupported dtype %s", quote(descr))
	}
	c.big, c.kind, c.width = order == '>', kind, w
	switch {
	case kind == 'f' && (w == 4 || w == 8):
	case (kind == 'i' || kind == 'u') && (w == 1 || w == 2 || w == 4 || w == 8):
	case kind == 'b' && w == 1:
	case kind == 'U' && w <= 1<<16:
		c.width = 4 * w
	default:
		return 0, fmt.Errorf("unsupported dtype %s (numbers, bool or unicode strings are)", quote(descr))
	}
	return n, nil
}

// Name returns the archive's name as messages show it.
func (z *NPZ) Name() string { return z.name }

// Rows returns the number of rows: the arrays' length.
func (z *NPZ) Rows() int { return z.rows }

// Close closes the file that OpenNPZ opened.
func (z *NPZ) Close() error {
	if z == nil || z.closer == nil {
		return nil
	}
	return z.closer.Close()
}

// Sample keeps a uniform random sample of at most s.Size rows of each group
// of the rows q selects. See Source and NPZ.
func (z *NPZ) Sample(ctx context.Context, q Query, s Sampling) (*Table, error) {
	if s.Size < 0 {
		return nil, fmt.Errorf("dataset: %s: negative sample size %d", z.name, s.Size)
	}
	if !s.Seek || s.Size == 0 || q.Group != "" || z.rows <= s.Size {
		return z.read(ctx, q, newSampler(s), nil, nil, 16<<10)
	}
	src := s.Src
	if src == nil {
		src = rand.NewPCG(1, 2)
	}
	rows := drawRows(rand.New(src), z.rows, s.Size)
	t, err := z.read(ctx, q, newSampler(Sampling{}), nil, rows, 4096)
	if err != nil {
		return nil, err
	}
	t.Sampled, t.Draws = true, len(rows)
	g := &t.Groups[0]
	if t.Dropped == 0 {
		g.Rows = z.rows
	} else {
		p := float64(g.Rows) / float64(len(rows))
		g.Rows = int(math.Round(float64(z.rows) * p))
		g.RowsStdErr = float64(z.rows) * math.Sqrt(p*(1-p)/float64(len(rows)))
		t.Dropped = z.rows - g.Rows
	}
	if g.Missing != nil {
		(&mixed{}).estimate(g, len(t.Columns))
	}
	return t, nil
}

// drawRows returns m distinct row indices of n, drawn uniformly
// (pickRows), in increasing order.
func drawRows(rng *rand.Rand, n, m int) []int {
	picked := pickRows(rng, int64(n), int64(m))
	rows := make([]int, len(picked))
	for i, r := range picked {
		rows[i] = int(r)
	}
	slices.Sort(rows)
	return rows
}

// Scan passes every row q selects to fn, in order. See Source.
func (z *NPZ) Scan(ctx context.Context, q Query, fn RowFunc) (*Table, error) {
	return z.read(ctx, q, nil, fn, nil, 16<<10)
}

// read makes one pass over the rows (every row when rows is nil), with the
// rules of a CSV reader; block is how many bytes of a column one read
// fetches.
func (z *NPZ) read(ctx context.Context, q Query, sm *sampler, each RowFunc, rows []int, block int) (*Table, error) {
	rd := &reader{ctx: ctx, name: z.name, q: q, sampler: sm, each: each, delim: ',', gcol: -1}
	if err := rd.checkQuery(); err != nil {
		return nil, err
	}
	rd.cr = &npzRecords{z: z, rows: rows, block: block, cache: make([]npyBlock, len(z.cols))}
	if err := rd.readHeader(); err != nil {
		return nil, err
	}
	if err := rd.readRows(); err != nil {
		return nil, err
	}
	return &rd.table, nil
}

// records is what a reader reads rows from: a csv.Reader, or the cells of
// an NPZ as text.
type records interface {
	Read() ([]string, error)
	FieldPos(field int) (line, column int)
}

// npyBlock is the values of a column last read.
type npyBlock struct {
	first int // row of buf[0]; -1 when empty
	n     int // rows in buf
	buf   []byte
}

// npzRecords gives the rows of an NPZ as records of text cells: the header
// (the column names) then each row.
type npzRecords struct {
	z      *NPZ
	rows   []int // the rows read, increasing; nil: every row
	block  int
	next   int // position in rows (or row) of the next record
	header bool
	line   int // 1-based row of the last record; 0 for the header
	rec    []string
	cache  []npyBlock
}

// Read returns the next record; io.EOF after the last.
func (r *npzRecords) Read() ([]string, error) {
	z := r.z
	if !r.header {
		r.header = true
		r.rec = make([]string, len(z.cols))
		for j, c := range z.cols {
			r.rec[j] = c.name
		}
		return r.rec, nil
	}
	row := r.next
	if r.rows != nil {
		if r.next >= len(r.rows) {
			return nil, io.EOF
		}
		row = r.rows[r.next]
	} else if r.next >= z.rows {
		return nil, io.EOF
	}
	r.next++
	r.line = row + 1
	for j := range z.cols {
		s, err := r.cell(j, row)
		if err != nil {
			return nil, err
		}
		r.rec[j] = s
	}
	return r.rec, nil
}

// FieldPos returns the row of the last record (0 for the header).
func (r *npzRecords) FieldPos(int) (int, int) { return r.line, 0 }

// cell returns the value of column j at row as the text of a CSV cell: ""
// for a missing value.
func (r *npzRecords) cell(j, row int) (string, error) {
	c := &r.z.cols[j]
	b, err := r.value(j, row)
	if err != nil {
		return "", err
	}
	var order binary.ByteOrder = binary.LittleEndian
	if c.big {
		order = binary.BigEndian
	}
	switch c.kind {
	case 'f':
		var v float64
		if c.width == 4 {
			v = float64(math.Float32frombits(order.Uint32(b)))
		} else {
			v = math.Float64frombits(order.Uint64(b))
		}
		if math.IsNaN(v) {
			return "", nil
		}
		return strconv.FormatFloat(v, 'g', -1, 8*c.width), nil
	case 'i':
		return strconv.FormatInt(signed(b, order), 10), nil
	case 'u':
		return strconv.FormatUint(unsigned(b, order), 10), nil
	case 'b':
		if b[0] != 0 {
			return "True", nil
		}
		return "False", nil
	}
	var s strings.Builder
	for k := 0; k+4 <= len(b); k += 4 {
		u := order.Uint32(b[k:])
		if u == 0 {
			break
		}
		if u > utf8.MaxRune {
			u = utf8.RuneError
		}
		s.WriteRune(rune(u))
	}
	return s.String(), nil
}

// signed decodes a signed integer of len(b) bytes.
func signed(b []byte, order binary.ByteOrder) int64 {
	switch len(b) {
	case 1:
		return int64(int8(b[0]))
	case 2:
		return int64(int16(order.Uint16(b)))
	case 4:
		return int64(int32(order.Uint32(b)))
	}
	return int64(order.Uint64(b))
}

// unsigned decodes an unsigned integer of len(b) bytes.
func unsigned(b []byte, order binary.ByteOrder) uint64 {
	switch len(b) {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(order.Uint16(b))
	case 4:
		return uint64(order.Uint32(b))
	}
	return order.Uint64(b)
}

// value returns the bytes of column j at row, reading the block of the
// column that holds it when it is not the one last read.
func (r *npzRecords) value(j, row int) ([]byte, error) {
	c, bl := &r.z.cols[j], &r.cache[j]
	if bl.buf == nil || row < bl.first || row >= bl.first+bl.n {
		per := max(1, r.block/c.width)
		bl.first = row / per * per
		bl.n = min(per, r.z.rows-bl.first)
		need := bl.n * c.width
		if cap(bl.buf) < need {
			bl.buf = make([]byte, need)
		}
		bl.buf = bl.buf[:need]
		if _, err := r.z.ra.ReadAt(bl.buf, c.off+int64(bl.first)*int64(c.width)); err != nil && err != io.EOF {
			bl.buf = nil
			return nil, fmt.Errorf("dataset: %s: reading column %s: %w", r.z.name, quote(c.name), err)
		}
	}
	k := (row - bl.first) * c.width
	return bl.buf[k : k+c.width], nil
}

// openNPZ opens f, at path, a NumPy archive: OpenNPZ on an open file.
func openNPZ(f *os.File, size int64, path string, opts Options) (Source, error) {
	z, err := NewNPZAt(f, size, path, opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	z.closer = f
	return z, nil
}
