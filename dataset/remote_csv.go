// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
)

// csvHead is the bytes of the start of each CSV object of a prefix fetched
// to read its header.
const csvHead = 4096

// csvObjectKey reports whether an object below a prefix is a shard of a
// CSV dataset (as Spark and Hive write them): its name ends in ".csv" (or
// ".csv.gz" or ".csv.zst", sampled by whole objects: see
// compressedObjects) and no segment of its key starts with "_" or ".".
func csvObjectKey(key string) bool {
	for _, ext := range []string{".csv", ".csv.gz", ".csv.zst"} {
		if strings.HasSuffix(key, ext) {
			return !hiddenKey(key)
		}
	}
	return false
}

// hiddenKey reports whether a segment of key starts with "_" or ".".
func hiddenKey(key string) bool {
	for _, seg := range strings.Split(key, "/") {
		if strings.HasPrefix(seg, "_") || strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}

// openCSVObjects opens the CSV objects objs of a prefix, which must share
// one header line, as one CSV table sampled in blocks (NewCSVBlocks): the
// first object whole, then the rows of each other one (its bytes after its
// header line), a line end added after an object that lacks one. A block
// drawn uniformly in the bytes of the rows of every object takes each row
// of the dataset with the same probability, as in one object; the bytes
// fetched are those of the blocks, whatever the objects' size, plus a
// request for the start and the last byte of each object. The key=value
// folders of the keys are not columns of the table (the objects' header
// names them).
func openCSVObjects(name string, objs []Object, opts Options) (Source, error) {
	for _, o := range objs {
		if pf, ok := o.R.(Prefetcher); ok && o.Size > 0 {
			pf.Prefetch([][2]int64{{0, min(o.Size, csvHead)}, {o.Size - 1, o.Size}}, false)
		}
	}
	cat := &catReader{}
	var header []byte
	var first string
	for _, o := range objs {
		if o.Size == 0 {
			continue
		}
		h, err := headerLine(o)
		if err != nil {
			return nil, err
		}
		if header == nil {
			header, first = h, o.Path
			cat.add(catPart{r: o.R, n: o.Size})
		} else {
			if !bytes.Equal(h, header) {
				return nil, fmt.Errorf("dataset: %s: its header %s differs from the header %s of %s: the CSV objects under a prefix must share one header",
					o.Path, quote(strings.TrimRight(string(h), "\r\n")), quote(strings.TrimRight(string(header), "\r\n")), first)
			}
			cat.add(catPart{r: o.R, off: int64(len(h)), n: o.Size - int64(len(h))})
		}
		var last [1]byte
		if _, err := o.R.ReadAt(last[:], o.Size-1); err != nil && err != io.EOF {
			return nil, fmt.Errorf("dataset: %s: reading: %w", o.Path, err)
		}
		if last[0] != '\n' {
			cat.add(catPart{n: 1}) // a line end
		}
	}
	if header == nil {
		return nil, &ParseError{File: name, Err: ErrEmpty, msg: fmt.Sprintf("the %d CSV objects under the prefix are empty", len(objs))}
	}
	return NewCSVBlocks(cat, cat.size, name, opts), nil
}

// headerLine returns the first line of the CSV object o, its line end
// included, refusing a compressed object.
func headerLine(o Object) ([]byte, error) {
	buf := make([]byte, min(o.Size, csvHead))
	for {
		n, err := o.R.ReadAt(buf, 0)
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("dataset: %s: reading: %w", o.Path, err)
		}
		buf = buf[:n]
		k, cerr := checkCompression(o.Path, buf[:min(n, 4)])
		if cerr != nil {
			return nil, cerr
		}
		if k != uncompressed {
			return nil, fmt.Errorf("dataset: %s: a compressed CSV object cannot be sampled by byte ranges and would be downloaded whole (every object of the prefix): store the objects uncompressed, or as Parquet, or download them", o.Path)
		}
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			return buf[:i+1], nil
		}
		if int64(n) >= o.Size {
			return append(buf, '\n'), nil // a header alone, without a line end
		}
		if len(buf) >= DefaultMaxLine {
			return nil, fmt.Errorf("dataset: %s: no line end in the first %d bytes: not a CSV header", o.Path, len(buf))
		}
		buf = make([]byte, min(o.Size, 2*int64(len(buf))))
	}
}

// catPart is a part of a catReader: the bytes [off, off+n) of r, or, when
// r is nil, n line ends.
type catPart struct {
	r      io.ReaderAt
	off, n int64
	start  int64 // its offset in the concatenation
}

// catReader reads the concatenation of parts of objects.
type catReader struct {
	parts []catPart
	size  int64
}

func (c *catReader) add(p catPart) {
	if p.n <= 0 {
		return
	}
	p.start = c.size
	c.parts = append(c.parts, p)
	c.size += p.n
}

// part returns the index of the part holding byte off (< c.size).
func (c *catReader) part(off int64) int {
	return sort.Search(len(c.parts), func(i int) bool { return c.parts[i].start+c.parts[i].n > off })
}

// ReadAt reads the concatenation's bytes at off.
func (c *catReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("dataset: negative offset %d", off)
	}
	done := 0
	for done < len(p) && off < c.size {
		i := c.part(off)
		pt := &c.parts[i]
		in := off - pt.start
		m := int(min(int64(len(p)-done), pt.n-in))
		if pt.r == nil {
			for k := range m {
				p[done+k] = '\n'
			}
		} else if n, err := pt.r.ReadAt(p[done:done+m], pt.off+in); n < m {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF // the object is shorter than listed
			}
			return done + n, err
		}
		done += m
		off += int64(m)
	}
	if done < len(p) {
		return done, io.EOF
	}
	return done, nil
}

// Prefetch passes the ranges on to the objects that are Prefetchers.
func (c *catReader) Prefetch(ranges [][2]int64, keep bool) {
	by := make(map[int][][2]int64)
	var order []int
	for _, r := range ranges {
		for a := max(r[0], 0); a < min(r[1], c.size); {
			i := c.part(a)
			pt := &c.parts[i]
			b := min(r[1], pt.start+pt.n)
			if _, ok := pt.r.(Prefetcher); ok {
				if by[i] == nil {
					order = append(order, i)
				}
				by[i] = append(by[i], [2]int64{pt.off + a - pt.start, pt.off + b - pt.start})
			}
			a = b
		}
	}
	for _, i := range order {
		c.parts[i].r.(Prefetcher).Prefetch(by[i], keep)
	}
}
