// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"

	"github.com/parquet-go/parquet-go"
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

// checkFooter reads the end of the Parquet file r of size bytes and checks
// its magic bytes and footer before the library reads them: the footer
// length must fit in the file and in limits.footer, and the footer must be
// a well-formed thrift structure whose lists and strings fit in it and whose
// decoding allocates at most limits.thriftRatio bytes per byte of it. It
// returns the length of the footer. With head false, the magic bytes at
// the start are not read: an object of a store, where reading them costs a
// request of its own.
func checkFooter(r io.ReaderAt, size int64, name string, head bool) (int64, error) {
	corrupt := func(format string, args ...any) (int64, error) {
		return 0, &ParseError{File: name, Err: ErrCorrupt, msg: "not a valid Parquet file: " + fmt.Sprintf(format, args...)}
	}
	if size < 12 {
		return corrupt("%d bytes, too short for one", size)
	}
	if head {
		var magic [4]byte
		if _, err := r.ReadAt(magic[:], 0); err != nil {
			return 0, fmt.Errorf("dataset: %s: reading: %w", name, err)
		}
		if !isParquetMagic(magic[:]) {
			return corrupt("it does not start with %q", pqMagic)
		}
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return 0, fmt.Errorf("dataset: %s: reading: %w", name, err)
	}
	if !isParquetMagic(tail[4:]) {
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
	// runs, when set (with ra), has checkPage walk the run-length encoded
	// runs of the data pages that hold rows from to to (exclusive) of the
	// row group, decompressed with codec, whose column has the maximum
	// repetition and definition levels maxRep and maxDef (see checkRuns).
	runs           bool
	from, to       int64
	codec          format.CompressionCodec
	maxRep, maxDef int
	typ            format.Type
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

// checkPageRuns checks the page as checkPage does, and then, when c.runs
// is set and the page is a data page holding some of the rows c.from to
// c.to (its first row row, of a column without repetition), its runs
// (checkRuns).
func checkPageRuns(h *format.PageHeader, off, hl, row int64, c *chunkCheck) error {
	if err := checkPage(h, off, hl, c); err != nil {
		return err
	}
	if !c.runs || c.ra == nil {
		return nil
	}
	values := dataValues(h)
	if values < 0 {
		return nil
	}
	if c.maxRep == 0 && (row+values <= c.from || row >= c.to) {
		return nil
	}
	return checkRuns(h, off, hl, c)
}

// checkRuns checks the run-length encoded runs of the data page h, at off
// in the chunk c, before the library decodes them: the repetition and
// definition levels and the dictionary indexes (or RLE booleans) of a page
// are a sequence of runs, each a varint header that says how many values
// it holds (a repeated value, or groups of 8 bit-packed ones), and the
// library allocates what a header says before it finds that the page holds
// fewer values. A byte set to 0xff in a dictionary-encoded page of 31 KB
// made it allocate 7.0 GB (FuzzParquet). The runs of each must hold at
// most the page's num_values (plus the 7 that pad the last bit-packed
// group), at a bit width of at most 32.
func checkRuns(h *format.PageHeader, off, hl int64, c *chunkCheck) error {
	comp := int64(h.CompressedPageSize)
	raw := make([]byte, comp)
	if _, err := c.ra.ReadAt(raw, off+hl); err != nil && err != io.EOF {
		return err
	}
	bad := func(what string, err error) error {
		return fmt.Errorf("page at byte %d: %s: %v", off, what, err)
	}
	var (
		values            int64
		enc               format.Encoding
		rep, def, payload []byte
		compressed        = c.codec != format.Uncompressed
		prefixed          bool // the levels start with their length (v1)
	)
	switch h.Type {
	case format.DataPage:
		v := h.DataPageHeader.V
		values, enc, prefixed = int64(v.NumValues), v.Encoding, true
		if c.maxRep > 0 && v.RepetitionLevelEncoding != format.RLE ||
			c.maxDef > 0 && v.DefinitionLevelEncoding != format.RLE {
			return nil // BIT_PACKED levels: no runs, their length is fixed
		}
		payload = raw
	case format.DataPageV2:
		v := h.DataPageHeaderV2.V
		values, enc = int64(v.NumValues), v.Encoding
		rl, dl := int64(v.RepetitionLevelsByteLength), int64(v.DefinitionLevelsByteLength)
		if c.maxRep > 0 {
			rep = raw[:rl]
		}
		if c.maxDef > 0 {
			def = raw[rl : rl+dl]
		}
		payload = raw[rl+dl:]
		if ic, ok := v.IsCompressed.Get(); ok && !ic {
			compressed = false
		}
	default:
		return nil
	}
	if compressed {
		codec := parquet.LookupCompressionCodec(c.codec)
		if codec == nil {
			return nil // the library reports an unknown codec
		}
		want := int64(h.UncompressedPageSize) - int64(len(raw)-len(payload))
		dst := make([]byte, 0, max(want, 0))
		var err error
		if err = safely(func() error { payload, err = codec.Decode(dst, payload); return err }); err != nil {
			return nil // the library reports a page that does not decompress
		}
		if int64(len(payload)) > max(want, 0) {
			return fmt.Errorf("page at byte %d: it decompresses to %d bytes, more than the page's %d", off, len(payload), want)
		}
	}
	if prefixed {
		var err error
		if c.maxRep > 0 {
			if rep, payload, err = levelsV1(payload); err != nil {
				return bad("repetition levels", err)
			}
		}
		if c.maxDef > 0 {
			if def, payload, err = levelsV1(payload); err != nil {
				return bad("definition levels", err)
			}
		}
	}
	if err := checkHybrid(rep, bits.Len(uint(c.maxRep)), values); err != nil {
		return bad("repetition levels", err)
	}
	if err := checkHybrid(def, bits.Len(uint(c.maxDef)), values); err != nil {
		return bad("definition levels", err)
	}
	switch {
	case enc == format.RLEDictionary || enc == format.PlainDictionary:
		if len(payload) == 0 {
			return nil
		}
		if err := checkHybrid(payload[1:], int(payload[0]), values); err != nil {
			return bad("dictionary indexes", err)
		}
	case enc == format.RLE && c.typ == format.Boolean:
		b, _, err := levelsV1(payload)
		if err == nil {
			err = checkHybrid(b, 1, values)
		}
		if err != nil {
			return bad("booleans", err)
		}
	}
	return nil
}

// dataValues returns the num_values of the data page h, or −1 when h is
// not a data page.
func dataValues(h *format.PageHeader) int64 {
	switch h.Type {
	case format.DataPage:
		return int64(h.DataPageHeader.V.NumValues)
	case format.DataPageV2:
		return int64(h.DataPageHeaderV2.V.NumValues)
	}
	return -1
}

// levelsV1 splits b into the runs that start it, after their length (4
// bytes, little-endian), and the rest.
func levelsV1(b []byte) (runs, rest []byte, err error) {
	if len(b) < 4 {
		return nil, nil, errors.New("cut short")
	}
	n := uint64(binary.LittleEndian.Uint32(b))
	if n > uint64(len(b)-4) {
		return nil, nil, fmt.Errorf("they claim %d bytes, %d are left", n, len(b)-4)
	}
	return b[4 : 4+n], b[4+n:], nil
}

// checkHybrid walks the runs of the RLE/bit-packed hybrid encoding in b, of
// values of width bits, as the library decodes them, and checks that they
// hold at most values values, and that each bit-packed run lies in b. An
// RLE run (a count and one value) must end within values (plus 7); the
// last bit-packed run is padded by the writers, to a multiple of 8 values
// or, by DuckDB, of 256, so that the runs may claim up to maxRunPad values
// more than the page holds. The library then allocates at most
// values+maxRunPad values for them.
func checkHybrid(b []byte, width int, values int64) error {
	if width > 32 {
		return fmt.Errorf("a bit width of %d, more than 32", width)
	}
	v := uint64(max(values, 0))
	total := uint64(0)
	for i := 0; i < len(b); {
		u, k := binary.Uvarint(b[i:])
		if k <= 0 {
			return errors.New("a run header that does not decode")
		}
		i += k
		n := u >> 1
		switch {
		case n == 0: // an empty run, without a value
			continue
		case u&1 != 0: // n groups of 8 bit-packed values
			if n > (v+maxRunPad)/8 || total+8*n > v+maxRunPad {
				return fmt.Errorf("a bit-packed run of %d values after %d in a page of %d", 8*n, total, values)
			}
			if n*uint64(width) > uint64(len(b)-i) {
				return fmt.Errorf("a bit-packed run of %d values in %d bytes", 8*n, len(b)-i)
			}
			i += int(n) * width
			n *= 8
		default:
			if n > v+7 || total+n > v+7 {
				return fmt.Errorf("a run of %d values after %d in a page of %d", n, total, values)
			}
			i += (width + 7) / 8
		}
		total += n
	}
	return nil
}

// maxRunPad is how many values more than its page the runs of a page may
// claim: the padding of its last bit-packed run (DuckDB pads it to 256
// values, Arrow's runs hold up to 504).
const maxRunPad = 511

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
	row := int64(0) // the first row of the page at off, without repetition
	for off < c.end {
		h, hl, err := readPageHeader(r, off, c.end)
		if err != nil {
			return err
		}
		if err := checkPageRuns(h, off, hl, row, c); err != nil {
			return err
		}
		row += max(dataValues(h), 0)
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
