// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sublinear/pearson/errs"
)

// errNilSource is the error of Scan or Sample called on a nil *CSV,
// *CSVBlocks or *Parquet (whose Name, Rows and Close answer "", 0 and nil).
var errNilSource = errors.New("dataset: nil source")

// Sentinel errors. Every error about the content of the input is a *ParseError
// whose Err is one of these (or, for malformed quoting, one of the sentinels of
// encoding/csv such as csv.ErrQuote and csv.ErrBareQuote), so callers can test
// the kind of a failure with errors.Is.
var (
	// ErrEmpty means the input has no header line: it is empty, or holds only
	// blank lines (or only a byte-order mark). For ReadMatrix and ReadVector it
	// means the input holds no number at all.
	ErrEmpty = errors.New("dataset: empty input")
	// ErrNoRows means the input has a header but no data rows, or that no row is
	// left after DropMissing, or that every row of one group was dropped.
	ErrNoRows = errors.New("dataset: no data rows")
	// ErrNotNumber means a cell that must be numeric does not parse as a
	// decimal number.
	ErrNotNumber = errors.New("dataset: not a number")
	// ErrEmptyCell means a cell that must hold a value is empty (or holds only
	// spaces) and DropMissing is off.
	ErrEmptyCell = errors.New("dataset: empty cell")
	// ErrNonFinite means a cell holds NaN, an infinity, or a number too large
	// for a float64 (such as 1e400). errors.Is reports it as
	// errs.ErrNonFinite too, the value of the estimators' ErrNonFinite.
	ErrNonFinite = errs.Kind("dataset: not a finite number", errs.ErrNonFinite)
	// ErrRagged means a row has a different number of fields than the header
	// (or, for ReadMatrix, than the first row; for ReadVector, that the input is
	// neither one number per line nor all numbers on one line).
	ErrRagged = errors.New("dataset: wrong number of fields")
	// ErrUnknownColumn means a name in Query.Columns or Query.Group is not in
	// the header.
	ErrUnknownColumn = errors.New("dataset: unknown column")
	// ErrDuplicateColumn means a column that is used (named in Query.Columns
	// or Query.Group, or selected by default) has a name that occurs more than
	// once in the header, or that Query.Columns lists a name twice.
	ErrDuplicateColumn = errors.New("dataset: duplicate column name")
	// ErrNoNumericColumns means the default column selection (empty
	// Query.Columns) found no numeric column: no column's first non-empty
	// cell is a number.
	ErrNoNumericColumns = errors.New("dataset: no numeric columns")
	// ErrLineTooLong means a line of the input is longer than the longest
	// line a reader accepts (Options.MaxLine).
	ErrLineTooLong = errors.New("dataset: line too long")
	// ErrGroupIsColumn means Query.Group is also listed in Query.Columns.
	ErrGroupIsColumn = errors.New("dataset: group column also listed in Columns")
	// ErrTooManyLabels means a text column holds more distinct labels
	// than Query.MaxLabels: the read stops at the first label beyond.
	ErrTooManyLabels = errors.New("dataset: too many distinct labels")
	// ErrEncoding means an input that is not UTF-8 CSV text: UTF-16 (a
	// byte-order mark FF FE or FE FF, or NUL bytes at its start), or a
	// reference file saved by drift.
	ErrEncoding = errors.New("dataset: not UTF-8 text")
	// ErrTooManyNumbers means a headerless matrix or vector holds more than
	// MaxNumbers numbers.
	ErrTooManyNumbers = errors.New("dataset: too many numbers")
	// ErrBadCell means a cell of a column of Query.Cells that its function
	// refused.
	ErrBadCell = errors.New("dataset: cell refused")
)

// ParseError describes a problem in the content of an input, with its
// position. Its message reads like
//
//	dataset: data.csv: line 12, column "x" (field 3): cannot parse "abc" as a number
//
// or, for a row whose line number is not known (drawn at random by
// Sample with Sampling.Seek), with the byte offset where its line starts:
//
//	dataset: data.csv: line at byte 123456, column "x" (field 3): cannot parse "abc" as a number
//
// The parts that do not apply (line 0, offset 0, empty column name, field 0)
// are left out.
type ParseError struct {
	File   string // name of the input, as given to Read ("<stdin>" for "-")
	Line   int    // 1-based physical line of the file; 0 when not applicable or not known
	Offset int64  // byte offset in the file of the row's line (or, for ErrLineTooLong, of a byte in it), when its line number is not known (a row drawn by seeking); 0 otherwise
	Column string // name of the column; "" when not applicable or unnamed
	Index  int    // 1-based field number within the line; 0 when not applicable
	Err    error  // the kind of error: one of the Err* sentinels (or of encoding/csv)

	msg string // what was wrong, with the offending text; Err's text when empty
}

// Error returns the message, starting with "dataset: ".
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("dataset: ")
	file := e.File
	if file == "" {
		file = "<input>"
	}
	b.WriteString(file)
	sep := ": "
	switch {
	case e.Line > 0:
		b.WriteString(": line ")
		b.WriteString(strconv.Itoa(e.Line))
		sep = ", "
	case e.Offset > 0:
		b.WriteString(": line at byte ")
		b.WriteString(strconv.FormatInt(e.Offset, 10))
		sep = ", "
	}
	switch {
	case e.Column != "":
		b.WriteString(sep)
		b.WriteString("column ")
		b.WriteString(quote(e.Column))
		if e.Index > 0 {
			b.WriteString(" (field ")
			b.WriteString(strconv.Itoa(e.Index))
			b.WriteString(")")
		}
	case e.Index > 0:
		b.WriteString(sep)
		b.WriteString("field ")
		b.WriteString(strconv.Itoa(e.Index))
	}
	b.WriteString(": ")
	msg := e.msg
	if msg == "" && e.Err != nil {
		msg = strings.TrimPrefix(e.Err.Error(), "dataset: ")
	}
	b.WriteString(msg)
	return b.String()
}

// Unwrap returns e.Err.
func (e *ParseError) Unwrap() error { return e.Err }

// maxQuote is how many bytes of offending text a message shows.
const maxQuote = 40

// quote returns s quoted with Go syntax (so control characters and invalid
// UTF-8 print safely), truncated to about maxQuote bytes.
func quote(s string) string {
	if len(s) <= maxQuote {
		return strconv.Quote(s)
	}
	cut := maxQuote
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if cut == 0 { // no rune start in the first bytes: cut anywhere
		cut = maxQuote
	}
	return strconv.Quote(s[:cut]) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// quoteList quotes at most max names, separated by commas.
func quoteList(names []string, max int) string {
	var b strings.Builder
	for i, n := range names {
		if i == max {
			b.WriteString(", ... and ")
			b.WriteString(strconv.Itoa(len(names) - max))
			b.WriteString(" more")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quote(n))
	}
	return b.String()
}

// delimiterHint returns a hint such as ` (is the delimiter ';'?)` when s holds
// a likely delimiter other than delim, or "".
func delimiterHint(s string, delim rune) string {
	if d, ok := likelyDelimiter(s, delim); ok {
		return " (is the delimiter " + strconv.QuoteRune(d) + "?)"
	}
	return ""
}

// likelyDelimiter reports which of ',', ';', '\t', '|' and (inside the
// trimmed text) ' ' occurs in s, other than delim.
func likelyDelimiter(s string, delim rune) (rune, bool) {
	for _, d := range []rune{';', '\t', '|', ','} {
		if d != delim && strings.ContainsRune(s, d) {
			return d, true
		}
	}
	if delim != ' ' && strings.ContainsRune(strings.TrimSpace(s), ' ') {
		return ' ', true
	}
	return 0, false
}
