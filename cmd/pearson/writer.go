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

// A writer renders results in one output format (see writers).
type writer interface {
	record(w io.Writer, r *record) error
	table(w io.Writer, t *table) error
}

// writers are the output formats, by the name --format gives them, in the
// order the help lists them.
var (
	formatNames = []string{"text", "json", "csv"}
	writers     = map[string]writer{"text": textWriter{}, "json": jsonWriter{}, "csv": csvWriter{}}
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
// with the rows under the key name.
type table struct {
	run  *record
	name string
	rows []*record
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
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for i, r := range t.rows {
		keys, vals := r.stable()
		if i == 0 {
			fmt.Fprintln(tw, strings.Join(keys, "\t"))
		}
		cells := make([]string, len(vals))
		for j, v := range vals {
			cells[j] = text(v, true)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Empty last columns leave the padding of the ones before.
	var out strings.Builder
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if body, ok := strings.CutSuffix(line, "\n"); ok {
			out.WriteString(strings.TrimRight(body, " ") + "\n")
		} else {
			out.WriteString(line)
		}
	}
	_, err := io.WriteString(w, out.String())
	return err
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
	for i, r := range t.rows {
		keys, vals := r.stable()
		if i == 0 {
			cw.Write(keys)
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

// line writes r as one line of JSON Lines, the streaming entry of the
// writers: a record of a result written as it arrives (changepoint's scores
// and change points, drift's comparisons of several tables), its kind
// ("score", "summary", …) under the key "kind" first unless kind is empty.
func (jsonWriter) line(w io.Writer, kind string, r *record) error {
	if kind != "" {
		r = &record{keys: append([]string{"kind"}, r.keys...), vals: append([]any{kind}, r.vals...)}
	}
	return jsonWriter{}.record(w, r)
}

func (jsonWriter) table(w io.Writer, t *table) error {
	out := &record{keys: slices.Clone(t.run.keys), vals: slices.Clone(t.run.vals)}
	return jsonWriter{}.record(w, out.add(t.name, t.rows))
}

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
