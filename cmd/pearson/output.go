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
	"strconv"
	"strings"
)

// record is one result: named values in a fixed order, written as aligned
// text lines, a JSON object or a CSV header and row. Keys are the JSON
// contract: they never change meaning.
type record struct {
	keys []string
	vals []any
}

// add appends a named value: a float64, int, uint64, bool, string, []string,
// or a nested *record or json.Marshaler.
func (r *record) add(key string, val any) *record {
	r.keys = append(r.keys, key)
	r.vals = append(r.vals, val)
	return r
}

// formatFloat writes numbers the same way in every format: the shortest
// representation that reads back to the same float64.
func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// text renders a value for the CSV format, and for the text format when
// human is true: numbers then have six significant digits.
func text(v any, human bool) string {
	switch v := v.(type) {
	case float64:
		if human {
			return strconv.FormatFloat(v, 'g', 6, 64)
		}
		return formatFloat(v)
	case []string:
		return strings.Join(v, "; ")
	case []float64:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = text(x, human)
		}
		return strings.Join(parts, "; ")
	case *record:
		var parts []string
		for i, k := range v.keys {
			parts = append(parts, k+"="+text(v.vals[i], human))
		}
		return strings.Join(parts, " ")
	default:
		return fmt.Sprint(v)
	}
}

// MarshalJSON writes the record as an object with its keys in order.
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
		if v == nil {
			b.WriteString("null")
			continue
		}
		if s, ok := v.([]string); ok && s == nil {
			v = []string{}
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

// write renders the record in the format: "text" as aligned "key value"
// lines, "json" as one object on one line, "csv" as a header row and one row.
// JSON and CSV carry every digit of a number; text rounds to six.
func (r *record) write(w io.Writer, format string) error {
	switch format {
	case formatJSON:
		b, err := r.MarshalJSON()
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	case formatCSV:
		cw := csv.NewWriter(w)
		row := make([]string, len(r.vals))
		for i, v := range r.vals {
			row[i] = text(v, false)
		}
		cw.Write(r.keys)
		cw.Write(row)
		cw.Flush()
		return cw.Error()
	default:
		width := 0
		for _, k := range r.keys {
			width = max(width, len(k))
		}
		var b strings.Builder
		for i, k := range r.keys {
			if s, ok := r.vals[i].([]string); ok && len(s) == 0 {
				continue // no warnings: nothing to say
			}
			fmt.Fprintf(&b, "%-*s  %s\n", width, k, text(r.vals[i], true))
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
}

// writeCSVRows writes records sharing their keys as a CSV header and one
// row each.
func writeCSVRows(w io.Writer, rows []*record) error {
	cw := csv.NewWriter(w)
	for i, r := range rows {
		if i == 0 {
			cw.Write(r.keys)
		}
		vals := make([]string, len(r.vals))
		for j, v := range r.vals {
			vals[j] = text(v, false)
		}
		cw.Write(vals)
	}
	cw.Flush()
	return cw.Error()
}
