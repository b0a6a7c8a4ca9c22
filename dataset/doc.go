// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package dataset reads the numeric columns of tabular files as float64, for
// the estimators of this module: a uniform random sample of the rows of each
// group, with the true row counts, so that an input larger than memory costs
// memory independent of its number of rows.
//
// Open returns a Source for a path ("-" is standard input), choosing the
// reader its format needs: Parquet for a .parquet file or a directory of
// them (a partitioned dataset; see Parquet), CSV otherwise, plain or
// compressed with gzip or zstd (recognised by name and by magic bytes).
// NewCSV reads CSV from any io.Reader, NewCSVAt from an io.ReaderAt, and
// NewParquetAt a Parquet file from an io.ReaderAt. A Source offers two
// operations:
//
//   - Sample reads the columns a Query selects, split into groups by the
//     value of an optional group column, and keeps a uniform random sample
//     of at most Sampling.Size rows of each group (Li's algorithm L,
//     reproducible for a given Sampling.Src) while every row is still read,
//     validated and counted. Kept rows are returned in file order, each with
//     its line number.
//     With Sampling.Seek, a plain CSV file is sampled instead by drawing
//     rows at random offsets, uniformly (NewCSVAt proves it), reading only
//     those: the row counts are then estimates (Table.Sampled), and the
//     inputs that defeat random access are read in full (Table.Fallback).
//     A Parquet input is sampled in two stages instead: units (row groups
//     or pages) drawn with probability proportional to their rows, then
//     rows within them; the rows of a unit are not independent, and
//     Group.Units labels each kept row with its draw so that an error bar
//     can account for it (see NewParquetAt).
//   - Scan passes every valid row, in file order, to a function: a second
//     pass over a file, streaming rows through a computation.
//
// No input makes a reader allocate without bound: a line longer than
// Options.MaxLine (DefaultMaxLine) is an error (ErrLineTooLong), a zstd
// stream may not ask for a window larger than MaxZstdWindow, and every size
// in a Parquet file is checked against the file and fixed limits before it
// is decoded (ErrCorrupt).
//
// Both take a context, which the reading loop checks every few thousand
// rows, so that a cancelled context stops the reading of a long input.
//
// ReadMatrix and ReadVector (and OpenMatrix, OpenVector) read headerless
// numbers: a matrix with one row per line, or a vector given one number per
// line or all numbers on one line.
//
// # Accepted dialect
//
// The input is CSV as read by encoding/csv (RFC 4180), strictly quoted, with
// these rules:
//
//   - The delimiter is ',' unless Options.Delimiter says otherwise (any rune
//     but '"', '\r', '\n' and 0). For ReadMatrix and ReadVector, the
//     delimiter ' ' means runs of spaces, leading and trailing spaces ignored.
//   - A UTF-8 byte-order mark at the start of the input is skipped. Lines may
//     end in "\n" or "\r\n".
//   - Fields may be quoted: "1.5" is the number 1.5, and header names may be
//     quoted. A quote inside an unquoted field, or an unterminated quoted
//     field, is an error (a *ParseError whose Err is csv.ErrBareQuote or
//     csv.ErrQuote).
//   - Empty lines are skipped, and so are lines of spaces when the header has
//     several fields. Line numbers in messages and in Group.Lines are always
//     the physical lines of the input, counting from 1 (the header is line 1
//     unless blank lines precede it); a quoted field may span lines, and then
//     a row's line is where it starts.
//   - The first non-blank line is the header. Header names and all cells are
//     trimmed of leading and trailing white space, so " 1.5 " is 1.5 and
//     " x" names column "x". Names are compared exactly (case matters).
//   - A header may hold empty or repeated names as long as those columns are
//     not used: naming a repeated name in Query.Columns or Query.Group, or
//     a default selection that would pick a column whose name is repeated,
//     fails with ErrDuplicateColumn. Columns with an empty name (such as the
//     index column pandas writes) are never selected by default and cannot be
//     named.
//   - Every data row must have as many fields as the header (ErrRagged).
//   - Numbers are decimal, as accepted by strconv.ParseFloat without its Go
//     extensions: 1, -0, +3, .5, 1E5, 1e-300 are numbers (a value too small
//     for a float64 becomes 0); hexadecimal floats and underscores are not
//     (ErrNotNumber). NaN, Inf, Infinity (in any case, with any sign) and
//     values too large for a float64, such as 1e400, fail with ErrNonFinite.
//   - An empty cell (after trimming) in a kept column or the group column
//     fails with ErrEmptyCell, or, with Query.DropMissing, drops the row,
//     counted in Table.Dropped. Only empty cells are missing: "NA" is not a
//     number. Every other kept cell of a dropped row is still validated.
//   - With empty Query.Columns, the kept columns are those, in header order,
//     whose first non-empty cell parses as a number (a non-finite one
//     included, which is then reported as ErrNonFinite), except the group
//     column and unnamed columns. An empty cell is missing, never a sign of
//     text: a column whose first cells are empty is decided by its first
//     non-empty one, and the rows before it, where it was empty, fail with
//     ErrEmptyCell at the first of them or, with Query.DropMissing, are
//     dropped. The columns left out (first non-empty cell not a number, or
//     empty in every row) are listed in Table.Skipped.
//   - With a group column, a group exists from the first row holding its
//     value; it is an error (ErrNoRows) if all its rows are dropped.
//     Query.Groups and Query.MaxGroups restrict the values whose rows are
//     kept; the rows of the others are validated, then ignored, and the first
//     MaxOthers of their values are listed in Table.Others.
//
// # Errors
//
// Every message starts with "dataset: " and names the input. Problems with
// the content of the input are *ParseError values, which give the line, the
// column name and field number when they apply, and quote the offending text
// (escaped, so binary data prints safely, and truncated to about 40 bytes):
//
//	dataset: data.csv: line 12, column "x" (field 3): cannot parse "abc" as a number
//	dataset: data.csv: line 7: expected 3 fields as in the header (line 1), found 2
//	dataset: data.csv: line 1, column "x": unknown column: the header has a single field "x;y": is the delimiter ';'? (use --delimiter ';')
//
// ParseError.Err is one of the sentinels ErrEmpty, ErrNoRows, ErrNotNumber,
// ErrEmptyCell, ErrNonFinite, ErrRagged, ErrUnknownColumn,
// ErrDuplicateColumn, ErrNoNumericColumns, ErrLineTooLong and ErrGroupIsColumn (or a sentinel
// of encoding/csv for malformed quoting), so errors.Is tells the kind of
// error. Missing files, directories and read failures are reported with the
// path and wrap the underlying error. Invalid options (a bad delimiter, a
// negative sample size) are plain errors, and so is a cancelled context
// (wrapping ctx.Err()) and a second pass over a stream (wrapping ErrReread).
// No input makes the package panic.
package dataset
