// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"
)

// pqCursor reads the values of one column chunk at increasing row numbers,
// from the pages that the library decompresses and decodes whole, without
// turning each value into a parquet.Value: a page's values are read in
// place from its typed arrays (float64s, int32s, bytes and offsets…), its
// nulls from its definition levels, and a dictionary-encoded page's values
// through its indexes into the dictionary, whose entries are converted once
// (the group keys of a string column are made once per dictionary, not once
// per row). Rows skipped on the way to a row are passed over by counting
// their nulls, not decoded.
type pqCursor struct {
	pages parquet.Pages
	typ   *pqType
	opt   bool // the column is optional: a definition level of 0 is a null

	page       parquet.Page
	start, end int64 // the rows of the row group that the page holds
	at         int64 // the page's row the cursor is at, relative to start
	dense      int   // the index in the page's values of row at (nulls hold none)
	def        []byte
	vals       encoding.Values
	idx        []int32 // a dictionary-encoded page's indexes, nil otherwise
	bools      []int8  // a BOOLEAN page's values (1, 0; −1 null), row by row
	dict       parquet.Dictionary
	dvals      encoding.Values // the dictionary's values
	dlen       int
	dkeys      []string // the dictionary's entries as keys, made when first needed
	dhave      []bool
	intern     map[string]string // the keys made from pages without a dictionary
	ahead      []readPage        // the pages read ahead, not yet loaded (readAhead)
}

// newCursor returns the cursor of the column chunk pages, which holds
// values of type t, starting at row from of its row group (to which pages
// has been seeked).
func newCursor(pages parquet.Pages, t *pqType, optional bool, from int64) *pqCursor {
	return &pqCursor{pages: pages, typ: t, opt: optional, start: from, end: from}
}

// seek moves the cursor to row r of the row group (r at least the row it is
// at), reading the pages up to the one holding it.
func (c *pqCursor) seek(r int64) error {
	for r >= c.end {
		if err := c.next(); err != nil {
			return err
		}
	}
	to := r - c.start
	switch {
	case to <= c.at:
	case c.def != nil:
		// The values present: the rows skipped less their nulls.
		c.dense += int(to-c.at) - bytes.Count(c.def[c.at:to], []byte{0})
	default:
		c.dense += int(to - c.at)
	}
	c.at = max(c.at, to)
	return nil
}

// next releases the page and reads the next one: the first read ahead,
// if any.
func (c *pqCursor) next() error {
	c.release()
	if len(c.ahead) > 0 {
		a := c.ahead[0]
		c.ahead[0] = readPage{}
		c.ahead = c.ahead[1:]
		if a.err != nil {
			return a.err
		}
		return safely(func() error { return c.load(a.page) })
	}
	return safely(func() error {
		pg, err := c.read()
		if err != nil {
			return err
		}
		return c.load(pg)
	})
}

// read reads the next page that holds rows.
func (c *pqCursor) read() (parquet.Page, error) {
	for {
		pg, err := c.pages.ReadPage()
		if err == io.EOF {
			return nil, fmt.Errorf("the column chunk holds fewer values than its row group has rows")
		}
		if err != nil {
			return nil, err
		}
		if pg.NumRows() == 0 {
			parquet.Release(pg)
			continue
		}
		return pg, nil
	}
}

// readPage is a page read ahead, or the error that reading it met.
type readPage struct {
	page parquet.Page
	err  error
}

// readAhead reads, decompresses and decodes the pages that seeking to the
// rows before row to of the row group will load, for a cursor that has
// read no page yet, keeping them for next, which then only checks them: the
// expensive part of reading a unit, done on a goroutine of its own before
// its rows are wanted. It stops once the pages read hold maxAheadBytes
// (after one page at least), leaving the rest to next, so that a unit of
// many pages does not hold them all in memory. An error is kept in the place of its page, so
// that next meets it when, and only when, it would have read that page.
func (c *pqCursor) readAhead(to int64) {
	end, size := c.end, int64(0)
	for end < to && (len(c.ahead) == 0 || size < maxAheadBytes) {
		var pg parquet.Page
		var rows, sz int64
		err := safely(func() error {
			var err error
			if pg, err = c.read(); err == nil {
				rows, sz = pg.NumRows(), pg.Size()
			}
			return err
		})
		c.ahead = append(c.ahead, readPage{page: pg, err: err})
		if err != nil {
			return
		}
		end += rows
		size += sz
	}
}

// load makes pg the cursor's page, checking that its arrays hold what its
// row count and definition levels say.
func (c *pqCursor) load(pg parquet.Page) error {
	c.page = pg
	c.start, c.end = c.end, c.end+pg.NumRows()
	c.at, c.dense = 0, 0
	c.def = pg.DefinitionLevels()
	n := pg.NumRows()
	present := n
	if c.opt {
		if int64(len(c.def)) != n {
			return fmt.Errorf("a page of %d rows with %d definition levels", n, len(c.def))
		}
		present = n - pg.NumNulls()
	} else if len(c.def) != 0 {
		c.def = nil
	}
	c.idx, c.bools = nil, nil
	if c.typ.phys == format.Boolean {
		// A BOOLEAN page's bits may start inside a byte once sliced, which
		// its typed array does not show: its values are read one by one.
		c.bools = make([]int8, 0, n)
		buf := make([]parquet.Value, 256)
		vr := pg.Values()
		for {
			k, err := vr.ReadValues(buf)
			for _, v := range buf[:k] {
				switch {
				case v.IsNull():
					c.bools = append(c.bools, -1)
				case v.Boolean():
					c.bools = append(c.bools, 1)
				default:
					c.bools = append(c.bools, 0)
				}
			}
			if err == io.EOF || k == 0 {
				break
			}
			if err != nil {
				return err
			}
		}
		if int64(len(c.bools)) != n {
			return fmt.Errorf("a page of %d rows yields %d values", n, len(c.bools))
		}
		c.def = nil
		return nil
	}
	c.vals = pg.Data()
	if d := pg.Dictionary(); d != nil {
		c.idx = c.vals.Int32()
		if d != c.dict {
			c.dict, c.dvals, c.dlen = d, d.Page().Data(), d.Len()
			c.dkeys, c.dhave = nil, nil
			if k := c.count(&c.dvals); k != c.dlen {
				return fmt.Errorf("a dictionary of %d values holds %d", c.dlen, k)
			}
		}
		if int64(len(c.idx)) != present {
			return fmt.Errorf("a page of %d values holds %d", present, len(c.idx))
		}
		for _, i := range c.idx {
			if i < 0 || int(i) >= c.dlen {
				return fmt.Errorf("a dictionary index %d in a dictionary of %d values", i, c.dlen)
			}
		}
		return nil
	}
	if k := c.count(&c.vals); int64(k) != present {
		return fmt.Errorf("a page of %d values holds %d", present, k)
	}
	return nil
}

// count returns the number of values of type c.typ that v holds.
func (c *pqCursor) count(v *encoding.Values) int {
	switch c.typ.phys {
	case format.Double:
		return len(v.Double())
	case format.Float:
		return len(v.Float())
	case format.Int32:
		return len(v.Int32())
	case format.Int64:
		return len(v.Int64())
	case format.ByteArray:
		_, off := v.ByteArray()
		return max(len(off)-1, 0)
	case format.FixedLenByteArray:
		b, size := v.FixedLenByteArray()
		if size <= 0 {
			return 0
		}
		return len(b) / size
	}
	return -1
}

// release releases the cursor's page.
func (c *pqCursor) release() {
	if c.page != nil {
		safely(func() error { parquet.Release(c.page); return nil })
		c.page = nil
	}
}

// close releases the cursor's page, the pages read ahead and its pages.
func (c *pqCursor) close() {
	c.release()
	for _, a := range c.ahead {
		if a.page != nil {
			safely(func() error { parquet.Release(a.page); return nil })
		}
	}
	c.ahead = nil
	safely(c.pages.Close)
}

// null reports whether the value of the cursor's row is null.
func (c *pqCursor) null() bool {
	if c.bools != nil {
		return c.bools[c.at] < 0
	}
	return c.opt && c.def[c.at] == 0
}

// values returns the array holding the value of the cursor's row, not
// null, and its index in it.
func (c *pqCursor) values() (*encoding.Values, int) {
	if c.idx != nil {
		return &c.dvals, int(c.idx[c.dense])
	}
	return &c.vals, c.dense
}

// float returns the value of the cursor's row, not null, of a numeric
// column.
func (c *pqCursor) float() float64 {
	v, i := c.values()
	return c.typ.floatAt(v, i)
}

// key returns the value of the cursor's row, not null, as text: a group
// key, or the label of a text column of a mixed table. The keys of a
// dictionary are made once, as are those of the first distinct strings of a
// page without one.
func (c *pqCursor) key() string {
	if c.bools != nil {
		return strconv.FormatBool(c.bools[c.at] == 1)
	}
	v, i := c.values()
	if c.idx != nil {
		return c.dictKey(i)
	}
	if c.typ.kind != pqBytes {
		return c.typ.keyAt(v, i)
	}
	b := c.typ.bytesAt(v, i)
	if k, ok := c.intern[string(b)]; ok {
		return k
	}
	k := string(b)
	if c.intern == nil {
		c.intern = make(map[string]string)
	}
	if len(c.intern) < maxInterned {
		c.intern[k] = k
	}
	return k
}

// countDict counts, by dictionary index, the values of a
// dictionary-encoded page from the cursor's row to row end of the row group
// (exclusive, in the page): counts[i] += the rows of index i, and firsts[i]
// is set to the row group's row of index i when counts[i] was 0. It returns
// the row group's row of the first null met, or −1; the cursor stays where
// it is (seek passes over the rows again, counting nulls, if asked to).
func (c *pqCursor) countDict(end int64, counts, firsts []int64) (null int64) {
	null = -1
	d := c.dense
	for at := c.at; at < end-c.start; at++ {
		if c.def != nil && c.def[at] == 0 {
			if null < 0 {
				null = c.start + at
			}
			continue
		}
		i := c.idx[d]
		d++
		if counts[i] == 0 {
			firsts[i] = c.start + at
		}
		counts[i]++
	}
	return null
}

// dictKey returns the i-th entry of the page's dictionary as a key.
func (c *pqCursor) dictKey(i int) string {
	if c.dkeys == nil {
		c.dkeys, c.dhave = make([]string, c.dlen), make([]bool, c.dlen)
	}
	if !c.dhave[i] {
		c.dkeys[i], c.dhave[i] = c.typ.keyAt(&c.dvals, i), true
	}
	return c.dkeys[i]
}

// maxInterned is how many distinct strings of pages without a dictionary a
// cursor remembers, so that a column of many distinct values does not fill
// memory with them.
const maxInterned = 4096

// label returns the label of the cursor's row, not null, for a text column
// of a mixed table: its text trimmed of white space, as a CSV cell is.
func (c *pqCursor) label() string {
	return strings.TrimSpace(c.key())
}
