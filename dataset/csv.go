// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/sublinear/pearson/internal/isnil"
)

// CSV is a Source reading CSV text with a header line. See the package
// documentation for the accepted dialect.
type CSV struct {
	r      io.Reader
	ra     io.ReaderAt // the same input, for Sampling.Seek; nil for a stream
	name   string      // as shown in messages
	opts   Options
	size   int64     // of the file, for Options.Progress; 0 when unknown
	closer io.Closer // the file Open opened; nil for NewCSV
	passes int       // passes started

	// A compressed file: reopen starts a new pass over its decompressed
	// text, decoder is the one being read.
	reopen  func() (io.Reader, error)
	decoder io.Closer

	alwaysSeek bool // tests: seek even when a full read would be cheaper

	// tally, when not nil, is told the group and line of every row
	// counted in a group (a prefix of compressed objects counts the rows
	// of each object read).
	tally func(group string, line int)
}

// NewCSV returns a Source reading the CSV text of r. name is the input's
// name used in messages ("-" is shown as "<stdin>"). The source can be read
// more than once if r is an io.Seeker; Close does not close r. A nil r
// gives a source whose reads return an error.
func NewCSV(r io.Reader, name string, opts Options) *CSV {
	return &CSV{r: r, name: displayName(name), opts: opts}
}

// NewCSVAt returns a Source reading the CSV text held by the size bytes of
// r, which can be read more than once, and whose rows Sample can draw at
// random positions when asked to (Sampling.Seek). name is the input's name
// used in messages; Close does not close r. A nil r gives a source whose
// reads return an error.
//
// # Sampling by seeking
//
// The rows are drawn by rejection, one at a time. The data region is the
// bytes [H, E) after the header line, where E is the size of the file, plus
// one when the last line lacks its newline (as if it had one); every byte
// of it belongs to one line, terminator included, so the lengths of the
// lines sum to E − H. A draw picks a byte uniformly in [H, E) and reads the
// line around it (back to the previous newline, on to the next one): a line
// of length ℓ is hit with probability ℓ/(E − H). The line is then accepted
// with probability Lmin/ℓ, where Lmin is a lower bound on the length of a
// valid data row: (c − 1)·d + 1 bytes for c header fields, a delimiter of d
// bytes and the newline, plus one byte for every kept column and the group
// column when Query.DropMissing is off, since their cells cannot be empty
// (and at least 2 bytes for a single column, since an empty line is no
// row). A draw therefore accepts any given valid row with probability
//
//	(ℓ/(E − H))·(Lmin/ℓ) = Lmin/(E − H),
//
// the same for every row, whatever its length: the accepted rows are
// uniform. A line shorter than Lmin cannot be a valid row; accepted (it is
// when drawn), it fails validation, as it would fail a full read. Blank
// lines are never accepted. Draws go on until each group holds Size rows;
// a row drawn twice is not kept again, so that, as with the reservoir of a
// full read, every subset of Size rows of a group is equally likely (a
// simple random sample, without replacement: the sample the estimators
// assume, and the same whichever way the table was read). A draw reads
// the 4 KiB block around its byte, and a row costs (mean line length)/Lmin
// draws on average. The blocks of the next draws, up to 2048 of them, are
// read ahead, before those draws are made: their positions are predicted
// from a copy of the random source (a *rand.PCG or *rand.ChaCha8; other
// sources are not read ahead), and the blocks are read in file order, each
// run of adjacent blocks in one read, 16 reads at a time, which a cold
// disk serves far faster than one random read after another. Reading
// ahead changes no draw: the rows kept for a seed are the same.
//
// The number of rows of a group is estimated as
//
//	Rows = (E − H)/Lmin · a/T
//
// for a accepted draws of the group's rows (counting repeats) in T draws:
// a/T estimates the probability Lmin·N/(E − H) that a draw accepts one of
// the group's N rows. The estimate is consistent, with standard error
// (E − H)/Lmin·sqrt(p(1 − p)/T) for p = a/T (Group.RowsStdErr), and a
// relative bias of order 1/a since the draws stop at a count of accepted
// rows. It is never less than the number of distinct rows kept.
// Table.Dropped is estimated alike.
//
// # When Sample reads every row instead
//
// Sample first reads the header and the rows of the first 64 KiB after it,
// validating them as a full read does, to settle the default columns, meet
// the first group values and measure the mean line length. It then reads
// the whole input in one pass instead, as without Sampling.Seek, when:
//
//   - the file is small: the draws expected, Size × groups × (mean line
//     length)/Lmin, exceed both an eighth of its rows (estimated from the
//     mean line length) and its data bytes / 512, or the first 64 KiB hold
//     the whole file. A draw costs about as much as a full read spends on
//     8 short rows, or on 512 bytes of wide ones (a mixed table of 100
//     columns, whose cells may be empty, has Lmin = 100 bytes for rows of
//     about 750: 7.5 draws per row, and seeks from about 2·10⁵ rows);
//   - the first rows hold an error (the full read reports it, with its
//     line), a column that the default selection cannot decide (empty in
//     every one of them), or no data row;
//   - a quoted field spans lines, which makes the line around a byte
//     ambiguous: seen as a field holding a line break in the first rows, as
//     a line with an odd number of quote characters in any block read, or
//     as a drawn line that is not one well-formed row of the header's
//     number of fields;
//   - a group is too rare to reach: after 8 × Size × groups accepted rows,
//     or 64 × Size × groups × (mean line length)/Lmin + 4096 draws, some
//     group kept still has fewer than Size rows (a group holding less than
//     about 1/(8 × groups) of the rows is read in full), or a value of
//     Query.Groups was not met, or, with Query.MaxGroups and no
//     Query.Groups, fewer than MaxGroups values were met; or more than 256
//     group values were met.
//
// Table.Fallback then says why (except for a small file or an error in the
// first rows). A quoted field spanning three lines or more whose inner
// lines are well-formed rows on their own cannot always be detected
// outside the first rows: such inner lines, if drawn, are read as rows.
// Only the rows drawn are validated; an error in one of them names the
// byte offset of its line (ParseError.Offset). With grouping, the groups
// are ordered, and Query.MaxGroups keeps the first of them, by the
// earliest row met (in the first rows, or drawn); without Query.Groups and
// Query.MaxGroups, a group value too rare to be met is not reported.
func NewCSVAt(r io.ReaderAt, size int64, name string, opts Options) *CSV {
	if isnil.Is(r) {
		return NewCSV(nil, name, opts) // whose reads say so
	}
	c := NewCSV(io.NewSectionReader(r, 0, size), name, opts)
	c.ra, c.size = r, size
	return c
}

// Name returns the input's name as messages show it.
func (c *CSV) Name() string {
	if c == nil {
		return ""
	}
	return c.name
}

// Close closes the file that Open opened.
func (c *CSV) Close() error {
	if c == nil {
		return nil
	}
	if c.decoder != nil {
		c.decoder.Close()
		c.decoder = nil
	}
	if c.closer == nil {
		return nil
	}
	return c.closer.Close()
}

// Sample reads every row that q selects, validating and counting it, and
// keeps a uniform random sample of at most s.Size rows of each group (Li's
// algorithm L, reproducible for a given s.Src; every row when s.Size is
// zero). See Source.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func (c *CSV) Sample(ctx context.Context, q Query, s Sampling) (*Table, error) {
	isnil.Context(ctx, "dataset.CSV.Sample")
	if c == nil {
		return nil, errNilSource
	}
	if s.Size < 0 {
		return nil, fmt.Errorf("dataset: %s: negative sample size %d", c.name, s.Size)
	}
	reason := ""
	if s.Seek && s.Size > 0 && c.ra != nil {
		rewind := rewinder(s.Src)
		t, why, err := c.seekSample(ctx, q, s)
		if t != nil || err != nil {
			return t, err
		}
		// The full read keeps the rows a run without Seek would keep.
		rewind()
		reason = why
	}
	t, err := c.read(ctx, q, newSampler(s), nil)
	if t != nil {
		t.Fallback = reason
	}
	return t, err
}

// rewinder returns a function that puts src back in the state it has now,
// so that a read which falls back to a full pass after seeking draws the
// same random numbers as one that never sought. It does so for sources that
// can save their state (rand.PCG and rand.ChaCha8 can); for others the
// fallback continues the stream, still reproducibly.
func rewinder(src rand.Source) func() {
	type state interface {
		MarshalBinary() ([]byte, error)
		UnmarshalBinary([]byte) error
	}
	st, ok := src.(state)
	if !ok {
		return func() {}
	}
	saved, err := st.MarshalBinary()
	if err != nil {
		return func() {}
	}
	return func() { st.UnmarshalBinary(saved) }
}

// Scan reads every row that q selects and calls fn for each valid row in
// file order. See Source.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func (c *CSV) Scan(ctx context.Context, q Query, fn RowFunc) (*Table, error) {
	isnil.Context(ctx, "dataset.CSV.Scan")
	if c == nil {
		return nil, errNilSource
	}
	if fn == nil {
		return nil, fmt.Errorf("dataset: %s: Scan: nil RowFunc", c.name)
	}
	return c.read(ctx, q, nil, fn)
}

// read makes one pass over the input, keeping rows through sm or passing
// them to each.
func (c *CSV) read(ctx context.Context, q Query, sm *sampler, each RowFunc) (*Table, error) {
	rd := &reader{ctx: ctx, name: c.name, q: q, sampler: sm, each: each, delim: c.opts.Delimiter, gcol: -1, tally: c.tally}
	if rd.delim == 0 {
		rd.delim = ','
	}
	if err := rd.checkQuery(); err != nil {
		return nil, err
	}
	in, err := c.rewind()
	if err != nil {
		return nil, err
	}
	if err := notParquet(in, c.name); err != nil {
		return nil, err
	}
	if c.opts.Progress != nil {
		in = &counter{r: in, size: c.size, fn: c.opts.Progress}
	}
	cr, err := newReader(in, rd.name, rd.delim, c.opts.MaxLine)
	if err != nil {
		return nil, err
	}
	rd.cr = cr
	if err := rd.readHeader(); err != nil {
		return nil, err
	}
	if err := rd.readRows(); err != nil {
		return nil, err
	}
	return &rd.table, nil
}

// rewind returns the input for a new pass: from its start if it is read a
// second time.
func (c *CSV) rewind() (io.Reader, error) {
	c.passes++
	if c.reopen != nil {
		if c.decoder != nil {
			c.decoder.Close()
		}
		r, err := c.reopen()
		if err != nil {
			return nil, err
		}
		c.decoder = r.(io.Closer)
		return r, nil
	}
	if isnil.Is(c.r) {
		return nil, fmt.Errorf("dataset: %s: no reader (nil)", c.name)
	}
	if c.passes == 1 {
		return c.r, nil
	}
	sk, ok := c.r.(io.Seeker)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrReread, c.name)
	}
	if _, err := sk.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("dataset: %s: rewinding for a second pass: %w", c.name, err)
	}
	return c.r, nil
}

// counter reports the bytes read from r to fn.
type counter struct {
	r    io.Reader
	read int64
	size int64
	fn   func(read, size int64)
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += int64(n)
	c.fn(c.read, c.size)
	return n, err
}

// column is a kept column: its name and position in the header.
type column struct {
	name  string
	index int // 0-based
}

// groupState is a group being read.
type groupState struct {
	g         Group
	firstLine int
	res       reservoir
}

// checkEvery is how many rows a pass reads between two looks at its
// context.
const checkEvery = 4096

// reader holds the state of one pass over a CSV input.
type reader struct {
	ctx     context.Context
	name    string
	q       Query
	sampler *sampler // nil for Scan
	each    RowFunc  // nil for Sample
	delim   rune
	cr      records // a *csv.Reader, or an NPZ's cells as text
	header  []string
	fields  map[string][2]int // header index by name: the first two fields of that name (-1: none)
	hline   int               // line of the header
	cols    []column
	gcol    int       // index of the group column, -1 without grouping
	row     []float64 // scratch: the values of the current row
	groups  []*groupState
	byKey   map[string]*groupState
	others  map[string]bool // the values of Table.Others
	table   Table

	// The default column selection (empty Query.Columns).
	deflt     bool
	undecided []int // header indices of the columns empty in every row so far
	firstData int   // the line of the first data row
	rowsSeen  int   // data rows read before the current one
	delivered bool  // each has been called

	tally func(group string, line int) // CSV.tally

	mixed *mixed // Query.Mixed: the kinds and labels of the columns; nil otherwise
	// labels is, for Query.Labels without Query.Mixed, the kinds and labels
	// of the columns by header index; nil otherwise.
	labels *mixed
}

// checkQuery validates the query and the delimiter before reading.
func (rd *reader) checkQuery() error {
	if !validDelimiter(rd.delim) {
		return fmt.Errorf("dataset: %s: invalid delimiter %q", rd.name, rd.delim)
	}
	seen := make(map[string]bool, len(rd.q.Columns))
	for _, c := range rd.q.Columns {
		if c == "" {
			return &ParseError{File: rd.name, Err: ErrUnknownColumn, msg: "empty column name in the list of columns"}
		}
		if seen[c] {
			return &ParseError{File: rd.name, Column: c, Err: ErrDuplicateColumn, msg: "listed twice in the columns to read"}
		}
		seen[c] = true
		if c == rd.q.Group {
			return &ParseError{File: rd.name, Column: c, Err: ErrGroupIsColumn,
				msg: "is the group column and cannot also be a numeric column"}
		}
	}
	return nil
}

// readHeader reads the header line and resolves the group column and any
// explicitly named columns.
func (rd *reader) readHeader() error {
	rec, err := rd.cr.Read()
	if err == io.EOF {
		return &ParseError{File: rd.name, Err: ErrEmpty, msg: "empty input: no header line"}
	}
	if err != nil {
		return readError(rd.name, 0, err)
	}
	rd.hline, _ = rd.cr.FieldPos(0)
	rd.header = make([]string, len(rec))
	for i, h := range rec {
		rd.header[i] = strings.TrimSpace(h)
	}
	if g := rd.q.Group; g != "" {
		i, err := rd.lookup(g, "group column")
		if err != nil {
			return err
		}
		rd.gcol = i
	}
	for _, c := range rd.q.Columns {
		i, err := rd.lookup(c, "column")
		if err != nil {
			return err
		}
		rd.cols = append(rd.cols, column{name: c, index: i})
	}
	if len(rd.q.Columns) == 0 && rd.q.mixed() {
		var all []int
		for i, h := range rd.header {
			if i != rd.gcol && h != "" {
				all = append(all, i)
			}
		}
		if len(all) > 0 {
			if err := rd.addColumns(all, nil, 0); err != nil {
				return err
			}
		}
	} else if len(rd.q.Columns) == 0 {
		rd.deflt = true
		for i, h := range rd.header {
			switch {
			case i == rd.gcol:
			case h == "":
				rd.table.Skipped = append(rd.table.Skipped, Skipped{Index: i + 1, Line: 1})
			case rd.isLabels(i) || rd.q.Cells[h] != nil: // kept, numeric or text
				rd.cols = append(rd.cols, column{name: h, index: i})
			default:
				rd.undecided = append(rd.undecided, i)
			}
		}
	}
	rd.setColumns()
	switch {
	case rd.q.mixed():
		return rd.startMixed()
	case len(rd.q.Labels) > 0:
		return rd.startLabels()
	}
	return nil
}

// setColumns records the kept columns once they are known.
func (rd *reader) setColumns() {
	rd.table.Columns = make([]string, len(rd.cols))
	for i, c := range rd.cols {
		rd.table.Columns[i] = c.name
	}
	rd.row = make([]float64, len(rd.cols))
}

// lookup returns the index of the header field called name, by a map of
// the header built once, so that looking up every column of a wide header
// takes time linear in its width.
func (rd *reader) lookup(name, what string) (int, error) {
	if rd.fields == nil {
		rd.fields = make(map[string][2]int, len(rd.header))
		for i, h := range rd.header {
			if at, ok := rd.fields[h]; !ok {
				rd.fields[h] = [2]int{i, -1}
			} else if at[1] < 0 {
				rd.fields[h] = [2]int{at[0], i}
			}
		}
	}
	if at, ok := rd.fields[name]; ok {
		if at[1] >= 0 {
			return 0, &ParseError{File: rd.name, Line: rd.hline, Column: name, Index: at[1] + 1, Err: ErrDuplicateColumn,
				msg: fmt.Sprintf("the header has two columns with this name (fields %d and %d)", at[0]+1, at[1]+1)}
		}
		return at[0], nil
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "unknown %s: the header has ", what)
	if len(rd.header) == 1 {
		fmt.Fprintf(&msg, "a single field %s", quote(rd.header[0]))
		if d, ok := likelyDelimiter(rd.header[0], rd.delim); ok && d != ' ' {
			fmt.Fprintf(&msg, ": is the delimiter %s? (use --delimiter %s)", strconv.QuoteRune(d), strconv.QuoteRune(d))
		}
	} else {
		fmt.Fprintf(&msg, "%d columns: %s", len(rd.header), quoteList(rd.header, 20))
		for _, h := range rd.header {
			if strings.EqualFold(h, name) {
				fmt.Fprintf(&msg, "; did you mean %s?", quote(h))
				break
			}
		}
	}
	return 0, &ParseError{File: rd.name, Line: rd.hline, Column: name, Err: ErrUnknownColumn, msg: msg.String()}
}

// readRows reads the data rows.
func (rd *reader) readRows() error {
	rd.table.Name = rd.name
	if rd.gcol >= 0 {
		rd.byKey = make(map[string]*groupState)
	} else {
		rd.groups = []*groupState{{}}
	}
	nh := len(rd.header)
	lastLine := rd.hline
	dataRows := 0
	for records := 1; ; records++ {
		if records%checkEvery == 0 {
			if err := rd.ctx.Err(); err != nil {
				return fmt.Errorf("dataset: %s: after line %d: %w", rd.name, lastLine, err)
			}
		}
		rec, err := rd.cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return readError(rd.name, lastLine, err)
		}
		line, _ := rd.cr.FieldPos(0)
		lastLine = line
		if len(rec) != nh {
			if nh > 1 && isBlankRecord(rec) {
				continue
			}
			return &ParseError{File: rd.name, Line: line, Err: ErrRagged,
				msg: fmt.Sprintf("expected %d fields as in the header (line %d), found %d", nh, rd.hline, len(rec))}
		}
		dataRows++
		if dataRows == 1 {
			rd.firstData = line
		}
		if rd.deflt && (dataRows == 1 || len(rd.undecided) > 0) {
			if err := rd.decide(rec, line); err != nil {
				return err
			}
		}
		if err := rd.addRow(rec, line); err != nil {
			return err
		}
		rd.rowsSeen = dataRows
	}
	if dataRows == 0 {
		return &ParseError{File: rd.name, Line: rd.hline, Err: ErrNoRows, msg: "the header is not followed by any data row"}
	}
	if err := rd.finishDefault(); err != nil {
		return err
	}
	return rd.finish(dataRows)
}

// cellError returns the error for field i of rec, at line, failing with kind.
func (rd *reader) cellError(rec []string, i int, line int, kind error) error {
	if l, _ := rd.cr.FieldPos(i); l > 0 {
		line = l
	}
	msg := cellMessage(kind, rec[i], rd.delim)
	if _, ok := kind.(*refusedCell); ok {
		kind = ErrBadCell
	}
	return &ParseError{File: rd.name, Line: line, Column: rd.header[i], Index: i + 1, Err: kind, msg: msg}
}

// addRow validates the data row rec at line and adds it to its group.
func (rd *reader) addRow(rec []string, line int) error {
	key, missing, err := rd.parseRow(rec, func(i int, kind error) error { return rd.cellError(rec, i, line, kind) })
	if err != nil {
		return err
	}
	return rd.add(key, missing, line)
}

// add adds the validated row whose values are in rd.row, at line (a CSV
// line, or a Parquet row number), to the group of key ("" without
// grouping); missing reports an empty cell or null that Query.DropMissing
// drops the row for (the key is then "" if the group value is the one
// missing). Every reader counts, keeps or passes on its rows here.
func (rd *reader) add(key string, missing bool, line int) error {
	other := false
	var gs *groupState
	switch {
	case rd.gcol < 0:
		gs = rd.groups[0]
	case key == "" && missing:
	case rd.byKey[key] != nil:
		gs = rd.byKey[key]
	case rd.keepGroup(key):
		gs = &groupState{g: Group{Key: strings.Clone(key)}, firstLine: line}
		rd.byKey[gs.g.Key] = gs
		rd.groups = append(rd.groups, gs)
	default:
		rd.other(key)
		other = true
	}
	rd.table.RowsRead++
	if rd.tally != nil && !other && !missing && gs != nil {
		rd.tally(gs.g.Key, line)
	}
	if rd.mixed != nil && !other && !missing && gs != nil {
		rd.mixed.count(&gs.g, rd.row)
	}
	switch {
	case other:
		return nil
	case missing:
		rd.table.Dropped++
		return nil
	case len(rd.cols) == 0:
		// The default selection has found no numeric column yet: the row
		// is counted, and dropped or an error when one is found.
		gs.g.Rows++
		return nil
	case rd.each != nil:
		gs.g.Rows++
		rd.delivered = true
		return rd.each(gs.g.Key, line, rd.row)
	case rd.sampler.each != nil:
		rd.delivered = true
		if err := rd.sampler.each(gs.g.Key, line, rd.row); err != nil {
			return err
		}
	}
	rd.sampler.keep(&gs.g, &gs.res, rd.row, line)
	return nil
}

// parseRow validates the data row rec: its group value (trimmed; "" when
// it is missing or without grouping) and its kept cells, whose values it
// puts in rd.row. missing reports an empty cell that Query.DropMissing
// drops the row for. fail makes the error for field i failing with kind.
func (rd *reader) parseRow(rec []string, fail func(i int, kind error) error) (key string, missing bool, err error) {
	if rd.gcol >= 0 {
		key = strings.TrimSpace(rec[rd.gcol])
		if key == "" {
			if !rd.q.DropMissing {
				return "", false, fail(rd.gcol, ErrEmptyCell)
			}
			missing = true
		}
	}
	for j, c := range rd.cols {
		if rd.mixed != nil {
			v, err := rd.mixed.cell(j, rec[c.index])
			if err != nil {
				return "", false, fail(c.index, err)
			}
			rd.row[j] = v
			continue
		}
		v, err := rd.parseCell(c.index, rec[c.index])
		if err != nil {
			if err == ErrEmptyCell && rd.q.DropMissing {
				missing = true
				continue
			}
			return "", false, fail(c.index, err)
		}
		rd.row[j] = v
	}
	return key, missing, nil
}

// keepGroup reports whether the rows of a group value not met before are
// kept (Query.Groups and Query.MaxGroups).
func (rd *reader) keepGroup(key string) bool {
	if len(rd.q.Groups) > 0 && !slices.Contains(rd.q.Groups, key) {
		return false
	}
	return rd.q.MaxGroups <= 0 || len(rd.groups) < rd.q.MaxGroups
}

// other records a group value whose rows are not kept, in Table.Others.
func (rd *reader) other(key string) {
	t := &rd.table
	if rd.others[key] || t.MoreOthers {
		return
	}
	if len(t.Others) == MaxOthers {
		t.MoreOthers = true
		return
	}
	if rd.others == nil {
		rd.others = make(map[string]bool)
	}
	key = strings.Clone(key)
	rd.others[key] = true
	t.Others = append(t.Others, key)
}

// finish checks the groups and puts the kept rows of each group in file
// order.
func (rd *reader) finish(dataRows int) error {
	t := &rd.table
	t.HeaderLine = rd.hline
	t.Groups = make([]Group, 0, len(rd.groups))
	for _, gs := range rd.groups {
		if gs.g.Rows == 0 {
			if rd.gcol < 0 {
				return &ParseError{File: rd.name, Err: ErrNoRows,
					msg: fmt.Sprintf("no data row left: all %d were dropped for empty cells", dataRows)}
			}
			return &ParseError{File: rd.name, Line: gs.firstLine, Column: rd.header[rd.gcol], Index: rd.gcol + 1, Err: ErrNoRows,
				msg: fmt.Sprintf("group %s (first seen here) has no row left: all were dropped for empty cells", quote(gs.g.Key))}
		}
		if gs.g.Rows > len(gs.g.Lines) && len(gs.g.Lines) > 0 {
			sortByLine(&gs.g, len(t.Columns))
		}
		t.Groups = append(t.Groups, gs.g)
	}
	rd.complete(t)
	if len(t.Groups) == 0 { // grouping, every row dropped for an empty group value
		return &ParseError{File: rd.name, Err: ErrNoRows,
			msg: fmt.Sprintf("no data row left: all %d were dropped for empty cells", dataRows)}
	}
	return nil
}

// notParquet returns an error when the stream in, which can be peeked at
// (standard input is), starts with Parquet's magic bytes: Parquet cannot be
// read from a stream, and read as CSV it gave a message about quotes.
func notParquet(in io.Reader, name string) error {
	p, ok := in.(interface{ Peek(int) ([]byte, error) })
	if !ok {
		return nil
	}
	if head, _ := p.Peek(len(pqMagic)); isParquetMagic(head) {
		return fmt.Errorf("dataset: %s: is a Parquet file, which cannot be read from a stream (its footer is at its end): give its path instead", name)
	}
	return nil
}
