// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// The bounds that a Parquet file must respect before the library that
// decodes it is allowed to allocate memory for it. The library trusts the
// sizes written in a file (a footer length, a page size, a count of values,
// the length of a list in the footer) and allocates what they say before it
// can find out that they are false, so every size is checked here first,
// against the size of the file and these limits. An honest file far beyond
// them (a footer of millions of column chunks, a page of more than 2²⁵
// values) is refused with a message that names the limit.
type pqLimits struct {
	footer      int64 // bytes of the footer (the file metadata)
	index       int64 // bytes of one offset index
	pageHeader  int64 // bytes of one page header
	pageBytes   int64 // uncompressed bytes of one page
	pageValues  int64 // values in one page
	thriftRatio int64 // bytes that decoding a thrift structure may allocate per byte of it
	depth       int   // nesting of thrift structures
}

// pqMaxFooter is the longest footer that a Parquet file may have: 16 MiB,
// room for about 80 000 column chunks (row groups × columns).
const pqMaxFooter = 16 << 20

// limits is what the readers check; tests lower it.
var limits = pqLimits{
	footer:      pqMaxFooter,
	index:       4 << 20,
	pageHeader:  1 << 20,
	pageBytes:   256 << 20,
	pageValues:  1 << 25,
	thriftRatio: 16,
	depth:       32,
}

// ErrCorrupt means that a Parquet file is not one, is truncated, or holds
// a structure that does not check out (a size beyond the end of the file or
// beyond the limits of the reader, a page that does not decode).
var ErrCorrupt = errors.New("dataset: corrupt Parquet file")

// pqMagic is the 4 bytes that start and end a Parquet file.
const pqMagic = "PAR1"

// checkFooter reads the end of the Parquet file r of size bytes and checks
// its magic bytes and footer before the library reads them: the footer
// length must fit in the file and in limits.footer, and the footer must be
// a well-formed thrift structure whose lists and strings fit in it and whose
// decoding allocates at most limits.thriftRatio bytes per byte of it. It
// returns the length of the footer.
func checkFooter(r io.ReaderAt, size int64, name string) (int64, error) {
	corrupt := func(format string, args ...any) (int64, error) {
		return 0, &ParseError{File: name, Err: ErrCorrupt, msg: "not a valid Parquet file: " + fmt.Sprintf(format, args...)}
	}
	if size < 12 {
		return corrupt("%d bytes, too short for one", size)
	}
	var head [4]byte
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return 0, fmt.Errorf("dataset: %s: reading: %w", name, err)
	}
	if string(head[:]) != pqMagic {
		return corrupt("it does not start with %q", pqMagic)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return 0, fmt.Errorf("dataset: %s: reading: %w", name, err)
	}
	if string(tail[4:]) != pqMagic {
		return corrupt("it does not end with %q (a truncated file?)", pqMagic)
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	switch {
	case n == 0 || n > size-12:
		return corrupt("its footer claims %d bytes in a file of %d (a truncated file?)", n, size)
	case n > limits.footer:
		return corrupt("its footer claims %d bytes, more than the %d this reader accepts", n, limits.footer)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-8-n); err != nil {
		return 0, fmt.Errorf("dataset: %s: reading the footer: %w", name, err)
	}
	if _, err := checkThrift(footer); err != nil {
		return corrupt("footer: %v", err)
	}
	return n, nil
}

// checkThrift walks the thrift structure (compact protocol) at the start of
// b without decoding it, and returns its length in bytes. It fails if the
// structure is malformed or runs past b, nests deeper than limits.depth, or
// would make a decoder allocate more than limits.thriftRatio bytes per byte
// of it: every list holds at least one byte per element, and a decoder
// allocates each list of n elements at once, n times the size of the Go
// value of an element (at most structCost for the column chunks of a row
// group, field 1 of a structure in a list of the root, at most
// smallStructCost for any other structure, 16 bytes for any other value).
func checkThrift(b []byte) (int, error) {
	w := thriftWalk{b: b}
	if err := w.structure(); err != nil {
		return 0, err
	}
	if w.cost > limits.thriftRatio*int64(w.i)+(64<<10) {
		return 0, fmt.Errorf("%d bytes of thrift would decode into about %d bytes", w.i, w.cost)
	}
	return w.i, nil
}

// thriftWalk is the state of checkThrift.
type thriftWalk struct {
	b     []byte
	i     int
	depth int
	cost  int64 // bytes a decoder would allocate, estimated from above
}

// The compact protocol's type codes.
const (
	tcBoolTrue  = 1
	tcBoolFalse = 2
	tcByte      = 3
	tcI16       = 4
	tcI32       = 5
	tcI64       = 6
	tcDouble    = 7
	tcBinary    = 8
	tcList      = 9
	tcSet       = 10
	tcMap       = 11
	tcStruct    = 12
)

// structCost is the size of format.ColumnChunk, the largest structure of
// the Parquet format; smallStructCost bounds the size of the others that
// come in lists (format.SchemaElement is the largest).
const (
	structCost      = 560
	smallStructCost = 96
)

var errThriftShort = errors.New("thrift structure cut short")

func (w *thriftWalk) byte() (byte, error) {
	if w.i >= len(w.b) {
		return 0, errThriftShort
	}
	c := w.b[w.i]
	w.i++
	return c, nil
}

func (w *thriftWalk) varint() (uint64, error) {
	var x uint64
	for s := uint(0); s < 64; s += 7 {
		c, err := w.byte()
		if err != nil {
			return 0, err
		}
		x |= uint64(c&0x7f) << s
		if c < 0x80 {
			return x, nil
		}
	}
	return 0, errors.New("thrift varint too long")
}

// size reads a length or count and checks that at least that many bytes
// remain, at least one per element.
func (w *thriftWalk) size() (int, error) {
	n, err := w.varint()
	if err != nil {
		return 0, err
	}
	if n > uint64(len(w.b)-w.i) {
		return 0, fmt.Errorf("thrift length %d with %d bytes left", n, len(w.b)-w.i)
	}
	return int(n), nil
}

func (w *thriftWalk) structure() error {
	w.depth++
	if w.depth > limits.depth {
		return errors.New("thrift structures nested too deep")
	}
	field := 0 // the last field id, to which a short header adds
	for {
		h, err := w.byte()
		if err != nil {
			return err
		}
		if h == 0 {
			w.depth--
			return nil
		}
		id := int(h >> 4)
		if id == 0 { // the field id follows, as a zigzag varint
			z, err := w.varint()
			if err != nil {
				return err
			}
			id = int(z>>1) ^ -int(z&1)
		} else {
			id += field
		}
		field = id
		if err := w.value(h&0x0f, false, id); err != nil {
			return err
		}
	}
}

// value skips a value of type t; inList says that it is an element of a
// list, where a boolean takes a byte; field is its field id in its
// structure.
func (w *thriftWalk) value(t byte, inList bool, field int) error {
	switch t {
	case tcBoolTrue, tcBoolFalse:
		if inList {
			_, err := w.byte()
			return err
		}
		return nil
	case tcByte:
		_, err := w.byte()
		return err
	case tcI16, tcI32, tcI64:
		_, err := w.varint()
		return err
	case tcDouble:
		if len(w.b)-w.i < 8 {
			return errThriftShort
		}
		w.i += 8
		return nil
	case tcBinary:
		n, err := w.size()
		if err != nil {
			return err
		}
		w.i += n
		w.cost += int64(n) + 16
		return nil
	case tcList, tcSet:
		h, err := w.byte()
		if err != nil {
			return err
		}
		n := int(h >> 4)
		if n == 15 {
			if n, err = w.size(); err != nil {
				return err
			}
		} else if n > len(w.b)-w.i {
			return errThriftShort
		}
		et := h & 0x0f
		switch {
		case et != tcStruct:
			w.cost += int64(n) * 16
		case w.depth == 2 && field == 1:
			w.cost += int64(n) * structCost
		default:
			w.cost += int64(n) * smallStructCost
		}
		for range n {
			if err := w.value(et, true, 0); err != nil {
				return err
			}
		}
		return nil
	case tcMap:
		n, err := w.size()
		if err != nil || n == 0 {
			return err
		}
		kv, err := w.byte()
		if err != nil {
			return err
		}
		w.cost += int64(n) * smallStructCost
		for range n {
			if err := w.value(kv>>4, true, 0); err != nil {
				return err
			}
			if err := w.value(kv&0x0f, true, 0); err != nil {
				return err
			}
		}
		return nil
	case tcStruct:
		return w.structure()
	}
	return fmt.Errorf("unknown thrift type %d", t)
}

// readPageHeader reads, checks and decodes the page header at off, in a
// column chunk ending at end. It returns the header and its length.
func readPageHeader(r io.ReaderAt, off, end int64) (*format.PageHeader, int64, error) {
	n := min(end-off, 256)
	for {
		buf := make([]byte, n)
		if _, err := r.ReadAt(buf, off); err != nil && err != io.EOF {
			return nil, 0, err
		}
		hl, err := checkThrift(buf)
		if err == errThriftShort && n < min(end-off, limits.pageHeader) {
			n = min(end-off, limits.pageHeader, 16*n)
			continue
		}
		if err != nil {
			return nil, 0, fmt.Errorf("page header at byte %d: %v", off, err)
		}
		var h format.PageHeader
		if err := thrift.Unmarshal(new(thrift.CompactProtocol), buf[:hl], &h); err != nil {
			return nil, 0, fmt.Errorf("page header at byte %d: %v", off, err)
		}
		return &h, int64(hl), nil
	}
}

// chunkCheck is what checkPages needs to know about a column chunk.
type chunkCheck struct {
	start, end int64 // its bytes in the file
	rows       int64 // rows of its row group
	width      int64 // bytes of a value of a fixed-width type; 0 for BYTE_ARRAY
	// ra, when not nil and snappy is set, is the file, for checkPage to read
	// the length that starts each page's Snappy block.
	ra     io.ReaderAt
	snappy bool
}

// checkPage checks the page header h, at off in the chunk c, against the
// chunk and the limits: its compressed bytes lie in the chunk, its
// uncompressed bytes and values are within what its values can take.
func checkPage(h *format.PageHeader, off, hl int64, c *chunkCheck) error {
	values := int64(-1)
	switch h.Type {
	case format.DataPage:
		if v, ok := h.DataPageHeader.Get(); ok {
			values = int64(v.NumValues)
		}
	case format.DataPageV2:
		if v, ok := h.DataPageHeaderV2.Get(); ok {
			values = int64(v.NumValues)
			if v.DefinitionLevelsByteLength < 0 || v.RepetitionLevelsByteLength < 0 ||
				int64(v.DefinitionLevelsByteLength)+int64(v.RepetitionLevelsByteLength) > int64(h.CompressedPageSize) {
				return fmt.Errorf("page at byte %d: level lengths beyond the page", off)
			}
		}
	case format.DictionaryPage:
		if v, ok := h.DictionaryPageHeader.Get(); ok {
			values = int64(v.NumValues)
		}
	case format.IndexPage:
		values = 0
	default:
		return fmt.Errorf("page at byte %d: unknown page type %d", off, h.Type)
	}
	comp, unc := int64(h.CompressedPageSize), int64(h.UncompressedPageSize)
	bound := limits.pageBytes
	if c.width > 0 {
		// Values, and levels or dictionary indexes of at most 8 bytes each.
		bound = min(bound, 1024+max(values, 0)*(c.width+8))
	}
	switch {
	case values < 0:
		return fmt.Errorf("page at byte %d: a %v page without its header", off, h.Type)
	case values > limits.pageValues:
		return fmt.Errorf("page at byte %d: %d values, more than the %d this reader accepts", off, values, limits.pageValues)
	case h.Type != format.DictionaryPage && values > c.rows:
		return fmt.Errorf("page at byte %d: %d values in a row group of %d rows", off, values, c.rows)
	case comp < 0 || off+hl+comp > c.end:
		return fmt.Errorf("page at byte %d: %d bytes, beyond the end of its column chunk (byte %d)", off, comp, c.end)
	case unc < 0 || unc > bound:
		return fmt.Errorf("page at byte %d: %d bytes uncompressed, more than %d values can take", off, unc, values)
	}
	return checkSnappy(h, off, hl, c)
}

// checkSnappy checks the decoded length that starts a Snappy block (a
// varint) against the page's uncompressed size: the decoder allocates what
// the block says before it finds out that it is false, so that without this
// check a mutated page of a few bytes made it allocate up to 4 GiB
// (FuzzParquet stalled on such pages).
func checkSnappy(h *format.PageHeader, off, hl int64, c *chunkCheck) error {
	if !c.snappy || c.ra == nil {
		return nil
	}
	data, want := off+hl, int64(h.UncompressedPageSize)
	if v, ok := h.DataPageHeaderV2.Get(); ok && h.Type == format.DataPageV2 {
		if c, ok := v.IsCompressed.Get(); ok && !c {
			return nil
		}
		levels := int64(v.DefinitionLevelsByteLength) + int64(v.RepetitionLevelsByteLength)
		data, want = data+levels, want-levels
	}
	n := min(int64(binary.MaxVarintLen32), off+hl+int64(h.CompressedPageSize)-data)
	if n <= 0 {
		return nil // an empty block: the decoder reports it
	}
	buf := make([]byte, n)
	if _, err := c.ra.ReadAt(buf, data); err != nil && err != io.EOF {
		return err
	}
	dlen, k := binary.Uvarint(buf)
	if k <= 0 || dlen > uint64(max(want, 0)) {
		return fmt.Errorf("page at byte %d: its Snappy block decodes to %d bytes, more than the page's %d", off, dlen, want)
	}
	return nil
}

// checkPages checks the headers of the pages of the chunk c from byte off
// to its end (the whole chunk when off is c.start).
func checkPages(r io.ReaderAt, c *chunkCheck, off int64) error {
	for off < c.end {
		h, hl, err := readPageHeader(r, off, c.end)
		if err != nil {
			return err
		}
		if err := checkPage(h, off, hl, c); err != nil {
			return err
		}
		off += hl + int64(h.CompressedPageSize)
	}
	return nil
}

// safely calls fn, turning a panic into an error: the library that decodes
// Parquet panics on some malformed inputs.
func safely(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("malformed file: %v", p)
		}
	}()
	return fn()
}
