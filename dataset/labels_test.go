// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sublinear/pearson/dataset/datasettest"
)

// distinctRows is a CSV input "x,y" whose y holds a new label in every row,
// failing after max rows: a read that does not stop at Query.MaxLabels runs
// into the failure.
type distinctRows struct {
	n, max int
	buf    []byte
}

var errRunOn = errors.New("read on past the label bound")

func (d *distinctRows) Read(p []byte) (int, error) {
	if len(d.buf) == 0 {
		switch {
		case d.n == 0:
			d.buf = []byte("x,y\n")
		case d.n > d.max:
			return 0, errRunOn
		default:
			d.buf = fmt.Appendf(nil, "%d,label%d\n", d.n, d.n)
		}
		d.n++
	}
	k := copy(p, d.buf)
	d.buf = d.buf[k:]
	return k, nil
}

// TestMaxLabelsCSV checks that a CSV column of distinct labels, of
// Query.Labels or of a mixed table, fails at its 21st label with MaxLabels
// 20, naming the line, the column and the label, and reads no further.
func TestMaxLabelsCSV(t *testing.T) {
	for _, q := range []Query{
		{Columns: []string{"x", "y"}, Labels: []string{"y"}, MaxLabels: 20},
		{Mixed: true, MaxLabels: 20},
	} {
		_, err := NewCSV(&distinctRows{max: 100_000}, "labels.csv", Options{}).Sample(context.Background(), q, Sampling{Size: 10})
		var pe *ParseError
		if !errors.Is(err, ErrTooManyLabels) || !errors.As(err, &pe) || pe.Line != 22 || pe.Column != "y" || !strings.Contains(err.Error(), `"label21"`) {
			t.Errorf("%+v: %v, want ErrTooManyLabels at line 22, column y", q, err)
		}
	}
	// Within the bound, and without one.
	for _, max := range []int{0, 30} {
		_, err := NewCSV(&distinctRows{max: 25}, "labels.csv", Options{}).Sample(context.Background(), Query{Labels: []string{"y"}, MaxLabels: max}, Sampling{})
		if !errors.Is(err, errRunOn) {
			t.Errorf("MaxLabels %d: %v, want the input's own failure", max, err)
		}
	}
}

// pqLabelRow is a row of a Parquet file of a string column y read as
// labels.
type pqLabelRow struct {
	X float64 `parquet:"x"`
	Y *string `parquet:"y,optional"`
}

// TestParquetLabels checks that a Parquet reader honours Query.Labels: a
// string column is read as label codes in a table that is not mixed, with
// the default selection too; a null is missing (an error, or the row
// dropped and counted with DropMissing); and a label beyond MaxLabels fails
// the read at its row.
func TestParquetLabels(t *testing.T) {
	var groups [][]pqLabelRow
	for g := range 3 {
		rows := make([]pqLabelRow, 10)
		for j := range rows {
			i := g*10 + j
			rows[j].X = float64(i)
			if i%5 != 4 {
				l := fmt.Sprintf(" c%d ", i%3)
				rows[j].Y = &l
			}
		}
		groups = append(groups, rows)
	}
	path := datasettest.WriteParquet(t, "labels.parquet", groups)
	ctx := context.Background()
	open := func() *Parquet {
		p, err := OpenParquet(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	if _, err := open().Sample(ctx, Query{Labels: []string{"y"}}, Sampling{}); !errors.Is(err, ErrEmptyCell) || !strings.Contains(err.Error(), `"y"`) || !strings.Contains(err.Error(), "row 5 ") {
		t.Errorf("a null label: %v, want ErrEmptyCell at row 5", err)
	}
	tab, err := open().Sample(ctx, Query{Labels: []string{"y"}, DropMissing: true}, Sampling{})
	if err != nil {
		t.Fatal(err)
	}
	g := tab.Groups[0]
	if !slices.Equal(tab.Columns, []string{"x", "y"}) || g.Len() != 24 || g.Rows != 24 || tab.Dropped != 6 || g.Missing != nil ||
		tab.Categories == nil || !slices.Equal(tab.Categories[1], []string{"c0", "c1", "c2"}) || tab.Categories[0] != nil {
		t.Fatalf("columns %q, %d rows kept of %d, %d dropped, missing %v, categories %q", tab.Columns, g.Len(), g.Rows, tab.Dropped, g.Missing, tab.Categories)
	}
	for i := range g.Len() {
		if x, y := g.Data[2*i], g.Data[2*i+1]; int(y) != int(x)%3 {
			t.Fatalf("row %d: x %g, label code %g", g.Lines[i], x, y)
		}
	}
	_, err = open().Sample(ctx, Query{Columns: []string{"x", "y"}, Labels: []string{"y"}, MaxLabels: 2, DropMissing: true}, Sampling{})
	var pe *ParseError
	if !errors.Is(err, ErrTooManyLabels) || !errors.As(err, &pe) || pe.Column != "y" || !strings.Contains(err.Error(), "row 3 ") {
		t.Errorf("MaxLabels 2: %v, want ErrTooManyLabels at row 3, column y", err)
	}
	if _, err := open().Sample(ctx, Query{Columns: []string{"x"}, Labels: []string{"y"}}, Sampling{}); !errors.Is(err, ErrUnknownColumn) {
		t.Errorf("a label column not read: %v, want ErrUnknownColumn", err)
	}
	if tab, err := open().Sample(ctx, Query{Mixed: true, Labels: []string{"y"}}, Sampling{}); err != nil || tab.Groups[0].Missing[1] != 6 {
		t.Errorf("a mixed table, which Labels does not change: %v", err)
	}
}
