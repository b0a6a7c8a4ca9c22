// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pqDir holds the fixtures written by DuckDB (scripts/parquet-fixtures.mjs).
const pqDir = "../testdata/parquet"

func pqPath(name string) string { return filepath.Join(pqDir, name) }

// scanAll returns every row that q selects from src, by group, row-major.
func scanAll(t *testing.T, src Source, q Query) (*Table, map[string][]float64, map[string][]int) {
	t.Helper()
	data := make(map[string][]float64)
	lines := make(map[string][]int)
	tab, err := src.Scan(context.Background(), q, func(g string, line int, row []float64) error {
		data[g] = append(data[g], row...)
		lines[g] = append(lines[g], line)
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", src.Name(), err)
	}
	return tab, data, lines
}

func openPQ(t *testing.T, name string) Source {
	t.Helper()
	src, err := Open(pqPath(name), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := src.(*Parquet); !ok {
		t.Fatalf("Open(%s) returned a %T", name, src)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

func openCSV(t *testing.T, name string) Source {
	t.Helper()
	src, err := Open(pqPath(name), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

// TestParquetMatchesCSV reads the same data written by DuckDB as CSV and
// as Parquet, with every codec and both page versions: the values are the
// same float64s, in the same order.
func TestParquetMatchesCSV(t *testing.T) {
	files := map[string][]string{
		"zstd.parquet":   {"id", "x", "f", "i32", "xnull", "d9", "d18", "d30"},
		"snappy.parquet": {"id", "x", "xnull"},
		"plain.parquet":  {"id", "x", "xnull"},
		"v2.parquet":     {"id", "x", "xnull"},
		"one_rg.parquet": {"id", "x"},
	}
	for name, cols := range files {
		for _, drop := range []bool{false, true} {
			q := Query{Columns: cols, DropMissing: drop}
			if !drop {
				q.Columns = slices.DeleteFunc(slices.Clone(cols), func(c string) bool { return c == "xnull" })
			}
			q.Group = "grp"
			_, want, wl := scanAll(t, openCSV(t, "types.csv"), q)
			tab, got, gl := scanAll(t, openPQ(t, name), q)
			if !slices.Equal(tab.Columns, q.Columns) {
				t.Fatalf("%s: columns %v", name, tab.Columns)
			}
			for g, w := range want {
				x := got[g]
				if name == "one_rg.parquet" { // its first 2000 rows
					n := 0
					for n < len(wl[g]) && wl[g][n] <= 2001 {
						n++
					}
					w, wl[g] = w[:n*len(q.Columns)], wl[g][:n]
				}
				if len(x) != len(w) {
					t.Fatalf("%s %v group %q: %d values, the CSV %d", name, q, g, len(x), len(w))
				}
				for i := range x {
					// A FLOAT is the float64 of its shortest decimal form,
					// which DuckDB prints, except for ties, where it
					// prints more digits: then the float32s are equal.
					if x[i] != w[i] && (q.Columns[i%len(q.Columns)] != "f" || float32(x[i]) != float32(w[i])) {
						t.Fatalf("%s %v group %q: column %s, row %d: %v, the CSV %v", name, q, g,
							q.Columns[i%len(q.Columns)], gl[g][i/len(q.Columns)], x[i], w[i])
					}
				}
				for i := range gl[g] {
					if gl[g][i]+1 != wl[g][i] { // CSV lines count the header
						t.Fatalf("%s: row %d at line %d in the CSV", name, gl[g][i], wl[g][i])
					}
				}
			}
		}
	}
}

// TestParquetDefaultColumns checks the default selection: every numeric
// column, the others listed as skipped with their types.
func TestParquetDefaultColumns(t *testing.T) {
	src := openPQ(t, "zstd.parquet")
	_, err := src.Sample(context.Background(), Query{}, Sampling{})
	if !errors.Is(err, ErrEmptyCell) || !strings.Contains(err.Error(), `column "xnull"`) || !strings.Contains(err.Error(), "row 1 (row group 0, its row 1)") {
		t.Fatalf("null without DropMissing: %v", err)
	}
	tab, err := src.Sample(context.Background(), Query{DropMissing: true}, Sampling{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"id", "x", "f", "i32", "xnull", "d9", "d18", "d30"}; !slices.Equal(tab.Columns, want) {
		t.Errorf("columns %v, want %v", tab.Columns, want)
	}
	if len(tab.Skipped) != 2 || tab.Skipped[0].Column != "grp" || tab.Skipped[1].Column != "day" ||
		tab.Skipped[1].Value != "INT32 (DATE)" {
		t.Errorf("skipped %+v", tab.Skipped)
	}
	g := tab.Groups[0]
	if g.Rows != 6500-929 || tab.Dropped != 929 || g.Len() != g.Rows || tab.RowsRead != 6500 || tab.Sampled {
		t.Errorf("rows %d, dropped %d, kept %d, read %d", g.Rows, tab.Dropped, g.Len(), tab.RowsRead)
	}
}

// TestParquetGroups groups by a dictionary-encoded string column and by a
// partition key.
func TestParquetGroups(t *testing.T) {
	tab, err := openPQ(t, "snappy.parquet").Sample(context.Background(), Query{Columns: []string{"x"}, Group: "grp"}, Sampling{Size: 100})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, g := range tab.Groups {
		keys = append(keys, g.Key)
		if g.Len() != 100 || g.Rows < 2166 || g.Rows > 2167 {
			t.Errorf("group %q: %d kept of %d", g.Key, g.Len(), g.Rows)
		}
	}
	if !slices.Equal(keys, []string{"a", "bb", "ccc"}) {
		t.Errorf("groups %v", keys)
	}

	// The partition key part = id % 4 lives only in the paths.
	src := openPQ(t, "parts")
	_, data, lines := scanAll(t, src, Query{Columns: []string{"id", "x"}, Group: "part"})
	_, all, _ := scanAll(t, openCSV(t, "types.csv"), Query{Columns: []string{"id", "x"}})
	if len(data) != 4 {
		t.Fatalf("%d groups", len(data))
	}
	for k, d := range data {
		for i := 0; i < len(d); i += 2 {
			id := int(d[i])
			if k != string(rune('0'+id%4)) || d[i+1] != all[""][2*id+1] {
				t.Fatalf("group %s: row %v", k, d[i:i+2])
			}
		}
		if len(lines[k]) != 1625 {
			t.Errorf("group %s: %d rows", k, len(lines[k]))
		}
	}
}

// TestParquetErrors checks the messages for bad queries and bad files.
func TestParquetErrors(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		path string
		q    Query
		kind error
		text string
	}{
		{"zstd.parquet", Query{Columns: []string{"grp"}}, ErrNotNumber, `zstd.parquet: column "grp" (field 9): is BYTE_ARRAY (UTF8), not a number`},
		{"zstd.parquet", Query{Columns: []string{"day"}}, ErrNotNumber, `is INT32 (DATE), not a number`},
		{"zstd.parquet", Query{Columns: []string{"X"}}, ErrUnknownColumn, `did you mean "x"?`},
		{"zstd.parquet", Query{Columns: []string{"x"}, Group: "d9"}, ErrNotNumber, `cannot be a group column`},
		{"badshard", Query{Columns: []string{"x", "y"}}, ErrUnknownColumn, `b.parquet: column "y": unknown column: the file has 2 columns: "id", "x"`},
		{"empty.parquet", Query{}, ErrNoRows, `no data rows`},
	} {
		src, err := Open(pqPath(c.path), Options{})
		if err == nil {
			_, err = src.Sample(ctx, c.q, Sampling{})
			src.Close()
		}
		if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s %+v: %v, want %v with %q", c.path, c.q, err, c.kind, c.text)
		}
	}
}

// TestParquetCorrupt checks that truncated and corrupted files are errors
// that name the file, without a panic or a large allocation.
func TestParquetCorrupt(t *testing.T) {
	orig, err := os.ReadFile(pqPath("snappy.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	n := len(orig)
	footer := int(binary.LittleEndian.Uint32(orig[n-8:]))
	set32 := func(b []byte, v uint32) []byte {
		b = bytes.Clone(b)
		binary.LittleEndian.PutUint32(b[len(b)-8:], v)
		return b
	}
	pageSize := bytes.Clone(orig)
	// The first page header: field 1 (type), field 2 (uncompressed size):
	// make the size a 5-byte varint of 2³¹−1.
	cases := map[string][]byte{
		"truncated":          orig[:n/2],
		"no footer":          orig[:n-8],
		"footer 2^31":        set32(orig, 1<<31-1),
		"footer past start":  set32(orig, uint32(n-11)),
		"tiny":               orig[:10],
		"footer byte":        func() []byte { b := bytes.Clone(orig); b[n-8-footer/2] ^= 0xff; return b }(),
		"inflated page size": pageSize,
	}
	want := map[string]string{"inflated page size": "more than 2048 values can take"}
	// The first page header (byte 4): field 1, the page type, then field 2,
	// the uncompressed size, a 3-byte varint: make it 2²⁰−1.
	if !bytes.Equal(pageSize[4:7], []byte{0x15, 0x00, 0x15}) || pageSize[9]&0x80 != 0 {
		t.Fatalf("unexpected page header % x", pageSize[4:12])
	}
	copy(pageSize[7:], []byte{0xfe, 0xff, 0x7f})
	for name, b := range cases {
		src, err := NewParquetAt(bytes.NewReader(b), int64(len(b)), "f.parquet", Options{})
		if err == nil {
			_, err = src.Sample(context.Background(), Query{Columns: []string{"id", "x"}}, Sampling{})
		}
		if err == nil || !strings.HasPrefix(err.Error(), "dataset: f.parquet: ") || !errors.Is(err, ErrCorrupt) ||
			!strings.Contains(err.Error(), want[name]) {
			t.Errorf("%s: %v", name, err)
			continue
		}
		t.Logf("%s: %v", name, err)
	}
}

// TestParquetMixed reads a mixed table (Query.Mixed) written by DuckDB as
// CSV and as Parquet: a string column with nulls and blank strings is read
// as labels, a null or a blank is a missing value (NaN, counted in
// Group.Missing) as an empty CSV cell is, and both formats give the same
// labels, values and counts; Query.Text reads an integer column as labels.
// A two-stage sample of the Parquet file keeps the label of each row it
// takes.
func TestParquetMixed(t *testing.T) {
	ctx := context.Background()
	for _, q := range []Query{{Mixed: true, Group: "grp"}, {Text: []string{"level"}, Group: "grp", Columns: []string{"color", "level", "x"}}} {
		want, err := openCSV(t, "mixed.csv").Sample(ctx, q, Sampling{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := openPQ(t, "mixed.parquet").Sample(ctx, q, Sampling{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Columns, want.Columns) || len(got.Groups) != len(want.Groups) {
			t.Fatalf("%v: columns %v, groups %d; the CSV %v, %d", q, got.Columns, len(got.Groups), want.Columns, len(want.Groups))
		}
		for j := range want.Categories {
			if !slices.Equal(got.Categories[j], want.Categories[j]) {
				t.Errorf("%v: column %s: labels %q, the CSV %q", q, got.Columns[j], got.Categories[j], want.Categories[j])
			}
		}
		for i, w := range want.Groups {
			g := got.Groups[i]
			if g.Key != w.Key || g.Rows != w.Rows || !slices.Equal(g.Missing, w.Missing) || g.Len() != w.Len() {
				t.Fatalf("%v: group %q: %d rows, missing %v; the CSV %q: %d, %v", q, g.Key, g.Rows, g.Missing, w.Key, w.Rows, w.Missing)
			}
			for k, x := range g.Data {
				if y := w.Data[k]; x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
					t.Fatalf("%v: group %q, row %d, column %s: %v, the CSV %v", q, g.Key, g.Lines[k/len(got.Columns)], got.Columns[k%len(got.Columns)], x, y)
				}
			}
		}
		if q.Mixed && (got.Categories[1] == nil || got.Categories[2] != nil || want.Groups[0].Missing[1] == 0) {
			t.Fatalf("color is not read as text with missing values: %q, missing %v", got.Categories, want.Groups[0].Missing)
		}
	}

	q := Query{Mixed: true, Group: "grp"}
	full, err := openPQ(t, "mixed.parquet").Sample(ctx, q, Sampling{})
	if err != nil {
		t.Fatal(err)
	}
	label := func(tab *Table, g *Group, i int) string { // of color in kept row i
		v := g.Data[i*len(tab.Columns)+1]
		if math.IsNaN(v) {
			return "<missing>"
		}
		return tab.Categories[1][int(v)]
	}
	p := openSeek(t, pqPath("mixed.parquet"))
	tab, err := p.Sample(ctx, q, Sampling{Size: 500, Seek: true, Units: 8})
	if err != nil {
		t.Fatal(err)
	}
	if !tab.Sampled || tab.Units == 0 || tab.Categories[1] == nil {
		t.Fatalf("not a two-stage sample of a mixed table: sampled %v, units %d, labels %q", tab.Sampled, tab.Units, tab.Categories)
	}
	t.Logf("labels %q; missing, in the file %v, estimated %v", tab.Categories, full.Groups[0].Missing, tab.Groups[0].Missing)
	for gi, g := range tab.Groups {
		f := &full.Groups[gi]
		if g.Len() != 500 || g.Key != f.Key {
			t.Fatalf("group %q: %d rows kept", g.Key, g.Len())
		}
		for i, line := range g.Lines {
			k := slices.Index(f.Lines, line)
			if k < 0 || label(tab, &g, i) != label(full, f, k) {
				t.Fatalf("group %q, row %d: %q, the scan %q", g.Key, line, label(tab, &g, i), label(full, f, k))
			}
		}
		for j, m := range g.Missing {
			if w := f.Missing[j]; m < w/2 || m > 2*w {
				t.Errorf("group %q, column %s: %d missing values estimated, %d in the file", g.Key, tab.Columns[j], m, w)
			}
		}
	}
}
