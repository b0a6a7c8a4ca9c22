// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// utf8BOM is the UTF-8 encoding of U+FEFF.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// validDelimiter reports whether encoding/csv accepts d as a field delimiter.
func validDelimiter(d rune) bool {
	return d != 0 && d != '"' && d != '\r' && d != '\n' && utf8.ValidRune(d) && d != utf8.RuneError
}

// referenceMagic is the first line of a reference file of drift
// (drift.Reference.Save), which this package does not import.
const referenceMagic = "pearson-drift\n"

// checkEncoding refuses text whose first bytes head are those of UTF-16
// (a byte-order mark FF FE or FE FF, or a NUL byte among the first four
// bytes, as in UTF-16 text without one), which read as UTF-8 gave a
// message about numbers, and a reference file of drift, which gave one
// about quotes.
func checkEncoding(name string, head []byte) error {
	var what string
	switch {
	case bytes.Equal(head, []byte(referenceMagic)):
		return &ParseError{File: name, Line: 1, Err: ErrEncoding,
			msg: "a reference saved by pearson drift --save-reference, not a table: give it to drift with --reference"}
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}), bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		what = fmt.Sprintf("UTF-16 text (it starts with the byte-order mark % X)", head[:2])
	case bytes.IndexByte(head[:min(len(head), 4)], 0) >= 0:
		what = "a NUL byte in its first bytes: UTF-16 text, or not text"
	default:
		return nil
	}
	return &ParseError{File: name, Line: 1, Err: ErrEncoding,
		msg: what + ": CSV input must be UTF-8 (convert it, e.g. iconv -f UTF-16 -t UTF-8)"}
}

// newReader returns a csv.Reader on r that skips a leading UTF-8 byte-order
// mark, refuses UTF-16 (checkEncoding), and fails on a line longer than
// maxLine bytes (see lineLimit).
func newReader(r io.Reader, name string, delim rune, maxLine int) (*csv.Reader, error) {
	br := bufio.NewReaderSize(newLineLimit(r, name, maxLine), 64<<10)
	head, err := br.Peek(len(referenceMagic))
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, readError(name, 0, err)
	}
	if err := checkEncoding(name, head); err != nil {
		return nil, err
	}
	if bytes.HasPrefix(head, utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	cr := csv.NewReader(br)
	cr.Comma = delim
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	return cr, nil
}

// readError converts an error returned by csv.Reader.Read that is not io.EOF.
// lastLine is the line of the last record read successfully.
func readError(name string, lastLine int, err error) error {
	if e := (*ParseError)(nil); errors.As(err, &e) {
		return e
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		msg := fmt.Sprintf("malformed CSV: %v (byte %d of the line", pe.Err, pe.Column)
		if pe.StartLine != pe.Line {
			msg += fmt.Sprintf(", in the row that starts on line %d", pe.StartLine)
		}
		msg += "; a field containing quotes must be quoted, with inner quotes doubled)"
		return &ParseError{File: name, Line: pe.Line, Err: pe.Err, msg: msg}
	}
	if lastLine > 0 {
		return fmt.Errorf("dataset: %s: reading after line %d: %w", name, lastLine, err)
	}
	return fmt.Errorf("dataset: %s: reading: %w", name, err)
}

// isBlankRecord reports whether rec is a line holding only spaces, which
// encoding/csv returns as one field (it skips truly empty lines itself).
func isBlankRecord(rec []string) bool {
	return len(rec) == 1 && strings.TrimSpace(rec[0]) == ""
}

// ParseNumber parses a cell as the package reads a number (see the package
// documentation): surrounding spaces trimmed, decimal, finite. It returns
// ErrEmptyCell, ErrNotNumber or ErrNonFinite on failure.
func ParseNumber(s string) (float64, error) { return parseNumber(s) }

// parseNumber parses a trimmed decimal number. It returns ErrEmptyCell,
// ErrNotNumber or ErrNonFinite on failure.
func parseNumber(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if v, ok := parseDecimal(s); ok {
		return v, nil
	}
	return parseFloat(s)
}

// parseFloat parses the trimmed cell s by strconv.ParseFloat, as
// parseNumber does what parseDecimal does not take.
func parseFloat(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err == nil {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, ErrNonFinite
		}
		// strconv also accepts Go syntax: hexadecimal floats and underscores.
		for i := 0; i < len(s); i++ {
			if c := s[i]; c == '_' || c == 'x' || c == 'X' {
				return 0, ErrNotNumber
			}
		}
		return v, nil
	}
	if s == "" {
		return 0, ErrEmptyCell
	}
	if errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) {
		return 0, ErrNonFinite
	}
	return 0, ErrNotNumber
}

// missingWords are the cells Query.NA reads as missing values, as an empty
// cell is: the words R, pandas, SQL exports and spreadsheets write for one.
var missingWords = []string{"NA", "N/A", "n/a", "#N/A", "<NA>", "NaN", "nan", "NAN", "-nan", "null", "NULL", "None"}

// MissingWords returns the cells that Query.NA reads as missing values
// (besides the empty cell), in the case they are matched in.
func MissingWords() []string { return slices.Clone(missingWords) }

// isMissingWord reports whether the cell s, trimmed, is one of missingWords.
func isMissingWord(s string) bool {
	return slices.Contains(missingWords, strings.TrimSpace(s))
}

// refusedCell is the error of a function of Query.Cells on a cell.
type refusedCell struct{ err error }

func (e *refusedCell) Error() string { return e.err.Error() }

// cellMessage describes a cell holding text that failed with kind.
func cellMessage(kind error, text string, delim rune) string {
	if r, ok := kind.(*refusedCell); ok {
		return quote(strings.TrimSpace(text)) + ": " + r.err.Error()
	}
	switch kind {
	case ErrEmptyCell:
		if t := strings.TrimSpace(text); t != "" {
			return quote(t) + " is a missing value"
		}
		return "empty cell"
	case ErrTooManyLabels:
		return quote(strings.TrimSpace(text)) + " is one distinct label more than the read takes"
	case ErrNonFinite:
		t := strings.TrimSpace(text)
		if v, err := strconv.ParseFloat(t, 64); errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) {
			return quote(text) + " is too large for a float64 (not a finite number)"
		}
		return quote(text) + " is not a finite number"
	}
	return "cannot parse " + quote(text) + " as a number" + delimiterHint(text, delim)
}

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseDecimal parses s when it is a plain decimal, [+-]d+[.d+][(e|E)[+-]d+],
// whose value the fast path of Clinger ("How to read floating point numbers
// accurately", PLDI 1990) gives exactly: its digits, the decimal point left
// out, an integer m < 2⁵³, and its value m·10^e with |e| ≤ 22, or m·10^e
// with 22 < e ≤ 37 when m·10^(e−22) stays below 10¹⁵. m and 10^|e| are then
// exact float64s, and one multiplication or division of two exact values
// is correctly rounded: the result is the float64 nearest the decimal,
// strconv.ParseFloat's (which takes the same path for such input). ok is
// false for anything else (other syntax, more digits, larger exponents),
// which the caller leaves to strconv.ParseFloat.
func parseDecimal(s string) (v float64, ok bool) {
	i, n := 0, len(s)
	neg := false
	if i < n && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var m uint64
	digits, exp := 0, 0
	start := i
	for ; i < n && s[i] >= '0' && s[i] <= '9'; i++ {
		m = m*10 + uint64(s[i]-'0')
		digits++
	}
	if i == start || digits > 19 {
		return 0, false
	}
	if i < n && s[i] == '.' {
		i++
		frac := i
		for ; i < n && s[i] >= '0' && s[i] <= '9'; i++ {
			m = m*10 + uint64(s[i]-'0')
			digits++
		}
		if i == frac || digits > 19 {
			return 0, false
		}
		exp = frac - i
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < n && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		e, estart := 0, i
		for ; i < n && s[i] >= '0' && s[i] <= '9' && i-estart < 4; i++ {
			e = e*10 + int(s[i]-'0')
		}
		if i == estart {
			return 0, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != n || m >= 1<<53 {
		return 0, false
	}
	v = float64(m)
	if neg {
		v = -v
	}
	switch {
	case exp == 0:
		return v, true
	case exp > 0 && exp <= 15+22:
		if exp > 22 {
			v *= pow10[exp-22]
			exp = 22
		}
		if v > 1e15 || v < -1e15 {
			return 0, false
		}
		return v * pow10[exp], true
	case exp < 0 && exp >= -22:
		return v / pow10[-exp], true
	}
	return 0, false
}
