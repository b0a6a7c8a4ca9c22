// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestMixedTable(t *testing.T) {
	t.Parallel()
	in := "x,colour,g,code,empty\n" +
		"1,red,a,01,\n" +
		",blue,b,02,\n" +
		"3,,a,A,\n" +
		"4,red,b,03,\n"
	src := NewCSV(strings.NewReader(in), "t.csv", Options{})
	tb, err := src.Sample(context.Background(), Query{Group: "g", Text: []string{"code"}}, Sampling{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"x", "colour", "code", "empty"}; !slices.Equal(tb.Columns, want) {
		t.Fatalf("columns %q, want %q", tb.Columns, want)
	}
	if tb.Categories[0] != nil || tb.Categories[3] != nil {
		t.Errorf("numeric columns have categories %q", tb.Categories)
	}
	if !slices.Equal(tb.Categories[1], []string{"red", "blue"}) || !slices.Equal(tb.Categories[2], []string{"01", "02", "A", "03"}) {
		t.Errorf("categories %q", tb.Categories)
	}
	a, b := tb.Groups[0], tb.Groups[1]
	if a.Key != "a" || a.Rows != 2 || b.Rows != 2 {
		t.Fatalf("groups %+v", tb.Groups)
	}
	if !slices.Equal(a.Missing, []int{0, 1, 0, 2}) || !slices.Equal(b.Missing, []int{1, 0, 0, 2}) {
		t.Errorf("missing %v %v", a.Missing, b.Missing)
	}
	if got := a.Data[4:8]; got[0] != 3 || !math.IsNaN(got[1]) || got[2] != 2 || !math.IsNaN(got[3]) {
		t.Errorf("row 3: %v", got)
	}

	// Text in a numeric column is an error naming the cell.
	_, err = NewCSV(strings.NewReader("x\n1\nfoo\n"), "t.csv", Options{}).Sample(context.Background(), Query{Mixed: true}, Sampling{})
	if !errors.Is(err, ErrNotNumber) || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("text in a numeric column: %v", err)
	}
	// Without Mixed, the text column is skipped, as before.
	in = "x,colour,g\n1,red,a\n,blue,b\n3,,a\n4,red,b\n"
	tb, err = NewCSV(strings.NewReader(in), "t.csv", Options{}).Sample(context.Background(), Query{Group: "g", DropMissing: true}, Sampling{})
	if err != nil || !slices.Equal(tb.Columns, []string{"x"}) || tb.Categories != nil || tb.Groups[0].Missing != nil {
		t.Errorf("without Mixed: %v %+v", err, tb)
	}
}

func TestMixedSeek(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("x,c\n")
	const n = 200000
	for i := range n {
		switch {
		case i%4 == 0:
			fmt.Fprintf(&b, "%d,\n", i%1000)
		case i%10 == 1:
			fmt.Fprintf(&b, ",b\n")
		default:
			fmt.Fprintf(&b, "%d,a\n", i%1000)
		}
	}
	s := b.String()
	src := NewCSVAt(strings.NewReader(s), int64(len(s)), "t.csv", Options{})
	tb, err := src.Sample(context.Background(), Query{Mixed: true}, Sampling{Size: 2000, Seek: true})
	if err != nil {
		t.Fatal(err)
	}
	if !tb.Sampled {
		t.Fatalf("not sampled: %q", tb.Fallback)
	}
	g := tb.Groups[0]
	if g.Len() != 2000 || tb.Categories[0] != nil || len(tb.Categories[1]) != 2 {
		t.Fatalf("rows %d, categories %q", g.Len(), tb.Categories)
	}
	// A quarter of c and a tenth of x are missing.
	for j, want := range []float64{0.1, 0.25} {
		if got := float64(g.Missing[j]) / float64(g.Rows); math.Abs(got-want) > 0.04 {
			t.Errorf("column %d: missing share %.3f, want %.2f", j, got, want)
		}
	}
}

// TestLabels reads columns of Query.Labels: text as codes of labels in
// Table.Categories, numbers as numbers, an empty cell missing as in a
// numeric table, and the default selection keeping them.
func TestLabels(t *testing.T) {
	const in = "x,c,n,s\n1,cat,5,a\n2, dog ,6,b\n3,cat,7,c\n"
	read := func(q Query) (*Table, error) {
		return NewCSV(strings.NewReader(in), "in.csv", Options{}).Sample(context.Background(), q, Sampling{})
	}
	tb, err := read(Query{Columns: []string{"x", "c", "n"}, Labels: []string{"c", "n"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(tb.Groups[0].Data, tb.Categories); got != "[1 0 5 2 1 6 3 0 7] [[] [cat dog] []]" {
		t.Errorf("labels: %s", got)
	}
	tb, err = read(Query{Labels: []string{"c"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(tb.Columns, len(tb.Skipped)); got != "[x c n] 1" {
		t.Errorf("default selection: %s", got)
	}
	tb, err = read(Query{Columns: []string{"x", "n"}})
	if err != nil || tb.Categories != nil {
		t.Errorf("without labels: %v, categories %v", err, tb.Categories)
	}
	_, err = NewCSV(strings.NewReader("x,c\n1,cat\n2,\n"), "in.csv", Options{}).Sample(context.Background(), Query{Columns: []string{"x", "c"}, Labels: []string{"c"}}, Sampling{})
	if !errors.Is(err, ErrEmptyCell) {
		t.Errorf("empty label: %v, want ErrEmptyCell", err)
	}
	if _, err := read(Query{Columns: []string{"x"}, Labels: []string{"c"}}); !errors.Is(err, ErrUnknownColumn) {
		t.Errorf("a label column not read: %v", err)
	}
}
