// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// pqCol is a column read from a shard.
type pqCol struct {
	name  string
	index int // 1-based field number
	leaf  int // its column chunk in a row group; -1 for a partition key
	typ   pqType
	opt   bool // optional: its values may be null
	text  bool // read as labels, in a mixed table
	// cell parses the column's values, strings or dates and timestamps
	// as ISO 8601 text (pqType.keyAt), in a column of Query.Cells; nil
	// otherwise.
	cell func(string) (float64, error)
}

// pqShardCols is how a query reads one shard.
type pqShardCols struct {
	cols  []pqCol
	group pqCol  // leaf -1 and part set for a partition key; name "" without grouping
	part  string // the value of a partition key
}

// pqPlan is a query resolved against every shard.
type pqPlan struct {
	q      Query
	cols   []string // the kept columns
	gname  string   // the group column's name ("" without grouping)
	byPart bool     // the group column is a partition key in every shard
	shard  map[*pqShard]*pqShardCols
	skip   []Skipped
	text   []bool // of the kept columns, read as labels (Query.Mixed, Query.Labels); nil otherwise
	first  *pqShard
}

// plan resolves q against the schema of every shard: the default columns
// are decided by the first.
func (p *Parquet) plan(q Query) (*pqPlan, error) {
	rd := &reader{name: p.name, q: q, delim: ','}
	if err := rd.checkQuery(); err != nil {
		return nil, err
	}
	pl := &pqPlan{q: q, cols: q.Columns, gname: q.Group, shard: make(map[*pqShard]*pqShardCols), byPart: q.Group != "", first: p.shards[0]}
	if len(q.Columns) == 0 {
		first := p.shards[0]
		count := make(map[string]int)
		for _, f := range first.fields {
			count[f.name]++
		}
		for i := range first.fields {
			f := &first.fields[i]
			if f.name == "" || f.name == q.Group {
				continue
			}
			t := fieldType(f)
			if !t.numeric() && !(q.mixed() && t.groupable()) && !(pl.isLabels(f.name) && t.groupable()) && !pl.isCells(f.name, &t) {
				pl.skip = append(pl.skip, Skipped{Column: f.name, Index: f.index, Value: t.name})
				continue
			}
			if count[f.name] > 1 {
				return nil, &ParseError{File: first.path, Column: f.name, Index: f.index, Err: ErrDuplicateColumn,
					msg: "the schema has several columns with this name; name the columns to read"}
			}
			pl.cols = append(pl.cols, f.name)
		}
		if len(pl.cols) == 0 {
			return nil, &ParseError{File: first.path, Err: ErrNoNumericColumns, msg: "no column is numeric" + skippedList(pl.skip)}
		}
	}
	for _, name := range q.Text {
		if !slices.Contains(pl.cols, name) {
			return nil, &ParseError{File: p.name, Column: name, Err: ErrUnknownColumn, msg: "named as a text column but not among the columns read"}
		}
	}
	for _, name := range q.Labels {
		// The default selection leaves out, with a Skipped note, a label
		// column of a type read neither as numbers nor as labels (a list,
		// a struct, a timestamp), as it leaves out any such column.
		skipped := len(q.Columns) == 0 && slices.ContainsFunc(pl.skip, func(s Skipped) bool { return s.Column == name })
		if !q.mixed() && !skipped && !slices.Contains(pl.cols, name) {
			return nil, &ParseError{File: p.name, Column: name, Err: ErrUnknownColumn, msg: "named as a label column but not among the columns read"}
		}
	}
	for _, sh := range p.shards {
		sc, err := pl.resolve(sh)
		if err != nil {
			return nil, err
		}
		pl.shard[sh] = sc
		if sc.group.leaf >= 0 {
			pl.byPart = false
		}
	}
	return pl, nil
}

// isLabels reports whether the column name is one of Query.Labels of a
// table that is not mixed: a string or boolean column then is read as
// labels.
func (pl *pqPlan) isLabels(name string) bool {
	return !pl.q.mixed() && slices.Contains(pl.q.Labels, name)
}

// isCells reports whether the column name, of type t, is one of
// Query.Cells whose values its function parses as text: a string, a date
// or a timestamp column of a table that is not mixed.
func (pl *pqPlan) isCells(name string, t *pqType) bool {
	return !pl.q.mixed() && pl.q.Cells[name] != nil && (t.kind == pqBytes || t.kind == pqTime)
}

// skippedList describes the columns left out, for a message.
func skippedList(sk []Skipped) string {
	if len(sk) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(": ")
	for i, s := range sk {
		if i == 10 {
			fmt.Fprintf(&b, ", ... and %d more", len(sk)-10)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s is %s", quote(s.Column), s.Value)
	}
	return b.String()
}

// lookupField returns the top-level field of sh called name.
func lookupField(sh *pqShard, name, what string) (*pqField, error) {
	var found *pqField
	for i := range sh.fields {
		f := &sh.fields[i]
		if f.name != name {
			continue
		}
		if found != nil {
			return nil, &ParseError{File: sh.path, Column: name, Index: f.index, Err: ErrDuplicateColumn,
				msg: fmt.Sprintf("the schema has two columns with this name (fields %d and %d)", found.index, f.index)}
		}
		found = f
	}
	if found != nil {
		return found, nil
	}
	if _, ok := sh.parts[name]; ok && what == "group column" {
		return nil, nil
	}
	names := make([]string, len(sh.fields))
	for i, f := range sh.fields {
		names[i] = f.name
	}
	msg := fmt.Sprintf("unknown %s: the file has %d columns: %s", what, len(names), quoteList(names, 20))
	for _, n := range names {
		if strings.EqualFold(n, name) {
			msg += fmt.Sprintf("; did you mean %s?", quote(n))
			break
		}
	}
	return nil, &ParseError{File: sh.path, Column: name, Err: ErrUnknownColumn, msg: msg}
}

// resolve finds the columns of pl in the shard sh.
func (pl *pqPlan) resolve(sh *pqShard) (*pqShardCols, error) {
	sc := &pqShardCols{group: pqCol{leaf: -1}}
	if g := pl.gname; g != "" {
		f, err := lookupField(sh, g, "group column")
		if err != nil {
			return nil, err
		}
		if f == nil {
			sc.group = pqCol{name: g, leaf: -1}
			sc.part = sh.parts[g]
		} else {
			t := fieldType(f)
			if !t.groupable() {
				return nil, &ParseError{File: sh.path, Column: g, Index: f.index, Err: ErrNotNumber,
					msg: fmt.Sprintf("is %s, which cannot be a group column (strings, integers and booleans can)", t.name)}
			}
			sc.group = pqCol{name: g, index: f.index, leaf: f.leaf, typ: t, opt: f.optional()}
		}
	}
	mixed := pl.q.mixed()
	texts := mixed || len(pl.q.Labels) > 0 // some columns may be read as labels
	if texts && pl.text == nil {
		pl.text = make([]bool, len(pl.cols))
	}
	for j, c := range pl.cols {
		f, err := lookupField(sh, c, "column")
		if err != nil {
			return nil, err
		}
		t := fieldType(f)
		col := pqCol{name: c, index: f.index, leaf: f.leaf, typ: t, opt: f.optional()}
		// In a mixed table, a string or boolean column, or one named in
		// Query.Text, is read as labels.
		// Outside one, so is a string or boolean column of Query.Labels.
		col.text = mixed && (t.groupable() && !t.numeric() || (t.groupable() || t.numeric()) && slices.Contains(pl.q.Text, c)) ||
			pl.isLabels(c) && t.groupable() && !t.numeric()
		if pl.isCells(c, &t) {
			col.cell = pl.q.Cells[c]
		}
		if !t.numeric() && !col.text && col.cell == nil {
			what := "not a number"
			if mixed {
				what = "neither a number nor text"
			}
			return nil, &ParseError{File: sh.path, Column: c, Index: f.index, Err: ErrNotNumber,
				msg: fmt.Sprintf("is %s, %s", t.name, what)}
		}
		if texts {
			if sh == pl.first {
				pl.text[j] = col.text
			} else if col.text != pl.text[j] {
				return nil, &ParseError{File: sh.path, Column: c, Index: f.index, Err: ErrNotNumber,
					msg: fmt.Sprintf("is %s here, read as text in one shard and as numbers in the other", t.name)}
			}
		}
		sc.cols = append(sc.cols, col)
	}
	return sc, nil
}

// newReader returns the state of a pass of pl, which keeps rows through sm
// or passes them to each: the CSV reader's, whose group bookkeeping it
// shares.
func (pl *pqPlan) newReader(name string, sm *sampler, each RowFunc) *reader {
	rd := &reader{name: name, q: pl.q, sampler: sm, each: each, gcol: -1}
	rd.header = []string{pl.gname}
	if pl.gname != "" {
		rd.gcol = 0
		rd.byKey = make(map[string]*groupState)
	} else {
		rd.groups = []*groupState{{}}
	}
	rd.cols = make([]column, len(pl.cols))
	for i, c := range pl.cols {
		rd.cols[i] = column{name: c, index: i + 1}
	}
	rd.setColumns()
	if pl.text != nil {
		// A mixed table's state is indexed by kept column; that of the
		// labels of one that is not, as the CSV reader's, by field
		// (rd.cols[j].index, here j+1).
		off := 1
		if pl.q.mixed() {
			off = 0
		}
		m := newMixed(len(rd.cols)+off, pl.q.MaxLabels)
		for j := range m.kinds {
			m.kinds[j] = kindNumber
		}
		for j, text := range pl.text {
			if text {
				m.kinds[j+off] = kindText
			}
		}
		if pl.q.mixed() {
			rd.mixed = m
		} else {
			rd.labels = m
		}
	}
	rd.table.Name = name
	rd.table.Skipped = pl.skip
	return rd
}

// pqRow is a row read from a shard: its number in the row group, its group
// key, whether a value is missing, and its values in rd.row.
type pqRow struct {
	r       int64
	key     string
	missing bool
}

// scan reads every row of the dataset, keeping rows through sm or passing
// them to each.
func (p *Parquet) scan(ctx context.Context, pl *pqPlan, sm *sampler, each RowFunc) (*Table, error) {
	rd := pl.newReader(p.name, sm, each)
	rows := 0
	// The row groups, in order, read ahead through readUnits; start is
	// the number in the dataset of each one's first row.
	var reads []unitRead
	var starts []int64
	for _, sh := range p.shards {
		start := sh.first
		for g, n := range sh.rgRows {
			reads = append(reads, unitRead{shard: sh, g: g, cols: pl.readCols(sh, true), to: n})
			starts = append(starts, start)
			start += n
		}
	}
	err := p.readUnits(ctx, reads, func(i int, o *pqOpen, curs []*pqCursor) error {
		u, start := &reads[i], starts[i]
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("dataset: %s: row group %d: %w", u.shard.path, u.g, err)
		}
		return o.readFrom(ctx, pl, u.g, 0, u.to, nil, rd, u.cols, curs, func(row pqRow) error {
			rows++
			return rd.add(row.key, row.missing, int(start+row.r+1))
		})
	})
	if err != nil {
		return nil, err
	}
	if rows == 0 {
		return nil, &ParseError{File: p.name, Err: ErrNoRows, msg: "no data rows: the file holds no row"}
	}
	if err := rd.finish(rows); err != nil {
		return nil, err
	}
	return &rd.table, nil
}

// pqBatch is how many rows are read between two checks of the context.
const pqBatch = 4096

// readCols returns the columns that reading the shard sh decodes: the kept
// ones (with values), then the group column unless it is a partition key.
func (pl *pqPlan) readCols(sh *pqShard, values bool) []pqCol {
	sc := pl.shard[sh]
	n := len(sc.cols)
	if !values {
		n = 0
	}
	cols := sc.cols[:n:n]
	if sc.group.leaf >= 0 {
		cols = append(cols, sc.group)
	}
	return cols
}

// readFrom reads the rows [from, to) of row group g of the open shard, or
// only those at the increasing row numbers want (in [from, to)) when want
// is not nil, through curs, the cursors of the columns cols (pl.readCols)
// at row from, calling fn for each with its values in rd.row (rd nil: the
// group column only). A null, without Query.DropMissing, and a non-finite
// number are errors; with it, a null makes the row missing; in a mixed
// table (rd.mixed), a null or an empty string is a missing value (NaN) and
// a text column's value is the code of its label. A text column of a table
// that is not mixed (Query.Labels) holds codes too, its nulls and empty
// strings missing as a numeric column's nulls are.
func (o *pqOpen) readFrom(ctx context.Context, pl *pqPlan, g int, from, to int64, want []int64, rd *reader,
	cols []pqCol, curs []*pqCursor, fn func(pqRow) error) (err error) {
	sh := o.shard
	sc := pl.shard[sh]
	n := len(sc.cols)
	if rd == nil {
		n = 0
	}
	var mx *mixed
	if rd != nil {
		mx = rd.mixed
	}
	// The typed arrays of a page that does not check out could still
	// index out of range: a panic is the file's error, not a crash.
	bad := -1 // the column being read
	defer func() {
		if p := recover(); p != nil {
			c := &cols[max(bad, 0)]
			err = o.chunkError(g, c, fmt.Errorf("malformed file: %v", p))
		}
	}()
	w := 0 // next row of want
	for done := 0; ; done++ {
		var r int64
		if want != nil {
			if w == len(want) {
				break
			}
			r = want[w]
			w++
		} else {
			r = from + int64(done)
			if r >= to {
				break
			}
		}
		if done%pqBatch == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("dataset: %s: row group %d: %w", sh.path, g, err)
			}
		}
		for i, cur := range curs {
			bad = i
			if err := cur.seek(r); err != nil {
				return o.chunkError(g, &cols[i], err)
			}
		}
		bad = -1
		pr := pqRow{r: r, key: sc.part}
		if sc.group.leaf >= 0 {
			if cur := curs[n]; cur.null() {
				if !pl.q.DropMissing {
					return o.cellError(g, r, &sc.group, ErrEmptyCell)
				}
				pr.key, pr.missing = "", true
			} else {
				pr.key = cur.key()
			}
		}
		for i, cur := range curs[:n] {
			c := &cols[i]
			switch {
			case mx != nil && cur.null():
				rd.row[i] = math.NaN()
			case mx != nil && c.text:
				if l := strings.TrimSpace(cur.key()); l == "" {
					rd.row[i] = math.NaN()
				} else if rd.row[i], err = mx.code(i, l); err != nil {
					return o.cellError(g, r, c, err)
				}
			case c.text: // of Query.Labels
				l := ""
				if !cur.null() {
					l = strings.TrimSpace(cur.key())
				}
				if l == "" {
					if !pl.q.DropMissing {
						return o.cellError(g, r, c, ErrEmptyCell)
					}
					pr.missing = true
				} else if rd.row[i], err = rd.labels.code(i+1, l); err != nil {
					return o.cellError(g, r, c, err)
				}
			case cur.null():
				if !pl.q.DropMissing {
					return o.cellError(g, r, c, ErrEmptyCell)
				}
				pr.missing = true
			case c.cell != nil:
				if err := o.readCell(pl, g, r, c, cur.key(), &rd.row[i], &pr); err != nil {
					return err
				}
			default:
				x := cur.float()
				switch {
				case math.IsNaN(x) && pl.q.NA: // NaN is a missing value, as in CSV
					if !pl.q.DropMissing {
						return o.cellErrorText(g, r, c, ErrEmptyCell, "NaN")
					}
					pr.missing = true
				case math.IsInf(x, 0) || math.IsNaN(x):
					return o.cellError(g, r, c, ErrNonFinite)
				}
				rd.row[i] = x
			}
		}
		if err := fn(pr); err != nil {
			return err
		}
	}
	return nil
}

// cursors returns the cursors of the columns cols of row group g, at row
// from, their chunks checked for reading the rows [from, to) (with
// useIndex, through their offset indexes; see checkChunk). The caller
// closes them, even after an error.
func (o *pqOpen) cursors(g int, cols []pqCol, from, to int64, useIndex bool) ([]*pqCursor, error) {
	rg := o.pf.RowGroups()[g]
	curs := make([]*pqCursor, len(cols))
	for i := range cols {
		c := &cols[i]
		if err := o.checkChunk(g, c, from, to, useIndex); err != nil {
			return curs, err
		}
		err := safely(func() error {
			pages := rg.ColumnChunks()[c.leaf].Pages()
			curs[i] = newCursor(pages, &c.typ, c.opt, from)
			if from > 0 {
				return pages.SeekToRow(from)
			}
			return nil
		})
		if err != nil {
			return curs, o.chunkError(g, c, err)
		}
	}
	return curs, nil
}

// closeCursors closes the cursors of curs that were made.
func closeCursors(curs []*pqCursor) {
	for _, c := range curs {
		if c != nil {
			c.close()
		}
	}
}

// countKeys counts the rows of each value of the group column in the rows
// [from, to) of row group g of the open shard, calling add for each value
// met, with its rows and its first row. A null is an error, or not
// counted with Query.DropMissing. The rows of a dictionary-encoded page are
// counted by their indexes, a page's run of them at once (countDict), the
// keys made once per dictionary entry; other pages are counted row by row.
func (o *pqOpen) countKeys(ctx context.Context, pl *pqPlan, g int, from, to int64, add func(key string, rows, first int64)) error {
	curs, err := o.cursors(g, pl.readCols(o.shard, false), from, to, true)
	defer closeCursors(curs)
	if err != nil {
		return err
	}
	return o.countFrom(ctx, pl, g, from, to, curs[0], add)
}

// countFrom is countKeys counting through cur, the cursor of the group
// column at row from.
func (o *pqOpen) countFrom(ctx context.Context, pl *pqPlan, g int, from, to int64, cur *pqCursor, add func(key string, rows, first int64)) (err error) {
	col := pl.shard[o.shard].group
	defer func() {
		if p := recover(); p != nil {
			err = o.chunkError(g, &col, fmt.Errorf("malformed file: %v", p))
		}
	}()
	var counts, firsts []int64 // by dictionary index
	flush := func() {
		for i, n := range counts {
			if n > 0 {
				add(cur.dictKey(i), n, firsts[i])
			}
		}
		counts, firsts = nil, nil
	}
	check := from // the row at which the context is checked next
	for r := from; r < to; {
		if r >= check {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("dataset: %s: row group %d: %w", o.shard.path, g, err)
			}
			check = r + pqBatch
		}
		if r >= cur.end {
			flush() // by the indexes of the page's dictionary
		}
		if err := cur.seek(r); err != nil {
			return o.chunkError(g, &col, err)
		}
		if cur.idx != nil {
			if counts == nil {
				counts, firsts = make([]int64, cur.dlen), make([]int64, cur.dlen)
			}
			end := min(to, cur.end)
			if null := cur.countDict(end, counts, firsts); null >= 0 && !pl.q.DropMissing {
				return o.cellError(g, null, &col, ErrEmptyCell)
			}
			r = end
			continue
		}
		switch {
		case cur.null():
			if !pl.q.DropMissing {
				return o.cellError(g, r, &col, ErrEmptyCell)
			}
		default:
			add(cur.key(), 1, r)
		}
		r++
	}
	flush()
	return nil
}

// readCell parses the text s of row r of row group g in column c of
// Query.Cells into *v, as CSV's parseCell does: an empty or (with
// Query.NA) missing word is a missing value, marked in pr with
// Query.DropMissing and an error without it.
func (o *pqOpen) readCell(pl *pqPlan, g int, r int64, c *pqCol, s string, v *float64, pr *pqRow) error {
	if strings.TrimSpace(s) == "" || pl.q.NA && isMissingWord(s) {
		if !pl.q.DropMissing {
			return o.cellErrorText(g, r, c, ErrEmptyCell, s)
		}
		pr.missing = true
		return nil
	}
	x, err := c.cell(s)
	if err != nil {
		return o.cellErrorText(g, r, c, &refusedCell{err}, s)
	}
	*v = x
	return nil
}

// cellError returns the error of the value of row r of row group g in
// column c, failing with kind: a null, a non-finite number or a label too
// many.
func (o *pqOpen) cellError(g int, r int64, c *pqCol, kind error) error {
	return o.cellErrorText(g, r, c, kind, "")
}

// cellErrorText is cellError for a value that reads as text (a cell of
// Query.Cells, or NaN as a missing value): the message quotes it, as CSV's
// does (cellMessage). An empty text is a null's.
func (o *pqOpen) cellErrorText(g int, r int64, c *pqCol, kind error, text string) error {
	sh := o.shard
	line := sh.first + r + 1
	for _, n := range sh.rgRows[:g] {
		line += n
	}
	what := "a null (missing value)"
	switch _, refused := kind.(*refusedCell); {
	case text != "":
		what = cellMessage(kind, text, ',')
		if refused {
			kind = ErrBadCell
		}
	case kind == ErrNonFinite:
		what = "not a finite number"
	case kind == ErrTooManyLabels:
		what = "one distinct label more than the read takes"
	}
	return &ParseError{File: sh.path, Column: c.name, Index: c.index, Err: kind,
		msg: fmt.Sprintf("row %d (row group %d, its row %d): %s", line, g, r+1, what)}
}

// chunkError returns the error for a failure to read column c in row group
// g.
func (o *pqOpen) chunkError(g int, c *pqCol, err error) error {
	var pe *ParseError
	if errors.As(err, &pe) {
		return err
	}
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return &ParseError{File: o.shard.path, Column: c.name, Index: c.index, Err: ErrCorrupt,
		msg: fmt.Sprintf("row group %d: cannot read the column: %v", g, err)}
}

// chunk returns the bytes of the chunk of column c in row group g, checked
// against the file and the schema.
func (o *pqOpen) chunk(g int, c *pqCol) (*chunkCheck, error) {
	cc := &o.pf.Metadata().RowGroups[g].Columns[c.leaf]
	m := &cc.MetaData
	rows := o.shard.rgRows[g]
	phys, _ := o.shard.fields[c.index-1].elem.Type.Get()
	start := m.DataPageOffset
	if d := m.DictionaryPageOffset; d > 0 && d < start {
		start = d
	}
	switch {
	case m.Type != phys:
		return nil, o.chunkBad(g, c, "the column chunk holds %v values, the schema says %v", m.Type, phys)
	case start < 4 || m.TotalCompressedSize < 0 || m.TotalCompressedSize > o.limit-start:
		return nil, o.chunkBad(g, c, "the column chunk claims bytes %d to %d of a file whose pages end at byte %d",
			start, start+m.TotalCompressedSize, o.limit)
	case m.NumValues < 0 || m.NumValues > rows:
		return nil, o.chunkBad(g, c, "the column chunk claims %d values in %d rows", m.NumValues, rows)
	}
	ck := &chunkCheck{start: start, end: start + m.TotalCompressedSize, rows: rows, width: c.typ.width, ra: o.ra, snappy: m.Codec == format.Snappy,
		runs: true, to: rows, codec: m.Codec, typ: phys}
	switch rep, _ := o.shard.fields[c.index-1].elem.RepetitionType.Get(); rep {
	case format.Optional:
		ck.maxDef = 1
	case format.Repeated:
		ck.maxDef, ck.maxRep = 1, 1
	}
	if phys == format.ByteArray {
		ck.width = 0
	}
	return ck, nil
}

// chunkBad returns the error for the chunk of column c in row group g,
// whose problem format and args describe.
func (o *pqOpen) chunkBad(g int, c *pqCol, format string, args ...any) error {
	return &ParseError{File: o.shard.path, Column: c.name, Index: c.index, Err: ErrCorrupt,
		msg: fmt.Sprintf("row group %d: ", g) + fmt.Sprintf(format, args...)}
}

// pages returns the locations of the pages of the chunk of column c in row
// group g, from its offset index, which the library then uses to seek; nil
// when the chunk has no offset index.
func (o *pqOpen) pages(g int, c *pqCol) ([]format.PageLocation, error) {
	if o.pf.Metadata().RowGroups[g].Columns[c.leaf].OffsetIndexOffset == 0 {
		return nil, nil
	}
	key := [2]int{g, c.leaf}
	o.locsMu.Lock()
	defer o.locsMu.Unlock()
	if loc, ok := o.locs[key]; ok {
		return loc, nil
	}
	ck, err := o.chunk(g, c)
	if err != nil {
		return nil, err
	}
	loc, err := o.offsetIndex(g, c, ck)
	if err != nil {
		return nil, o.chunkBad(g, c, "offset index: %v", err)
	}
	if o.locs == nil {
		o.locs = make(map[[2]int][]format.PageLocation)
	}
	o.locs[key] = loc
	return loc, nil
}

// checkChunk checks the chunk of column c in row group g, before the
// library reads the rows [from, to) of it: its position and sizes, and the
// headers of the pages to read. With useIndex, the chunk's offset index,
// if it has one, is read (and checked) so that only the pages holding the
// rows are read.
func (o *pqOpen) checkChunk(g int, c *pqCol, from, to int64, useIndex bool) error {
	ck, err := o.chunk(g, c)
	if err != nil {
		return err
	}
	var loc []format.PageLocation
	if useIndex && (from > 0 || to < ck.rows) {
		if loc, err = o.pages(g, c); err != nil {
			return err
		}
	}
	if loc == nil {
		// Without an offset index the library decodes every page up to
		// the rows it seeks: their runs are checked, none after them.
		ck.to = to
		if err := checkPages(o.ra, ck, ck.start); err != nil {
			return o.chunkBad(g, c, "%v", err)
		}
		return nil
	}
	if d := o.pf.Metadata().RowGroups[g].Columns[c.leaf].MetaData.DictionaryPageOffset; d > 0 {
		h, hl, err := readPageHeader(o.ra, d, ck.end)
		if err == nil {
			err = checkPage(h, d, hl, ck)
		}
		if err != nil {
			return o.chunkBad(g, c, "%v", err)
		}
	}
	for i, l := range loc {
		next := ck.rows
		if i+1 < len(loc) {
			next = loc[i+1].FirstRowIndex
		}
		if next <= from || l.FirstRowIndex >= to {
			continue
		}
		page := *ck
		page.start, page.end = l.Offset, l.Offset+int64(l.CompressedPageSize)
		page.from, page.to = 0, ck.rows // the page holds some of the rows: check its runs
		h, hl, err := readPageHeader(o.ra, l.Offset, page.end)
		if err == nil {
			err = checkPageRuns(h, l.Offset, hl, 0, &page)
		}
		if err != nil {
			return o.chunkBad(g, c, "%v", err)
		}
	}
	return nil
}

// offsetIndex reads and checks the offset index of the chunk of column c
// in row group g, whose bytes ck gives, and has the library load it, so
// that seeking to a row reads only its page. It returns the pages'
// locations.
func (o *pqOpen) offsetIndex(g int, c *pqCol, ck *chunkCheck) ([]format.PageLocation, error) {
	cc := &o.pf.Metadata().RowGroups[g].Columns[c.leaf]
	off, n := cc.OffsetIndexOffset, int64(cc.OffsetIndexLength)
	if off < 4 || n <= 0 || n > limits.index || n > o.limit-off {
		return nil, fmt.Errorf("%d bytes at byte %d, beyond the file or the limit of %d bytes", n, off, limits.index)
	}
	buf := make([]byte, n)
	if _, err := o.ra.ReadAt(buf, off); err != nil {
		return nil, err
	}
	if _, err := checkThrift(buf); err != nil {
		return nil, err
	}
	var idx parquet.OffsetIndex
	err := safely(func() error {
		var err error
		idx, err = o.pf.RowGroups()[g].ColumnChunks()[c.leaf].OffsetIndex()
		return err
	})
	if err != nil {
		return nil, err
	}
	loc := make([]format.PageLocation, idx.NumPages())
	for i := range loc {
		l := format.PageLocation{Offset: idx.Offset(i), CompressedPageSize: int32(idx.CompressedPageSize(i)), FirstRowIndex: idx.FirstRowIndex(i)}
		prev := int64(-1)
		if i > 0 {
			prev = loc[i-1].FirstRowIndex
		}
		switch {
		case i == 0 && l.FirstRowIndex != 0, l.FirstRowIndex <= prev, l.FirstRowIndex >= ck.rows:
			return nil, fmt.Errorf("page %d starts at row %d", i, l.FirstRowIndex)
		case l.Offset < ck.start || l.CompressedPageSize < 0 || int64(l.CompressedPageSize) > ck.end-l.Offset:
			return nil, fmt.Errorf("page %d lies outside its column chunk", i)
		}
		loc[i] = l
	}
	if len(loc) == 0 && ck.rows > 0 {
		return nil, fmt.Errorf("no page")
	}
	return loc, nil
}
