// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bufio"
	"fmt"
	"io"

	"github.com/sublinear/pearson/internal/isnil"
)

// ReadMatrix reads a headerless matrix of numbers from r: one row per line,
// every line with the same number of fields, separated by delim (zero means
// ','; ' ' means runs of spaces, as written by numpy.savetxt). It returns the
// numbers row-major. It does not require the matrix to be square: callers that
// need an n×n matrix check rows == cols. name is used in messages. A nil r
// is an error.
func ReadMatrix(r io.Reader, name string, delim rune) (rows, cols int, data []float64, err error) {
	name = displayName(name)
	if isnil.Is(r) {
		return 0, 0, nil, fmt.Errorf("dataset: %s: no reader (nil)", name)
	}
	err = readNumbers(r, name, delim, func(fields []string, line int, cell func(i int) error) error {
		if rows == 0 {
			cols = len(fields)
		} else if len(fields) != cols {
			return &ParseError{File: name, Line: line, Err: ErrRagged,
				msg: fmt.Sprintf("expected %d numbers as on the first row, found %d", cols, len(fields))}
		}
		for i := range fields {
			if err := cell(i); err != nil {
				return err
			}
		}
		rows++
		return nil
	}, &data)
	if err != nil {
		return 0, 0, nil, err
	}
	return rows, cols, data, nil
}

// ReadVector reads a headerless vector of numbers from r, given either one
// number per line or all numbers on one line, separated by delim (zero means
// ','; ' ' means runs of spaces). Other shapes fail with ErrRagged. name is
// used in messages. A nil r is an error.
func ReadVector(r io.Reader, name string, delim rune) ([]float64, error) {
	name = displayName(name)
	if isnil.Is(r) {
		return nil, fmt.Errorf("dataset: %s: no reader (nil)", name)
	}
	var data []float64
	first, firstLine := 0, 0
	err := readNumbers(r, name, delim, func(fields []string, line int, cell func(i int) error) error {
		switch {
		case first == 0:
			first, firstLine = len(fields), line
		case first > 1:
			return &ParseError{File: name, Line: line, Err: ErrRagged,
				msg: fmt.Sprintf("line %d already holds %d numbers: a vector is one number per line or all numbers on one line, not a matrix", firstLine, first)}
		case len(fields) != 1:
			return &ParseError{File: name, Line: line, Err: ErrRagged,
				msg: fmt.Sprintf("expected 1 number per line as on line %d, found %d: a vector is one number per line or all numbers on one line", firstLine, len(fields))}
		}
		for i := range fields {
			if err := cell(i); err != nil {
				return err
			}
		}
		return nil
	}, &data)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// OpenMatrix reads the matrix in the file at path ("-" means standard
// input); see ReadMatrix.
func OpenMatrix(path string, delim rune) (rows, cols int, data []float64, err error) {
	f, closeFn, err := openInput(path)
	if err != nil {
		return 0, 0, nil, err
	}
	defer closeFn()
	return ReadMatrix(f, path, delim)
}

// OpenVector reads the vector in the file at path ("-" means standard input);
// see ReadVector.
func OpenVector(path string, delim rune) ([]float64, error) {
	f, closeFn, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	return ReadVector(f, path, delim)
}

// MaxNumbers is the most numbers ReadMatrix and ReadVector keep: 2²⁷,
// 1 GiB of float64. A compressed input says nothing of its size before it
// is read, so a gzip bomb of zeros is refused when it reaches this bound
// rather than when the memory runs out.
const MaxNumbers = 1 << 27

// readNumbers reads headerless lines of numbers, calling line for each
// non-blank line with its fields. The callback checks the shape and calls cell
// for each field to parse it and append it to *data. An input whose first
// bytes are those of a gzip stream or a zstd frame (or whose name ends in
// .gz or .zst) is decompressed as it is read, as Open does.
func readNumbers(r io.Reader, name string, delim rune,
	lineFn func(fields []string, line int, cell func(i int) error) error, data *[]float64) error {
	if delim == 0 {
		delim = ','
	}
	if !validDelimiter(delim) {
		return fmt.Errorf("dataset: %s: invalid delimiter %q", name, delim)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(4)
	if err != nil && err != io.EOF {
		return readError(name, 0, err)
	}
	k, err := checkCompression(name, head)
	if err != nil {
		return err
	}
	var in io.Reader = br
	if k != uncompressed {
		d, err := newDecoder(k, br, name)
		if err != nil {
			return err
		}
		defer d.Close()
		in = d
	}
	cr, err := newReader(in, name, delim, DefaultMaxLine)
	if err != nil {
		return err
	}
	var (
		fields []string
		pos    []int // index in the record of each field, for FieldPos
		line   int
		last   int
		rec    []string
	)
	cell := func(i int) error {
		v, err := parseNumber(fields[i])
		if err != nil {
			l, _ := cr.FieldPos(pos[i])
			msg := cellMessage(err, fields[i], delim)
			if l == 1 && err == ErrNotNumber && len(*data) == 0 {
				msg += " (this input has no header line)"
			}
			return &ParseError{File: name, Line: l, Index: i + 1, Err: err, msg: msg}
		}
		if len(*data) >= MaxNumbers {
			l, _ := cr.FieldPos(pos[i])
			return &ParseError{File: name, Line: l, Index: i + 1, Err: ErrTooManyNumbers,
				msg: fmt.Sprintf("more than MaxNumbers = %d numbers (%.0f GiB)", MaxNumbers, float64(MaxNumbers)*8/(1<<30))}
		}
		*data = append(*data, v)
		return nil
	}
	for {
		rec, err = cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return readError(name, last, err)
		}
		line, _ = cr.FieldPos(0)
		last = line
		fields, pos = fields[:0], pos[:0]
		for i, f := range rec {
			if delim == ' ' && f == "" { // runs of spaces separate fields
				continue
			}
			fields = append(fields, f)
			pos = append(pos, i)
		}
		if len(fields) == 0 || isBlankRecord(fields) {
			continue
		}
		if err := lineFn(fields, line, cell); err != nil {
			return err
		}
	}
	if len(*data) == 0 {
		return &ParseError{File: name, Err: ErrEmpty, msg: "empty input: no numbers"}
	}
	return nil
}
