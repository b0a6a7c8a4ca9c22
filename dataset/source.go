// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/sublinear/pearson/internal/redact"
)

// Source is a table of numeric columns with a header, in a file or a stream,
// as one of the package's readers sees it. Open returns the reader that suits
// a path; NewCSV reads CSV text from any io.Reader.
//
// A Source may be read more than once (Sample, then Scan for a second pass)
// when its input can be rewound, as a file can; a second pass over a stream
// such as standard input fails with ErrReread. The methods of one Source must
// not be called concurrently.
type Source interface {
	// Name returns the input's name as messages show it ("<stdin>" for
	// standard input).
	Name() string

	// Sample reads the rows that q selects and keeps, for each group, a
	// uniform random sample of at most s.Size of its rows (every row when
	// s.Size is zero), with the group's number of rows. The kept rows are
	// in file order. By default a CSV source reads, validates and counts
	// every row, in one pass with memory independent of the number of
	// rows; with s.Seek, a CSV file that can be read at any offset is
	// sampled by drawing rows at random positions instead (see
	// Sampling.Seek), and Table.Sampled says which was done.
	Sample(ctx context.Context, q Query, s Sampling) (*Table, error)

	// Scan reads the rows that q selects and calls fn for each valid row,
	// in file order; no row is kept: the groups of the Table have their row
	// counts but no Data. An error from fn stops the reading and is
	// returned as it is; a nil fn is an error. For streaming an input of
	// any length through a computation.
	Scan(ctx context.Context, q Query, fn RowFunc) (*Table, error)

	// Close releases the input. A Source made by NewCSV does not close the
	// reader it was given.
	Close() error
}

// RowFunc receives a row of Source.Scan: its group's key ("" without
// grouping), its 1-based line, and its values in the order of
// Table.Columns. row is reused for the next row: copy what must outlive the
// call.
type RowFunc func(group string, line int, row []float64) error

// Options says how to open an input.
type Options struct {
	// Delimiter separates the fields of a CSV input. Zero means ','.
	Delimiter rune
	// Stdin is what the path "-" reads. Nil means os.Stdin.
	Stdin io.Reader
	// MaxLine is the longest line, in bytes, that a reader accepts (for a
	// quoted field spanning lines: the longest record). A longer one is an
	// error (ErrLineTooLong) naming the input, the line and the byte
	// offset, so that an input without line breaks or with a gigantic cell
	// costs bounded memory. Zero means DefaultMaxLine.
	MaxLine int
	// Progress, when not nil, is called as the input is read, with the
	// bytes read so far and the size of the file (0 when it is not known,
	// as for a stream).
	Progress func(read, size int64)
}

// Query says which columns and rows of a table to read.
type Query struct {
	// Columns names the numeric columns to keep, in this order. Empty means every column
	// whose first non-empty cell parses as a number, in header order, except the Group
	// column and columns whose header name is empty; the others are listed in
	// Table.Skipped.
	Columns []string
	// Group names a column whose values split the rows into groups (any strings, e.g. "A","B","ctl").
	// Empty means no grouping (one group, key "").
	Group string
	// Groups, when not empty, names the group values whose rows are kept: the
	// rows of other values are still read and validated, but neither kept
	// nor counted (not in Table.Dropped either), and their values are listed
	// in Table.Others.
	Groups []string
	// MaxGroups, when positive, keeps the rows of at most that many group
	// values, the first met; later values are treated as values not in
	// Groups. With Groups and MaxGroups, memory does not grow with the number
	// of distinct group values.
	MaxGroups int
	// DropMissing skips rows in which a kept column (or the group column) is empty, counting them,
	// instead of failing.
	DropMissing bool
	// NA reads, in the numeric columns of a table that is not mixed, the
	// words of MissingWords (NA, NaN, null, …) as missing values, as an
	// empty cell is: an error (ErrEmptyCell) or, with DropMissing, a
	// dropped row. False keeps the package's rule: only an empty cell is
	// missing, "NA" is not a number and "NaN" not a finite one.
	NA bool
	// Cells names columns whose cells fn parses instead of as numbers (a
	// column of dates, say), by name; their values in a row are what fn
	// returns. An empty cell (or a word of MissingWords, with NA) is
	// missing before fn is called; an error from fn fails the read with
	// ErrBadCell, naming the line, the column and the cell, and fn's
	// message. With the default selection they are kept whatever their
	// cells, in header order. In a Parquet input (not mixed), a string,
	// DATE or TIMESTAMP column named here passes fn its values as text: a
	// string as it is, a date as 2024-01-31, a timestamp as
	// 2024-01-31T12:00:00 with the fraction of a second it needs and Z
	// when adjusted to UTC; a column of another type is read as it would
	// be without fn.
	Cells map[string]func(cell string) (float64, error)
	// Mixed asks for a mixed table (CSV or Parquet; see the package
	// documentation): every selected column is kept, numeric or text, and
	// rows with empty cells are kept, their empty cells missing values (NaN,
	// counted in Group.Missing). Text cells are held as codes of the labels
	// in Table.Categories. False keeps numeric columns only and fails on an
	// empty cell (or drops its row, with DropMissing).
	Mixed bool
	// Text names columns of a mixed table read as text whatever their
	// cells (digits as labels); it implies Mixed.
	Text []string
	// Labels names columns of a table that is not mixed (a CSV input) that
	// may hold class labels: each is numeric when its first non-empty cell
	// is a number, as other columns are, and text otherwise, its cells then
	// held as codes of its labels in Table.Categories (as in a mixed
	// table: trimmed, numbered in the order they are met). An empty cell
	// is missing as in any column of a table that is not mixed: an error,
	// or its row dropped with DropMissing. With the default selection
	// (empty Columns), they are kept whatever their cells, in header
	// order. A Parquet input reads a string or boolean column named in
	// Labels as labels the same way, its nulls and empty strings missing;
	// a numeric column stays numeric. Memory grows with the number of
	// distinct labels, up to MaxLabels.
	Labels []string
	// MaxLabels, when positive, is the most distinct labels a text column
	// (of Labels, or of a mixed table) may hold: the read fails with
	// ErrTooManyLabels, naming the row and the column, at the first label
	// beyond, so that a column of distinct strings costs memory for
	// MaxLabels labels, not for every row of the input. Zero sets no
	// bound.
	MaxLabels int
}

// mixed reports whether q asks for a mixed table.
func (q *Query) mixed() bool { return q.Mixed || len(q.Text) > 0 }

// Sampling says how Source.Sample samples the rows of each group.
type Sampling struct {
	// Size, when positive, is how many rows of each group are kept: a
	// uniform random sample of at most Size rows (a reservoir, Li's
	// algorithm L, for a CSV source). Zero keeps every row. Negative is an
	// error.
	Size int
	// Src is the randomness of the sample (math/rand/v2). Nil means
	// rand.NewPCG(1, 2): results are reproducible.
	Src rand.Source
	// Seek, when true and Size is positive, lets Sample draw the rows of an
	// input that can be read at any offset (a regular file opened by Open,
	// or NewCSVAt) at random positions, reading only the rows it draws,
	// instead of reading every row: the cost then depends on Size, not on
	// the size of the file. The sample is uniform all the same (every
	// subset of Size rows of a group is equally likely, as with the
	// reservoir), but the row counts are estimates and only the rows read
	// are validated. Sample still reads every row, and says why in
	// Table.Fallback when the reason is worth a note, when the input is a
	// stream or compressed, when the file is too small for seeking to pay,
	// or when the file defeats random access (a quoted field spanning
	// lines, a group too rare to reach); see NewCSVAt for the rules. False
	// (the default) always reads every row. A Parquet input is sampled by
	// units (row groups or pages) instead, in two stages; see NewParquetAt.
	Seek bool
	// Units is how many units (row groups or pages) a two-stage sample of
	// a Parquet input draws (see NewParquetAt), or how many blocks a
	// sample of a CSV input in blocks draws (see NewCSVBlocks). Zero means
	// DefaultUnits.
	Units int
	// Blocks, with Seek, samples a plain CSV file opened by Open in
	// blocks of rows (see NewCSVBlocks) instead of row by row: a few large
	// reads instead of many small ones, which is what a cold disk needs,
	// with an error bar that must treat the blocks as the independent
	// draws (Group.Units). A CSV object of a store (OpenObjects) is
	// always sampled in blocks.
	Blocks bool
	// ObjectBytes is about how many compressed bytes a sample of a
	// prefix of compressed CSV objects reads, in whole objects drawn at
	// random (see OpenObjects). Zero means DefaultObjectBytes.
	ObjectBytes int64
	// Rows, when not nil, is also called with every valid row of a read
	// that passes over every row q selects (a table whose Sampled is
	// false), in file order, as Scan calls its RowFunc, before the sample
	// takes or leaves the row: so that one pass both draws the sample and
	// counts or keeps every row. A read that draws its rows (by seeking, in
	// blocks or units, or a prefix of compressed objects) does not call it
	// for them. An error from it ends the read and is Sample's. As with
	// Scan, a row once passed on is not taken back: with DropMissing and
	// the default selection of columns, a numeric column whose first value
	// comes after rows already passed on is an error (name the columns to
	// read) rather than the dropping of those rows.
	Rows RowFunc
}

// Table is what Source.Sample and Source.Scan return.
type Table struct {
	Name    string   // the input's name used in messages ("-" shown as "<stdin>")
	Columns []string // names of the kept numeric columns, in order
	Groups  []Group  // in order of first appearance in the file (exactly one group when Query.Group is empty)
	Dropped int      // rows skipped by Query.DropMissing
	// Skipped lists the named columns that the default selection (empty
	// Query.Columns) left out, in the order they were decided: those whose
	// first non-empty cell is not a number, then those empty in every row
	// (a CSV column with no name in the header, which no query can name,
	// first of all, with an empty Column and Line 1).
	Skipped []Skipped
	// Others lists the group values whose rows were not kept (see
	// Query.Groups and Query.MaxGroups), in order of first appearance, at
	// most MaxOthers of them; MoreOthers reports that there were more.
	Others     []string
	MoreOthers bool

	// Sampled reports that Sample drew the rows at random positions
	// (Sampling.Seek) and read only those: then Group.Rows and Dropped are
	// estimates, Group.Lines are 0 and Group.Offsets give the rows'
	// positions (for a Parquet input, sampled by units: Group.Lines are
	// row numbers, Group.Units the draws, and the row counts are exact
	// without grouping; see NewParquetAt). False means every row of the
	// input was read and counted.
	Sampled bool
	// Fallback, when not empty, says why Sample read every row although
	// Sampling.Seek asked for a sample drawn by seeking, in words that a
	// caller can show as a note (such as "a quoted field spans lines near
	// byte 1234: random access needs one row per line"). It is empty when
	// the input simply cannot be read at an offset (a stream) or is small
	// enough for a full read to be the cheaper one.
	Fallback string
	// RowsRead is how many data rows were read and validated: every row
	// when Sampled is false; otherwise the rows of the start of the file
	// read to settle the columns, and the rows drawn.
	RowsRead int
	// Draws is how many random positions a sampled read drew (rows drawn,
	// including those rejected to keep the sample uniform), or, for a
	// Parquet input, how many row groups its two-stage sample drew (the
	// independent draws that Group.Units numbers; see NewParquetAt), or, for
	// a CSV input sampled in blocks, how many blocks; 0 when every row was
	// read.
	Draws int
	// UnitDraws is how many units (pages or row groups) a two-stage sample
	// of a Parquet input drew in its Draws row-group draws (Sampling.Units);
	// 0 otherwise.
	UnitDraws int
	// DrawStrata, when not nil, gives for each of the Draws row-group
	// draws of a two-stage sample of a Parquet input its stratum for the
	// variance between draws (summary.StrataVariance): the draws are
	// stratified along the dataset, and adjacent ones paired (see
	// NewParquetAt). Nil when the draws are independent and alike.
	DrawStrata []int
	// Units is how many distinct units (row groups or pages) a two-stage
	// sample of a Parquet input read (see NewParquetAt), or how many
	// blocks a CSV input sampled in blocks read (see NewCSVBlocks); 0
	// otherwise.
	Units int
	// BlockBytes is the bytes of each block of a CSV input sampled in
	// blocks (see NewCSVBlocks); 0 otherwise.
	BlockBytes int64
	// Objects and ObjectsRead are, for a prefix of compressed CSV objects
	// sampled by drawing whole objects (see OpenObjects), how many objects
	// the prefix holds and how many were drawn and read; 0 otherwise.
	Objects, ObjectsRead int

	// HeaderLine is the line of a CSV input's header, counted from 1 (after
	// any blank lines before it); 0 for Parquet and NumPy archives. With the lines that
	// RowFunc is given, it tells a caller whose rows are times that blank
	// lines came right after the header (blank lines are not rows).
	HeaderLine int

	// Categories holds, for a mixed table (Query.Mixed), one entry per
	// kept column: the labels of a text column in code order (the value v
	// of a cell in Group.Data is the label Categories[j][int(v)], NaN a
	// missing one), nil for a numeric column. Nil without Query.Mixed,
	// except that a CSV read with Query.Labels sets it when one of those
	// columns holds text.
	Categories [][]string
}

// MaxOthers is how many group values whose rows are not kept Table.Others
// remembers.
const MaxOthers = 100

// Skipped is a column that the default selection left out.
type Skipped struct {
	Column string // its name
	Index  int    // its 1-based field number
	Line   int    // the line of its first non-empty cell; 0 when it is empty in every row
	Value  string // that cell, trimmed of white space
}

// Group is the rows of one group value.
type Group struct {
	Key string // the group column's value ("" without grouping)
	// Rows is how many data rows of the file belong to the group and were
	// not dropped (all of them, not only the kept ones): counted when every
	// row was read, estimated when Table.Sampled (see NewCSVAt), with the
	// standard error RowsStdErr.
	Rows int
	// RowsStdErr is the standard error of Rows when it is an estimate; 0
	// when Rows is a count.
	RowsStdErr float64
	Data       []float64 // kept rows, row-major: len(Data) == len(kept rows) * len(Table.Columns)
	// Lines is the 1-based file line of each kept row (for messages
	// downstream), increasing; 0 for the rows of a sampled CSV table, whose
	// lines are not known (their byte offsets are in Offsets). For a
	// Parquet input, it is the row's 1-based number in the dataset.
	Lines []int
	// Offsets is, for a sampled table (Table.Sampled), the byte offset in
	// the file of each kept row, increasing; nil otherwise.
	Offsets []int64
	// Units is, for a Parquet input sampled in two stages (Table.Sampled
	// and Table.Units > 0), the row-group draw (0 to Table.Draws − 1) whose
	// row group each kept row was taken from, or for a CSV input sampled in
	// blocks its block; nil otherwise. The draws are independent, the rows
	// of one draw are not: an error bar must treat the draws, not the
	// rows, as the independent observations (see NewParquetAt).
	Units []int
	// Missing is, for a mixed table (Query.Mixed), the number of the
	// group's Rows in which each kept column is empty: counted when every
	// row was read, estimated from the kept rows when Table.Sampled
	// (Rows·(missing kept)/(rows kept), rounded). Nil without Query.Mixed.
	Missing []int
}

// Len returns the number of kept rows.
func (g *Group) Len() int { return len(g.Lines) }

// ErrReread means a second pass over a Source whose input cannot be rewound,
// such as standard input.
var ErrReread = errors.New("dataset: a stream cannot be read twice")

// Open opens the table at path with the reader its format needs; the path
// "-" means opts.Stdin. A directory, a file whose name ends in .parquet or
// whose first bytes are "PAR1" is Parquet (see OpenParquet; Parquet cannot
// be read from a stream). A file whose name ends in .npz or whose first bytes
// are a zip file's is a NumPy archive (see NPZ). Every other input is CSV, compressed or not: an input
// whose name ends in .gz or .zst, or whose first bytes are those of a gzip
// stream or a zstd frame (so that standard input may be compressed too),
// is decompressed as it is read, in one pass (a second pass over a
// compressed file decompresses it again; see MaxZstdWindow for the memory
// of a zstd decoder). A name announcing a format that the first bytes do
// not match is an error. An uncompressed regular file can be read at any
// offset, so that Sample can draw its rows by seeking (see NewCSVAt), or
// blocks of rows with Sampling.Blocks (see NewCSVBlocks).
// Errors for missing files, directories, unreadable files and corrupt or
// truncated compressed streams name the path. The caller closes the Source.
func Open(path string, opts Options) (Source, error) {
	if path == "-" {
		in := opts.Stdin
		if in == nil {
			in = os.Stdin
		}
		return openStream(in, path, opts, nil)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return OpenParquet(path, opts)
	}
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return openStream(f, path, opts, f)
	}
	head := make([]byte, len(pqMagic))
	n, err := f.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		f.Close()
		return nil, fmt.Errorf("dataset: %s: reading: %w", path, err)
	}
	format, k, err := detect(path, head[:n])
	switch {
	case err != nil:
		f.Close()
		return nil, err
	case format == FormatNPZ: // from the Python package (npz.go)
		return openNPZ(f, fi.Size(), path, opts)
	case format == FormatParquet:
		f.Close()
		return OpenParquet(path, opts)
	}
	if k == uncompressed {
		c := NewCSVBlocks(f, fi.Size(), path, opts)
		c.closer = f
		c.onRequest = true
		return c, nil
	}
	c := NewCSV(nil, path, opts)
	c.closer = f
	progress, size := opts.Progress, fi.Size()
	c.opts.Progress = nil // the compressed bytes are counted instead
	c.reopen = func() (io.Reader, error) {
		var r io.Reader = io.NewSectionReader(f, 0, size)
		if progress != nil {
			r = &counter{r: r, size: size, fn: progress}
		}
		return newDecoder(k, r, c.name)
	}
	return c, nil
}

// openStream returns the source reading r, a stream, decompressed if it
// starts with the magic bytes of a compressed format; closer, when not nil,
// is closed by the source's Close.
func openStream(r io.Reader, path string, opts Options, closer io.Closer) (Source, error) {
	fail := func(err error) (Source, error) {
		if closer != nil {
			closer.Close()
		}
		return nil, err
	}
	var in io.Reader = r
	if opts.Progress != nil {
		in = &counter{r: r, fn: opts.Progress}
		opts.Progress = nil
	}
	br := bufio.NewReaderSize(in, 64<<10)
	head, err := br.Peek(4)
	if err != nil && err != io.EOF {
		return fail(readError(displayName(path), 0, err))
	}
	k, err := checkCompression(path, head)
	if err != nil {
		return fail(err)
	}
	var c *CSV
	if k == uncompressed {
		c = NewCSV(br, path, opts)
	} else {
		d, err := newDecoder(k, br, displayName(path))
		if err != nil {
			return fail(err)
		}
		c = NewCSV(d, path, opts)
		c.decoder = d
	}
	if closer != nil {
		c.closer = closer
	}
	return c, nil
}

// openFile opens the file at path for reading, with the package's messages
// for a missing file or a directory.
func openFile(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, fmt.Errorf("dataset: %s: is a directory, not a file", path)
	}
	return f, nil
}

// openInput opens path ("-" for standard input) for reading.
func openInput(path string) (io.Reader, func(), error) {
	if path == "-" {
		return os.Stdin, func() {}, nil
	}
	f, err := openFile(path)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// displayName is the name used in messages for an input called name.
func displayName(name string) string {
	switch name {
	case "-":
		return "<stdin>"
	case "":
		return "<input>"
	}
	return redact.URL(name) // a URL's userinfo and query string may be secrets
}
