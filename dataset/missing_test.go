// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestQueryNA: with Query.NA every word of MissingWords is a missing value,
// as an empty cell is (ErrEmptyCell, naming the line, the column and the
// word; or a dropped row, counted), in a named column and in the default
// selection, where a column whose first cell is a missing word is decided
// by its next one; without it, "NA" stays not a number and "NaN" not a
// finite one.
func TestQueryNA(t *testing.T) {
	for _, w := range MissingWords() {
		in := "a,b,c\n" + w + ",1,x\n2,3,y\n4," + w + ",z\n5,6,w\n"
		for _, cols := range [][]string{nil, {"a", "b"}} {
			src := NewCSV(strings.NewReader(in), "d.csv", Options{})
			tb, err := src.Sample(context.Background(), Query{Columns: cols, NA: true, DropMissing: true}, Sampling{})
			if err != nil {
				t.Fatalf("%q %v: %v", w, cols, err)
			}
			if !slices.Equal(tb.Columns, []string{"a", "b"}) || tb.Dropped != 2 || !slices.Equal(tb.Groups[0].Lines, []int{3, 5}) {
				t.Errorf("%q %v: columns %v, dropped %d, lines %v; want [a b], 2, [3 5]", w, cols, tb.Columns, tb.Dropped, tb.Groups[0].Lines)
			}
			src = NewCSV(strings.NewReader(in), "d.csv", Options{})
			_, err = src.Sample(context.Background(), Query{Columns: cols, NA: true}, Sampling{})
			want := fmt.Sprintf(`d.csv: line 2, column "a" (field 1): %s is a missing value`, strconv.Quote(w))
			if cols == nil { // the default selection decides column a on line 3
				want = `d.csv: line 2, column "a" (field 1): empty cell`
			}
			if !errors.Is(err, ErrEmptyCell) || !strings.Contains(err.Error(), want) {
				t.Errorf("%q %v without DropMissing: %v, want ErrEmptyCell with %q", w, cols, err, want)
			}
		}
	}
	for w, kind := range map[string]error{"NA": ErrNotNumber, "NaN": ErrNonFinite} {
		src := NewCSV(strings.NewReader("a\n1\n"+w+"\n"), "d.csv", Options{})
		if _, err := src.Sample(context.Background(), Query{DropMissing: true}, Sampling{}); !errors.Is(err, kind) {
			t.Errorf("%q without NA: %v, want %v", w, err, kind)
		}
	}
}

// TestQueryCells: a column of Query.Cells is parsed by its function, kept
// by the default selection whatever its cells, missing when empty (the
// function not called), and a refusal fails with ErrBadCell naming the
// line, the column, the cell and the function's message.
func TestQueryCells(t *testing.T) {
	double := func(s string) (float64, error) {
		if s == "bad" {
			return 0, errors.New("not a day")
		}
		return float64(2 * len(s)), nil
	}
	in := "d,x\nab,1\n,2\nabc,3\n"
	var got []float64
	src := NewCSV(strings.NewReader(in), "d.csv", Options{})
	tb, err := src.Scan(context.Background(), Query{DropMissing: true, Cells: map[string]func(string) (float64, error){"d": double}},
		func(_ string, _ int, row []float64) error { got = append(got, row...); return nil })
	if err != nil || !slices.Equal(tb.Columns, []string{"d", "x"}) || tb.Dropped != 1 || !slices.Equal(got, []float64{4, 1, 6, 3}) {
		t.Fatalf("columns %v, dropped %d, rows %v, err %v; want [d x], 1, [4 1 6 3]", tb.Columns, tb.Dropped, got, err)
	}
	src = NewCSV(strings.NewReader("d,x\nab,1\nbad,2\n"), "d.csv", Options{})
	_, err = src.Sample(context.Background(), Query{Cells: map[string]func(string) (float64, error){"d": double}}, Sampling{})
	if want := `d.csv: line 3, column "d" (field 1): "bad": not a day`; !errors.Is(err, ErrBadCell) || !strings.Contains(err.Error(), want) {
		t.Errorf("refused cell: %v, want ErrBadCell with %q", err, want)
	}
}
