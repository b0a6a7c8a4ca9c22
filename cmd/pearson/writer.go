// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// A result is what a command prints: a *record or a *table.
type result interface {
	// summary returns the record of the run's details, which the
	// pipeline completes with its timing.
	summary() *record
	// writeTo writes the result to w in the format of f.
	writeTo(w io.Writer, f writer) error
}

// A writer renders results in one output format (see writers): a whole
// result (record, table), or one whose records arrive one at a time
// (stream: changepoint's scores and change points).
type writer interface {
	record(w io.Writer, r *record) error
	table(w io.Writer, t *table) error
	// stream returns the writer of a streamed result laid out as l.
	stream(w io.Writer, l *layout) stream
}

// A stream writes a result whose records arrive one at a time, each with
// its kind (one of its layout's kinds), and a record of the run's details
// at the end. Records are written as they arrive where the format allows
// it (CSV, JSON Lines, the first kind of the JSON object) and kept until
// end otherwise.
type stream interface {
	put(kind string, r *record) error
	end(summary *record) error
}

// A layout describes a streamed result to every format.
type layout struct {
	// kinds are the kinds of record, in the order the text and the JSON
	// object show them; the JSON object holds each under its plural
	// (kind + "s"), and JSON Lines and CSV name it in a "kind" key or
	// column.
	kinds []string
	// quiet are the kinds the text format leaves out (the scores).
	quiet []string
	// none is the line the text format prints instead of the tables when
	// no record of the first kind it shows arrived.
	none string
	// columns are the CSV columns after "kind", the same for every kind; a
	// record's key is written under alias[key] when aliased ("": left
	// out), else under its own name if a column has it.
	columns []string
	alias   map[string]string
}

// writers are the output formats, by the name --format gives them;
// formatNames are those of every command, in the order the help lists
// them (changepoint adds JSON Lines, changepointFormats).
var (
	formatNames = []string{"text", "json", "csv"}
	writers     = map[string]writer{"text": textWriter{}, "json": jsonWriter{}, "jsonl": jsonLinesWriter{}, "csv": csvWriter{}}
)

// record is one result: named values in a fixed order. Keys are the JSON
// contract: they never change meaning.
type record struct {
	keys []string
	vals []any
}

// add appends a named value: a float64, []float64, int, uint64, bool,
// string, []string, timing, or, for JSON alone, a []*record.
func (r *record) add(key string, val any) *record {
	r.keys = append(r.keys, key)
	r.vals = append(r.vals, val)
	return r
}

func (r *record) summary() *record                    { return r }
func (r *record) writeTo(w io.Writer, f writer) error { return f.record(w, r) }

// table is a result of one row per item, as rank prints: records sharing
// their keys, and a record of the run's details that JSON alone carries,
// with the rows under the key name (or already inside it when name is
// empty: drift's object).
type table struct {
	run  *record
	name string
	rows []*record

	// A table that is one of several (drift's comparisons) has a caption:
	// CSV leads every row with it as a column, the text format prints it as
	// a heading "== value" when heading is set.
	caption struct {
		key     string
		value   string
		heading bool
	}
	// total is a last row that CSV alone writes (drift's verdict), notes
	// the lines the text format prints after the table (its words).
	total *record
	notes []string
}

func (t *table) summary() *record                    { return t.run }
func (t *table) writeTo(w io.Writer, f writer) error { return f.table(w, t) }

// timing is the wall-clock time of a run: JSON alone carries it, so that
// text and CSV output are the same bytes for the same seed.
type timing struct{ load, estimate time.Duration }

// MarshalJSON writes the object {"load_s": …, "estimate_s": …}.
func (t timing) MarshalJSON() ([]byte, error) {
	return new(record).add("load_s", t.load.Seconds()).add("estimate_s", t.estimate.Seconds()).MarshalJSON()
}

// stable returns the keys and values of r but its timing.
func (r *record) stable() (keys []string, vals []any) {
	for i, v := range r.vals {
		if _, ok := v.(timing); !ok {
			keys, vals = append(keys, r.keys[i]), append(vals, v)
		}
	}
	return keys, vals
}

// formatFloat writes numbers the same way in every format: the shortest
// representation that reads back to the same float64.
func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// text renders a value for the CSV format, and for the text format when
// human is true: numbers then have six significant digits.
func text(v any, human bool) string {
	switch v := v.(type) {
	case noValue:
		if human {
			return "n/a"
		}
		return ""
	case notComputed:
		if human {
			return "-"
		}
		return ""
	case string:
		if human {
			return printable(v)
		}
		return v
	case float64:
		if human {
			return strconv.FormatFloat(v, 'g', 6, 64)
		}
		return formatFloat(v)
	case []string:
		if human {
			p := make([]string, len(v))
			for i, s := range v {
				p[i] = printable(s)
			}
			v = p
		}
		return strings.Join(v, "; ")
	case []float64:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = text(x, human)
		}
		return strings.Join(parts, "; ")
	default:
		return fmt.Sprint(v)
	}
}

// textWriter writes a record as aligned "key value" lines, numbers to six
// significant digits, and a table as aligned columns under a header line.
// Empty lists (no warnings) are left out of a record.
type textWriter struct{}

func (textWriter) record(w io.Writer, r *record) error {
	keys, vals := r.stable()
	width := 0
	for _, k := range keys {
		width = max(width, len(k))
	}
	var b strings.Builder
	for i, k := range keys {
		if s, ok := vals[i].([]string); ok && len(s) == 0 {
			continue // no warnings: nothing to say
		}
		fmt.Fprintf(&b, "%-*s  %s\n", width, k, text(vals[i], true))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (textWriter) table(w io.Writer, t *table) error {
	var b bytes.Buffer
	if t.caption.heading {
		fmt.Fprintf(&b, "== %s\n", t.caption.value)
	}
	head := b.Len()
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	var cells [][]string // the header, then a row per record
	for i, r := range t.rows {
		keys, vals := r.stable()
		if i == 0 {
			cells = append(cells, keys)
		}
		row := make([]string, len(vals))
		for j, v := range vals {
			row[j] = text(v, true)
		}
		cells = append(cells, row)
	}
	// A column empty in every row (no note, no warnings) is left out of
	// the text table; CSV and JSON keep every key.
	used := usedColumns(cells)
	for _, row := range cells {
		var kept []string
		for j, c := range row {
			if j < len(used) && used[j] {
				kept = append(kept, c)
			}
		}
		fmt.Fprintln(tw, strings.Join(kept, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Empty last columns leave the padding of the ones before.
	var out strings.Builder
	out.Write(b.Bytes()[:head])
	for _, line := range strings.SplitAfter(b.String()[head:], "\n") {
		if body, ok := strings.CutSuffix(line, "\n"); ok {
			out.WriteString(strings.TrimRight(body, " ") + "\n")
		} else {
			out.WriteString(line)
		}
	}
	for _, note := range t.notes {
		out.WriteString(note + "\n")
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// usedColumns reports which columns of cells (a header, then the rows)
// hold a value in some row.
func usedColumns(cells [][]string) []bool {
	if len(cells) == 0 {
		return nil
	}
	used := make([]bool, len(cells[0]))
	for _, r := range cells[1:] {
		for j, c := range r {
			if j < len(used) && c != "" {
				used[j] = true
			}
		}
	}
	return used
}

// textRows keeps the records the text format shows and prints them at
// the end: the run's details, then a table per kind, or the layout's line
// for none.
type textRows struct {
	w    io.Writer
	l    *layout
	kept map[string][]*record
}

func (textWriter) stream(w io.Writer, l *layout) stream {
	return &textRows{w: w, l: l, kept: make(map[string][]*record)}
}

func (s *textRows) put(kind string, r *record) error {
	if !slices.Contains(s.l.quiet, kind) {
		s.kept[kind] = append(s.kept[kind], r)
	}
	return nil
}

func (s *textRows) end(summary *record) error {
	if err := (textWriter{}).record(s.w, summary); err != nil {
		return err
	}
	first := true
	for _, kind := range s.l.kinds {
		if slices.Contains(s.l.quiet, kind) {
			continue
		}
		if first && len(s.kept[kind]) == 0 {
			_, err := fmt.Fprintf(s.w, "\n%s\n", s.l.none)
			return err
		}
		first = false
		if _, err := fmt.Fprintln(s.w); err != nil {
			return err
		}
		if err := (textWriter{}).table(s.w, &table{rows: s.kept[kind]}); err != nil {
			return err
		}
	}
	return nil
}

// csvWriter writes a record as a header row and one row, a table as a
// header row and a row per record, with every digit of a number; lists are
// joined by "; ".
type csvWriter struct{}

func (csvWriter) record(w io.Writer, r *record) error {
	return csvWriter{}.table(w, &table{rows: []*record{r}})
}

func (csvWriter) table(w io.Writer, t *table) error {
	cw := csv.NewWriter(w)
	rows := t.rows
	if t.total != nil {
		rows = append(slices.Clip(rows), t.total)
	}
	var header []string
	for i, r := range rows {
		keys, vals := r.stable()
		if t.caption.key != "" {
			keys, vals = append([]string{t.caption.key}, keys...), append([]any{t.caption.value}, vals...)
		}
		switch {
		case i == 0:
			header = keys
			cw.Write(keys)
		case !slices.Equal(keys, header):
			// A row whose keys are not the header's would put its
			// values under other columns.
			return fmt.Errorf("pearson: CSV output: row %d has the columns %q, not the header's %q", i+1, keys, header)
		}
		cells := make([]string, len(vals))
		for j, v := range vals {
			cells[j] = text(v, false)
		}
		cw.Write(cells)
	}
	cw.Flush()
	return cw.Error()
}

// csvRows writes a header and a row per record as it arrives, its kind
// first; the header alone when none arrives. The run's details are not
// part of the CSV output.
type csvRows struct {
	w      *csv.Writer
	l      *layout
	header bool
}

func (csvWriter) stream(w io.Writer, l *layout) stream {
	return &csvRows{w: csv.NewWriter(w), l: l}
}

func (s *csvRows) writeHeader() {
	if !s.header {
		s.w.Write(append([]string{"kind"}, s.l.columns...))
		s.header = true
	}
}

func (s *csvRows) put(kind string, r *record) error {
	s.writeHeader()
	row := make([]string, 1+len(s.l.columns))
	row[0] = kind
	for i, k := range r.keys {
		if a, ok := s.l.alias[k]; ok {
			k = a
		}
		if c := slices.Index(s.l.columns, k); c >= 0 && k != "" {
			row[1+c] = text(r.vals[i], false)
		}
	}
	s.w.Write(row)
	s.w.Flush()
	return s.w.Error()
}

func (s *csvRows) end(*record) error {
	s.writeHeader()
	s.w.Flush()
	return s.w.Error()
}

// jsonWriter writes a result as one object on one line, with every digit
// of a number; a table is the record of the run with the rows as an array
// under the table's name.
type jsonWriter struct{}

func (jsonWriter) record(w io.Writer, r *record) error {
	b, err := r.MarshalJSON()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func (jsonWriter) table(w io.Writer, t *table) error {
	if t.name == "" {
		return jsonWriter{}.record(w, t.run)
	}
	out := &record{keys: slices.Clone(t.run.keys), vals: slices.Clone(t.run.vals)}
	return jsonWriter{}.record(w, out.add(t.name, t.rows))
}

// jsonObject writes one object: the array of the layout's first kind as
// its records arrive, then the arrays of the other kinds, kept until the
// end, and the run's details.
type jsonObject struct {
	w     io.Writer
	l     *layout
	first int // records of the first kind written
	kept  map[string][]*record
}

func (jsonWriter) stream(w io.Writer, l *layout) stream {
	return &jsonObject{w: w, l: l, kept: make(map[string][]*record)}
}

func (s *jsonObject) put(kind string, r *record) error {
	if kind != s.l.kinds[0] {
		s.kept[kind] = append(s.kept[kind], r)
		return nil
	}
	b, err := r.MarshalJSON()
	if err != nil {
		return err
	}
	sep := ","
	if s.first == 0 {
		sep = `{"` + kind + `s":[`
	}
	s.first++
	_, err = fmt.Fprintf(s.w, "%s%s", sep, b)
	return err
}

func (s *jsonObject) end(summary *record) error {
	if s.first == 0 {
		if _, err := fmt.Fprintf(s.w, `{"%ss":[`, s.l.kinds[0]); err != nil {
			return err
		}
	}
	rest := new(record)
	for _, kind := range s.l.kinds[1:] {
		recs := s.kept[kind]
		if recs == nil {
			recs = []*record{}
		}
		rest.add(kind+"s", recs)
	}
	rest.keys, rest.vals = append(rest.keys, summary.keys...), append(rest.vals, summary.vals...)
	b, err := rest.MarshalJSON()
	if err != nil {
		return err
	}
	// b is {"…":…}: it closes the first array and goes on.
	_, err = fmt.Fprintf(s.w, "],%s\n", b[1:])
	return err
}

// jsonLinesWriter writes JSON Lines: a whole result as the JSON format
// does (one object on one line), a streamed one as a line per record as it
// arrives, its kind under the key "kind" first, and a last line of kind
// "summary" with the run's details.
type jsonLinesWriter struct{}

func (jsonLinesWriter) record(w io.Writer, r *record) error { return jsonWriter{}.record(w, r) }
func (jsonLinesWriter) table(w io.Writer, t *table) error   { return jsonWriter{}.table(w, t) }

func (jsonLinesWriter) stream(w io.Writer, _ *layout) stream { return jsonLines{w} }

type jsonLines struct{ w io.Writer }

func (s jsonLines) put(kind string, r *record) error {
	r = &record{keys: append([]string{"kind"}, r.keys...), vals: append([]any{kind}, r.vals...)}
	return jsonWriter{}.record(s.w, r)
}

func (s jsonLines) end(summary *record) error { return s.put("summary", summary) }

// MarshalJSON writes the record as an object with its keys in order; a nil
// list is an empty array, and a number that is not finite, which JSON
// cannot hold, is null.
func (r *record) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range r.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		v := r.vals[i]
		switch x := v.(type) {
		case []string:
			if x == nil {
				v = []string{}
			}
		case float64:
			v = finite(x)
		case []float64:
			f := make([]any, len(x))
			for i, e := range x {
				f[i] = finite(e)
			}
			v = f
		}
		vb, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("output: %s: %w", k, err)
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// finite returns v, or noValue (null) when it is NaN or infinite.
func finite(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return noValue{}
	}
	return v
}

// printable returns s for the text format: as it is, or quoted with Go's
// escapes when it holds a line end, a tab or another control character,
// which would break the lines and columns (a header name with a newline).
func printable(s string) string {
	for _, r := range s {
		if r < ' ' || r == 0x7f || r == 0x2028 || r == 0x2029 {
			return strconv.Quote(s)
		}
	}
	return s
}
