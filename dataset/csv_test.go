// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// testOptions are the settings of one read in the tests, flat: how to
// open, what to select, how to sample, and, for a Scan, its function.
type testOptions struct {
	Delimiter   rune
	Columns     []string
	Group       string
	Groups      []string
	MaxGroups   int
	DropMissing bool
	Reservoir   int
	Src         rand.Source
	Each        RowFunc
}

// readCSV reads the CSV text of r with NewCSV: Scan when o.Each is set,
// Sample otherwise.
func readCSV(r io.Reader, name string, o testOptions) (*Table, error) {
	src := NewCSV(r, name, Options{Delimiter: o.Delimiter})
	q := Query{Columns: o.Columns, Group: o.Group, Groups: o.Groups, MaxGroups: o.MaxGroups, DropMissing: o.DropMissing}
	if o.Each != nil {
		return src.Scan(context.Background(), q, o.Each)
	}
	return src.Sample(context.Background(), q, Sampling{Size: o.Reservoir, Src: o.Src})
}

// twelve returns a header and rows so that the last row is on line 12.
func twelve(last string) string {
	var b strings.Builder
	b.WriteString("a,b,x\n")
	for i := 0; i < 10; i++ {
		b.WriteString("1,2,3\n")
	}
	b.WriteString(last + "\n")
	return b.String()
}

func TestReadErrors(t *testing.T) {
	long := strings.Repeat("z", 100)
	tests := []struct {
		name  string
		in    string
		opts  testOptions
		err   error    // sentinel, nil for a plain error
		words []string // must all occur in the message
		not   []string // must not occur in the message
	}{
		{name: "empty file", in: "", err: ErrEmpty, words: []string{"d.csv", "empty", "no header"}},
		{name: "BOM and blank lines only", in: "\ufeff\n\n\r\n", err: ErrEmpty, words: []string{"d.csv", "empty"}},
		{name: "header only", in: "a,b\n", err: ErrNoRows, words: []string{"d.csv", "line 1", "no"}},
		{name: "header and blank lines", in: "a,b\n\n   \n\r\n", err: ErrNoRows, words: []string{"line 1"}},
		{name: "header only, explicit columns", in: "a,b\n", opts: testOptions{Columns: []string{"b"}}, err: ErrNoRows},
		{name: "non-numeric line 12", in: twelve("4,5,abc"), err: ErrNotNumber,
			words: []string{"dataset: d.csv: line 12, column \"x\" (field 3): cannot parse \"abc\" as a number"}},
		{name: "non-numeric after blank lines", in: "a,b\n\n1,2\n\n\n3,abc\n", err: ErrNotNumber,
			words: []string{"line 6", `column "b"`, "(field 2)", `"abc"`}},
		{name: "non-numeric after multi-line quoted field", in: "a,b,c\n1,2,\"x\ny\"\n3,q,z\n",
			opts: testOptions{Columns: []string{"b"}}, err: ErrNotNumber, words: []string{"line 4", `column "b"`, `"q"`}},
		{name: "non-numeric with delimiter hint", in: "a,b\n1,2\n3,4;5\n", err: ErrNotNumber,
			words: []string{"line 3", `"4;5"`, "delimiter ';'"}},
		{name: "NA is not missing", in: "a,b\n1,2\n3,NA\n", opts: testOptions{DropMissing: true}, err: ErrNotNumber,
			words: []string{"line 3", `"NA"`}},
		{name: "hex float", in: "a\n0x1p3\n", opts: testOptions{Columns: []string{"a"}}, err: ErrNotNumber, words: []string{`"0x1p3"`}},
		{name: "underscore", in: "a\n1_000\n", opts: testOptions{Columns: []string{"a"}}, err: ErrNotNumber, words: []string{`"1_000"`}},
		{name: "empty cell", in: "a,b\n1,2\n3,\n", err: ErrEmptyCell, words: []string{"line 3", `column "b"`, "(field 2)", "empty cell"}},
		{name: "spaces cell", in: "a,b\n1,2\n3,   \n", err: ErrEmptyCell, words: []string{"line 3", `column "b"`}},
		{name: "empty quoted cell", in: "a,b\n1,2\n\"\",4\n", err: ErrEmptyCell, words: []string{"line 3", `column "a"`, "(field 1)"}},
		{name: "NaN", in: "a,b\n1,2\n3,NaN\n", err: ErrNonFinite, words: []string{"line 3", `column "b"`, `"NaN"`, "finite"}},
		{name: "nan in first row", in: "a,b\n1,nan\n", err: ErrNonFinite, words: []string{"line 2", `column "b"`}},
		{name: "Inf", in: "a,b\n1,2\nInf,3\n", err: ErrNonFinite, words: []string{"line 3", `column "a"`, `"Inf"`}},
		{name: "-Infinity", in: "a,b\n1,2\n-Infinity,3\n", err: ErrNonFinite, words: []string{`"-Infinity"`}},
		{name: "+inf", in: "a,b\n1,2\n+inf,3\n", err: ErrNonFinite, words: []string{`"+inf"`}},
		{name: "1e400", in: "a,b\n1,2\n3,1e400\n", err: ErrNonFinite, words: []string{"line 3", `column "b"`, `"1e400"`, "too large"}},
		{name: "-1e400", in: "a,b\n1,2\n3,-1e400\n", err: ErrNonFinite, words: []string{`"-1e400"`}},
		{name: "ragged short", in: "a,b,c\n1,2,3\n4,5\n", err: ErrRagged, words: []string{"line 3", "expected 3", "found 2"}},
		{name: "ragged long", in: "a,b,c\n1,2,3\n\n4,5,6,7\n", err: ErrRagged, words: []string{"line 4", "expected 3", "found 4"}},
		{name: "ragged first row", in: "a,b,c\n1,2\n", err: ErrRagged, words: []string{"line 2", "expected 3", "found 2"}},
		{name: "unknown column", in: "a,b\n1,2\n", opts: testOptions{Columns: []string{"a", "z"}}, err: ErrUnknownColumn,
			words: []string{"line 1", `column "z"`, "unknown column", `"a", "b"`}, not: []string{"delimiter"}},
		{name: "unknown column, other case", in: "Alpha,b\n1,2\n", opts: testOptions{Columns: []string{"alpha"}}, err: ErrUnknownColumn,
			words: []string{`did you mean "Alpha"?`}},
		{name: "unknown column, semicolon hint", in: "a;b;c\n1;2;3\n", opts: testOptions{Columns: []string{"a"}}, err: ErrUnknownColumn,
			words: []string{`the header has a single field "a;b;c": is the delimiter ';'? (use --delimiter ';')`}},
		{name: "unknown column, tab hint", in: "a\tb\n1\t2\n", opts: testOptions{Columns: []string{"a"}}, err: ErrUnknownColumn,
			words: []string{`is the delimiter '\t'?`}},
		{name: "unknown column, pipe hint", in: "a|b\n1|2\n", opts: testOptions{Columns: []string{"b"}}, err: ErrUnknownColumn,
			words: []string{`is the delimiter '|'?`}},
		{name: "unknown column, comma hint", in: "a,b\n1,2\n", opts: testOptions{Delimiter: ';', Columns: []string{"b"}}, err: ErrUnknownColumn,
			words: []string{`is the delimiter ','?`}},
		{name: "no numeric columns, semicolon hint", in: "a;b\n1;2\n", err: ErrNoNumericColumns,
			words: []string{"line 2", `is the delimiter ';'?`}},
		{name: "no numeric columns", in: "a,b\nx,y\n1,2\n", err: ErrNoNumericColumns, words: []string{"line 2", "first data row"}},
		{name: "only the group is numeric", in: "g,b\n1,y\n", opts: testOptions{Group: "g"}, err: ErrNoNumericColumns},
		{name: "no numeric column, some empty in every row", in: "a,b,c\n,x,\n,y,\n", opts: testOptions{DropMissing: true}, err: ErrNoNumericColumns,
			words: []string{"line 2", `"a", "c" empty in every row`}},
		{name: "no numeric column in the first non-empty cells", in: "a,b\n,x\ny,z\n", err: ErrNoNumericColumns,
			words: []string{"line 3", "first non-empty cell"}},
		{name: "empty first cell of a numeric column", in: "a,b\n,1\n\n,2\n3,4\n", err: ErrEmptyCell,
			words: []string{"line 2", `column "a" (field 1)`, "empty cell", `on line 5, is "3"`}},
		{name: "late numeric column after rows passed to Each", in: "a,b\n,1\n3,4\n",
			opts: testOptions{DropMissing: true, Each: func(string, int, []float64) error { return nil }}, err: ErrEmptyCell,
			words: []string{"line 2", `column "a"`, "passed on"}},
		{name: "late duplicate numeric column", in: "a,b,a\nx,1,\ny,2,3\n", opts: testOptions{DropMissing: true}, err: ErrDuplicateColumn,
			words: []string{"line 1", `column "a" (field 3)`}},
		{name: "duplicate column used", in: "a,a,b\n1,2,3\n", opts: testOptions{Columns: []string{"a"}}, err: ErrDuplicateColumn,
			words: []string{"line 1", `column "a"`, "fields 1 and 2"}},
		{name: "duplicate column by default", in: "a,b,a\n1,2,3\n", err: ErrDuplicateColumn, words: []string{"line 1", `column "a"`}},
		{name: "duplicate after trimming", in: "a, a\n1,2\n", err: ErrDuplicateColumn, words: []string{`column "a"`}},
		{name: "duplicate group column", in: "g,g,b\n1,2,3\n", opts: testOptions{Group: "g"}, err: ErrDuplicateColumn, words: []string{`column "g"`}},
		{name: "column listed twice", in: "a,b\n1,2\n", opts: testOptions{Columns: []string{"a", "a"}}, err: ErrDuplicateColumn,
			words: []string{`column "a"`, "twice"}},
		{name: "empty name in columns", in: ",b\n1,2\n", opts: testOptions{Columns: []string{""}}, err: ErrUnknownColumn, words: []string{"empty column name"}},
		{name: "group not found", in: "a,b\n1,2\n", opts: testOptions{Group: "g"}, err: ErrUnknownColumn,
			words: []string{"line 1", `column "g"`, "unknown group column", `"a", "b"`}},
		{name: "group in columns", in: "a,b\n1,2\n", opts: testOptions{Group: "a", Columns: []string{"a", "b"}}, err: ErrGroupIsColumn,
			words: []string{`column "a"`, "group"}},
		{name: "group value empty", in: "g,x\nA,1\n,2\n", opts: testOptions{Group: "g"}, err: ErrEmptyCell,
			words: []string{"line 3", `column "g"`, "(field 1)"}},
		{name: "all rows dropped", in: "a,b\n1,\n,2\n", opts: testOptions{Columns: []string{"a", "b"}, DropMissing: true}, err: ErrNoRows,
			words: []string{"all 2", "dropped"}},
		{name: "all group values empty", in: "g,x\n,1\n,2\n", opts: testOptions{Group: "g", DropMissing: true}, err: ErrNoRows, words: []string{"dropped"}},
		{name: "group with no row left", in: "g,x\nA,1\nB,\nA,2\nB,\n", opts: testOptions{Group: "g", DropMissing: true}, err: ErrNoRows,
			words: []string{"line 3", `group "B"`, "dropped"}},
		{name: "bad cell in a dropped row", in: "a,b\n1,2\n,x\n", opts: testOptions{Columns: []string{"a", "b"}, DropMissing: true},
			err: ErrNotNumber, words: []string{"line 3", `column "b"`}},
		{name: "bad cell in a row the reservoir skips", in: "a\n1\n2\n3\n4\n5\n6\n7\n8\nz\n", opts: testOptions{Reservoir: 2},
			err: ErrNotNumber, words: []string{"line 10", `column "a"`, `"z"`}},
		{name: "long text is truncated", in: "a,b\n1,2\n3," + long + "\n", err: ErrNotNumber,
			words: []string{`"zzzzzzzzzz`, "...", "100 bytes"}, not: []string{long}},
		{name: "binary garbage is escaped", in: "a,b\n1,2\n3,\x00\xff\x01z\n", err: ErrNotNumber,
			words: []string{`"\x00\xff\x01z"`, "line 3"}},
		{name: "bare quote", in: "a,b\n1,2\n3,4\"x\n", err: csv.ErrBareQuote, words: []string{"line 3", "malformed CSV"}},
		{name: "unterminated quote", in: "a,b\n1,2\n3,\"4\n5,6\n", err: csv.ErrQuote, words: []string{"malformed CSV", "starts on line 3"}},
		{name: "stdin name", in: "", opts: testOptions{}, err: ErrEmpty, words: []string{"<stdin>"}},
		{name: "invalid delimiter", in: "a\n1\n", opts: testOptions{Delimiter: '"'}, words: []string{"invalid delimiter"}},
		{name: "negative reservoir", in: "a\n1\n", opts: testOptions{Reservoir: -1}, words: []string{"negative sample size"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := "d.csv"
			if tt.name == "stdin name" {
				file = "-"
			}
			tab, err := readCSV(strings.NewReader(tt.in), file, tt.opts)
			if err == nil {
				t.Fatalf("no error; table %+v", tab)
			}
			if tab != nil {
				t.Errorf("table %+v returned with error", tab)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "dataset: ") {
				t.Errorf("message %q lacks the dataset: prefix", msg)
			}
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Errorf("error %q is not %v", msg, tt.err)
				}
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Errorf("error %q is not a *ParseError", msg)
				}
			}
			for _, w := range tt.words {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(msg, w) {
					t.Errorf("message %q contains %q", msg, w)
				}
			}
		})
	}
}

func TestParseErrorFields(t *testing.T) {
	_, err := readCSV(strings.NewReader(twelve("4,5,abc")), "data.csv", testOptions{})
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("%v is not a *ParseError", err)
	}
	want := ParseError{File: "data.csv", Line: 12, Column: "x", Index: 3, Err: ErrNotNumber}
	got := *pe
	got.msg = ""
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if errors.Unwrap(pe) != ErrNotNumber {
		t.Errorf("Unwrap = %v", errors.Unwrap(pe))
	}
	// A ParseError made by a caller uses the text of Err.
	e := &ParseError{File: "m.txt", Line: 2, Index: 4, Err: ErrRagged}
	if got, want := e.Error(), "dataset: m.txt: line 2, field 4: wrong number of fields"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func oneGroup(cols []string, rows int, data []float64, lines []int) *Table {
	return &Table{Name: "d.csv", Columns: cols, Groups: []Group{{Rows: rows, Data: data, Lines: lines}}}
}

// skipping returns t with the columns skipped by the default selection.
func skipping(t *Table, s ...Skipped) *Table {
	t.Skipped = s
	return t
}

// fixedSource is a rand.Source that always returns the same number.
type fixedSource struct{}

func (fixedSource) Uint64() uint64 { return 1 << 63 }

func TestReadOK(t *testing.T) {
	tests := []struct {
		name string
		in   string
		opts testOptions
		want *Table
	}{
		{name: "plain", in: "x,y\n1,2\n3,4\n",
			want: oneGroup([]string{"x", "y"}, 2, []float64{1, 2, 3, 4}, []int{2, 3})},
		{name: "BOM", in: "\ufeffx,y\n1,2\n",
			want: oneGroup([]string{"x", "y"}, 1, []float64{1, 2}, []int{2})},
		{name: "BOM and quoted header", in: "\ufeff\"x\",y\n1,2\n", opts: testOptions{Columns: []string{"x"}},
			want: oneGroup([]string{"x"}, 1, []float64{1}, []int{2})},
		{name: "CRLF", in: "x,y\r\n1,2\r\n3,4\r\n",
			want: oneGroup([]string{"x", "y"}, 2, []float64{1, 2, 3, 4}, []int{2, 3})},
		{name: "quoted fields", in: "\"x\",\"the y\"\n\"1.5\",\" 2 \"\n",
			want: oneGroup([]string{"x", "the y"}, 1, []float64{1.5, 2}, []int{2})},
		{name: "quoted name with delimiter", in: "\"a,b\",c\n1,2\n", opts: testOptions{Columns: []string{"a,b"}},
			want: oneGroup([]string{"a,b"}, 1, []float64{1}, []int{2})},
		{name: "blank lines", in: "\n\nx,y\n\n1,2\n\n  \n3,4\n\n\n\r\n",
			want: oneGroup([]string{"x", "y"}, 2, []float64{1, 2, 3, 4}, []int{5, 8})},
		{name: "one column, blank trailing lines", in: "x\n1\n\n2\n\n\n",
			want: oneGroup([]string{"x"}, 2, []float64{1, 2}, []int{2, 4})},
		{name: "no final newline", in: "x,y\n1,2",
			want: oneGroup([]string{"x", "y"}, 1, []float64{1, 2}, []int{2})},
		{name: "spaces around numbers and names", in: " x , y\t\n 1.5 ,\t2\t\n",
			want: oneGroup([]string{"x", "y"}, 1, []float64{1.5, 2}, []int{2})},
		{name: "number syntax", in: "a,b,c,d,e,f,g,h\n1e-300,-0,+3,.5,1E5,1e-400,-2.5e+3,7.\n",
			want: oneGroup([]string{"a", "b", "c", "d", "e", "f", "g", "h"}, 1,
				[]float64{1e-300, 0, 3, 0.5, 1e5, 0, -2500, 7}, []int{2})},
		{name: "multi-line quoted field", in: "n,x\n\"two\nlines\",1\nz,2\n",
			want: skipping(oneGroup([]string{"x"}, 2, []float64{1, 2}, []int{2, 4}), Skipped{"n", 1, 2, "two\nlines"})},
		{name: "default selection skips text and unnamed columns, listing them", in: ",name,x,note,y\n0,ann,1.5,hi,2\n1,bob,3,,4\n",
			want: skipping(oneGroup([]string{"x", "y"}, 2, []float64{1.5, 2, 3, 4}, []int{2, 3}), Skipped{"", 1, 1, ""}, Skipped{"name", 2, 2, "ann"}, Skipped{"note", 4, 2, "hi"})},
		{name: "a column is numeric when its first non-empty cell is", in: "a,b,c\n,1,\n\n, 2 ,x\n3,4,5\n", opts: testOptions{DropMissing: true},
			want: &Table{Name: "d.csv", Columns: []string{"a", "b"}, Dropped: 2, Skipped: []Skipped{{"c", 3, 4, "x"}},
				Groups: []Group{{Rows: 1, Data: []float64{3, 4}, Lines: []int{5}}}}},
		{name: "a column empty in every row is left out", in: "a,b\n,1\n ,2\n", opts: testOptions{DropMissing: true},
			want: skipping(oneGroup([]string{"b"}, 2, []float64{1, 2}, []int{2, 3}), Skipped{"a", 1, 0, ""})},
		{name: "late numeric column with groups and a reservoir", in: "g,a,b\nA,,1\nB,,2\nA,,9\nA,3,4\nB,5,6\nA,7,8\nA,,1\n",
			opts: testOptions{Group: "g", DropMissing: true, Reservoir: 1, Src: fixedSource{}},
			want: &Table{Name: "d.csv", Columns: []string{"a", "b"}, Dropped: 4, Groups: []Group{
				{Key: "A", Rows: 2, Data: []float64{7, 8}, Lines: []int{7}},
				{Key: "B", Rows: 1, Data: []float64{5, 6}, Lines: []int{6}},
			}}},
		{name: "only some groups kept", in: "g,x\nA,1\nB,2\nC,3\nA,4\nD,5\nB,6\n", opts: testOptions{Group: "g", Groups: []string{"C", "A"}},
			want: &Table{Name: "d.csv", Columns: []string{"x"}, Others: []string{"B", "D"}, Groups: []Group{
				{Key: "A", Rows: 2, Data: []float64{1, 4}, Lines: []int{2, 5}},
				{Key: "C", Rows: 1, Data: []float64{3}, Lines: []int{4}},
			}}},
		{name: "at most two groups", in: "g,x\nA,1\nB,2\nC,3\nA,4\n", opts: testOptions{Group: "g", MaxGroups: 2},
			want: &Table{Name: "d.csv", Columns: []string{"x"}, Others: []string{"C"}, Groups: []Group{
				{Key: "A", Rows: 2, Data: []float64{1, 4}, Lines: []int{2, 5}},
				{Key: "B", Rows: 1, Data: []float64{2}, Lines: []int{3}},
			}}},
		{name: "explicit columns in given order", in: "a,b,c\n1,2,3\n4,5,6\n", opts: testOptions{Columns: []string{"c", "a"}},
			want: oneGroup([]string{"c", "a"}, 2, []float64{3, 1, 6, 4}, []int{2, 3})},
		{name: "unused duplicate and empty names", in: "a,a,,b\nq,r,s,1\n", opts: testOptions{Columns: []string{"b"}},
			want: oneGroup([]string{"b"}, 1, []float64{1}, []int{2})},
		{name: "unused text columns may hold anything", in: "a,b\n\"x\"\"y\",1\n,2\n",
			want: skipping(oneGroup([]string{"b"}, 2, []float64{1, 2}, []int{2, 3}), Skipped{"a", 1, 2, "x\"y"})},
		{name: "semicolon delimiter", in: "a;b\n1,5;2\n", opts: testOptions{Delimiter: ';', Columns: []string{"b"}},
			want: oneGroup([]string{"b"}, 1, []float64{2}, []int{2})},
		{name: "tab delimiter", in: "a\tb\n1\t2\n", opts: testOptions{Delimiter: '\t'},
			want: oneGroup([]string{"a", "b"}, 1, []float64{1, 2}, []int{2})},
		{name: "drop missing", in: "a,b,c\n1,2,x\n,3,y\n4,,z\n5,6,\n", opts: testOptions{Columns: []string{"a", "b"}, DropMissing: true},
			want: &Table{Name: "d.csv", Columns: []string{"a", "b"}, Dropped: 2,
				Groups: []Group{{Rows: 2, Data: []float64{1, 2, 5, 6}, Lines: []int{2, 5}}}}},
		{name: "groups in order of appearance", in: "g,x,y\nB,1,2\nA,3,4\n B ,5,6\nctl,7,8\n", opts: testOptions{Group: "g"},
			want: &Table{Name: "d.csv", Columns: []string{"x", "y"}, Groups: []Group{
				{Key: "B", Rows: 2, Data: []float64{1, 2, 5, 6}, Lines: []int{2, 4}},
				{Key: "A", Rows: 1, Data: []float64{3, 4}, Lines: []int{3}},
				{Key: "ctl", Rows: 1, Data: []float64{7, 8}, Lines: []int{5}},
			}}},
		{name: "numeric group column is not a default column", in: "x,g\n1,0\n2,1\n", opts: testOptions{Group: "g"},
			want: &Table{Name: "d.csv", Columns: []string{"x"}, Groups: []Group{
				{Key: "0", Rows: 1, Data: []float64{1}, Lines: []int{2}},
				{Key: "1", Rows: 1, Data: []float64{2}, Lines: []int{3}},
			}}},
		{name: "groups with drop missing", in: "g,x\nA,1\n,2\nB,\nB,4\n", opts: testOptions{Group: "g", DropMissing: true},
			want: &Table{Name: "d.csv", Columns: []string{"x"}, Dropped: 2, Groups: []Group{
				{Key: "A", Rows: 1, Data: []float64{1}, Lines: []int{2}},
				{Key: "B", Rows: 1, Data: []float64{4}, Lines: []int{5}},
			}}},
		{name: "reservoir larger than the file", in: "x\n1\n2\n3\n", opts: testOptions{Reservoir: 5},
			want: oneGroup([]string{"x"}, 3, []float64{1, 2, 3}, []int{2, 3, 4})},
		{name: "reservoir equal to the file", in: "x\n1\n2\n3\n", opts: testOptions{Reservoir: 3},
			want: oneGroup([]string{"x"}, 3, []float64{1, 2, 3}, []int{2, 3, 4})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readCSV(strings.NewReader(tt.in), "d.csv", tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			rows := got.Dropped
			for _, g := range got.Groups {
				rows += g.Rows
			}
			if got.RowsRead < rows || got.Sampled || got.Draws != 0 {
				t.Errorf("%d rows read, %d rows, sampled %v, %d draws", got.RowsRead, rows, got.Sampled, got.Draws)
			}
			got.RowsRead = 0
			// The header is the first line holding anything.
			if want := strings.Count(tt.in[:len(tt.in)-len(strings.TrimLeft(tt.in, "\n"))], "\n") + 1; got.HeaderLine != want {
				t.Errorf("HeaderLine %d, want %d", got.HeaderLine, want)
			}
			got.HeaderLine = 0
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			for i := range got.Groups {
				g := &got.Groups[i]
				if g.Len() != len(g.Lines) || len(g.Data) != g.Len()*len(got.Columns) {
					t.Errorf("group %q: Len %d, %d lines, %d values", g.Key, g.Len(), len(g.Lines), len(g.Data))
				}
			}
		})
	}
}

func TestNegativeZero(t *testing.T) {
	tab, err := readCSV(strings.NewReader("x\n-0\n"), "d.csv", testOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v := tab.Groups[0].Data[0]; v != 0 || !math.Signbit(v) {
		t.Errorf("-0 read as %v", v)
	}
}

func TestOpen(t *testing.T) {
	small := filepath.Join("testdata", "small.csv")
	src, err := Open(small, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	tab, err := src.Sample(context.Background(), Query{Group: "group"}, Sampling{})
	if err != nil {
		t.Fatal(err)
	}
	if src.Name() != small || tab.Name != small || len(tab.Groups) != 2 || !reflect.DeepEqual(tab.Columns, []string{"x", "y"}) {
		t.Errorf("got %+v", tab)
	}
	if g := tab.Groups[1]; g.Key != "B" || g.Rows != 2 || !reflect.DeepEqual(g.Lines, []int{4, 6}) {
		t.Errorf("group B: %+v", g)
	}
	// A second pass over a file starts again at its first row.
	var lines []int
	if _, err := src.Scan(context.Background(), Query{Group: "group"}, func(_ string, line int, _ []float64) error {
		lines = append(lines, line)
		return nil
	}); err != nil || !reflect.DeepEqual(lines, []int{2, 3, 4, 5, 6}) {
		t.Errorf("second pass: lines %v, %v", lines, err)
	}
	if err := src.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}

	bad, err := Open(filepath.Join("testdata", "bad.csv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	_, err = bad.Sample(context.Background(), Query{}, Sampling{})
	if !errors.Is(err, ErrNotNumber) || !strings.Contains(err.Error(), "bad.csv: line 4") {
		t.Errorf("bad.csv: %v", err)
	}

	missing := filepath.Join(t.TempDir(), "missing.csv")
	_, err = Open(missing, Options{})
	if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "dataset: ") || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}

	dir := t.TempDir()
	_, err = Open(dir, Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "dataset: ") || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "directory") {
		t.Errorf("directory: %v", err)
	}
	_, _, _, err = OpenMatrix(dir, 0)
	if err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("OpenMatrix directory: %v", err)
	}
	_, err = OpenVector(missing, 0)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenVector missing: %v", err)
	}
}

func TestOpenStdin(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "small.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = saved }()
	src, err := Open("-", Options{})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := src.Sample(context.Background(), Query{Columns: []string{"x"}}, Sampling{})
	if err != nil {
		t.Fatal(err)
	}
	if src.Name() != "<stdin>" || tab.Name != "<stdin>" || tab.Groups[0].Rows != 5 {
		t.Errorf("got %+v", tab)
	}

	// Options.Stdin replaces standard input; a stream is read once.
	src, err = Open("-", Options{Stdin: struct{ io.Reader }{strings.NewReader("x\n1\n2\n")}})
	if err != nil {
		t.Fatal(err)
	}
	tab, err = src.Sample(context.Background(), Query{}, Sampling{})
	if err != nil || tab.Groups[0].Rows != 2 {
		t.Fatalf("Options.Stdin: %v, %+v", err, tab)
	}
	_, err = src.Scan(context.Background(), Query{}, func(string, int, []float64) error { return nil })
	if !errors.Is(err, ErrReread) || !strings.Contains(err.Error(), "<stdin>") {
		t.Errorf("second pass over a stream: %v", err)
	}
}

func TestProgress(t *testing.T) {
	in := indexInput(100_000)
	var calls int
	var last, size int64
	src := NewCSV(bytes.NewReader(in), "p.csv", Options{Progress: func(read, total int64) {
		if read < last {
			t.Errorf("bytes read went down from %d to %d", last, read)
		}
		calls++
		last, size = read, total
	}})
	if _, err := src.Sample(context.Background(), Query{}, Sampling{Size: 10}); err != nil {
		t.Fatal(err)
	}
	if calls < 2 || last != int64(len(in)) || size != 0 {
		t.Errorf("%d calls, last %d of %d bytes (size %d)", calls, last, len(in), size)
	}
	path := filepath.Join(t.TempDir(), "p.csv")
	if err := os.WriteFile(path, in, 0o644); err != nil {
		t.Fatal(err)
	}
	file, err := Open(path, Options{Progress: func(read, total int64) { size = total }})
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if _, err := file.Sample(context.Background(), Query{}, Sampling{Size: 10}); err != nil || size != int64(len(in)) {
		t.Errorf("file: size %d of %d, %v", size, len(in), err)
	}
}

func TestCancel(t *testing.T) {
	in := indexInput(3 * checkEvery)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewCSV(bytes.NewReader(in), "c.csv", Options{}).Sample(ctx, Query{}, Sampling{Size: 10})
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "dataset: c.csv: ") {
		t.Errorf("cancelled before: %v", err)
	}
	// Cancelled while scanning: the pass stops within checkEvery rows.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	rows := 0
	_, err = NewCSV(bytes.NewReader(in), "c.csv", Options{}).Scan(ctx, Query{}, func(string, int, []float64) error {
		if rows++; rows == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || rows > checkEvery {
		t.Errorf("cancelled during: %v after %d rows", err, rows)
	}
	// A short input is read whole: the context is looked at every
	// checkEvery rows only.
	if _, err := NewCSV(strings.NewReader("x\n1\n"), "c.csv", Options{}).Sample(ctx, Query{}, Sampling{}); err != nil {
		t.Errorf("short input: %v", err)
	}
}

// errReader fails after its content.
type errReader struct{ s string }

func (r *errReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, errors.New("disk on fire")
	}
	n := copy(p, r.s)
	r.s = r.s[n:]
	return n, nil
}

func TestReadFailure(t *testing.T) {
	_, err := readCSV(&errReader{"x\n1\n2\n"}, "d.csv", testOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), "dataset: d.csv: ") || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("got %v", err)
	}
	_, err = readCSV(&errReader{}, "d.csv", testOptions{})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("got %v", err)
	}
}

func TestOthersBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("g,x\n")
	for i := range 3 * MaxOthers {
		fmt.Fprintf(&b, "v%d,%d\n", i%(MaxOthers+20), i)
	}
	tab, err := readCSV(strings.NewReader(b.String()), "d.csv", testOptions{Group: "g", Groups: []string{"v3", "v5"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Groups) != 2 || len(tab.Others) != MaxOthers || !tab.MoreOthers || tab.Others[0] != "v0" || tab.Others[3] != "v4" {
		t.Errorf("%d groups, %d others (more: %v): %v", len(tab.Groups), len(tab.Others), tab.MoreOthers, tab.Others[:5])
	}
	tab, err = readCSV(strings.NewReader("g,x\nA,1\nB,2\nA,3\n"), "d.csv", testOptions{Group: "g", MaxGroups: 2})
	if err != nil || len(tab.Others) != 0 || tab.MoreOthers {
		t.Errorf("two values, at most two: %v, %+v", err, tab)
	}
}

func TestScan(t *testing.T) {
	in := "g,x,y\nA,1,2\nB,3,4\n\nA,5,6\n"
	var got []string
	tab, err := readCSV(strings.NewReader(in), "e.csv", testOptions{Group: "g", Each: func(g string, line int, row []float64) error {
		got = append(got, fmt.Sprintf("%s@%d:%v", g, line, row))
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"A@2:[1 2]", "B@3:[3 4]", "A@5:[5 6]"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Scan saw %v, want %v", got, want)
	}
	if len(tab.Groups) != 2 || tab.Groups[0].Rows != 2 || tab.Groups[1].Rows != 1 || len(tab.Groups[0].Data) != 0 {
		t.Errorf("groups %+v", tab.Groups)
	}
	stop := errors.New("stop")
	_, err = readCSV(strings.NewReader(in), "e.csv", testOptions{Each: func(string, int, []float64) error { return stop }})
	if err != stop {
		t.Errorf("error from the function: %v", err)
	}
}
