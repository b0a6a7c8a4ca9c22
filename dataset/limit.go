// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"fmt"
	"io"
)

// DefaultMaxLine is the longest line that a reader accepts when
// Options.MaxLine is zero: 1 MiB, room for a row of about 50 000 numbers
// of 20 characters. The memory of a read grows with the longest line: up
// to about 100 bytes per byte of a line made of one-byte fields (the
// record and field positions of encoding/csv).
const DefaultMaxLine = 1 << 20

// lineLimit passes the bytes of r on until a record, a line or (for quoted
// fields that span lines) the lines of one record, grows longer than max
// bytes: then it fails with a *ParseError (ErrLineTooLong) giving the
// record's line and byte offset. So an input without line breaks, such as
// /dev/zero, or with a gigantic cell, costs at most max bytes of memory,
// not all the memory there is.
//
// The state of quoting is followed byte by byte as RFC 4180 has it (a
// quote opens or closes a quoted field; a doubled quote inside one toggles
// it twice), which is exact for every input encoding/csv accepts; a bare
// quote, which it rejects, can only make a record seem longer or shorter
// than it is before that error.
type lineLimit struct {
	r      io.Reader
	name   string
	max    int64
	off    int64 // bytes passed on
	start  int64 // offset of the current record
	line   int   // 1-based line of the byte at off
	sline  int   // line of the current record
	quoted bool  // inside a quoted field
}

// newLineLimit returns a lineLimit on r; max <= 0 means DefaultMaxLine.
func newLineLimit(r io.Reader, name string, max int) *lineLimit {
	if max <= 0 {
		max = DefaultMaxLine
	}
	return &lineLimit{r: r, name: name, max: int64(max), line: 1, sline: 1}
}

func (l *lineLimit) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	b := p[:n]
	if !l.quoted && bytes.IndexByte(b, '"') < 0 {
		// The common case: no quote, records end at each newline.
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			nl := bytes.Count(b, []byte{'\n'})
			l.line += nl
			l.sline = l.line
			l.start = l.off + int64(i) + 1
		}
	} else {
		for i, c := range b {
			switch c {
			case '"':
				l.quoted = !l.quoted
			case '\n':
				l.line++
				if !l.quoted {
					l.start, l.sline = l.off+int64(i)+1, l.line
				}
			}
		}
	}
	l.off += int64(n)
	if l.off-l.start > l.max {
		return n, &ParseError{File: l.name, Line: l.sline, Err: ErrLineTooLong,
			msg: fmt.Sprintf("line longer than %d bytes, from byte %d (a file without line breaks, or a huge cell?)", l.max, l.start)}
	}
	return n, err
}
