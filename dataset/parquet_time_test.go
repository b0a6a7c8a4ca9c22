// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/sublinear/pearson/dataset/datasettest"
)

// TestParquetTimeCells reads the DATE, TIMESTAMP (milliseconds,
// microseconds, nanoseconds; adjusted to UTC or not) and string columns of
// times.parquet through Query.Cells: each function must see, row by row,
// the text that DuckDB's strftime wrote for the same value in times.csv
// (scripts/parquet-fixtures.mjs), from before to after 1970; under
// Query.NA the value column's NaN and nulls are missing values, the rows
// dropped and counted with DropMissing, an error at the first otherwise.
func TestParquetTimeCells(t *testing.T) {
	recs := datasettest.ReadCSV(t, pqPath("times.csv"))
	cols := recs[0][:len(recs[0])-1]
	seen := make([][]string, len(cols))
	q := Query{NA: true, DropMissing: true, Columns: recs[0], Cells: make(map[string]func(string) (float64, error))}
	for i, c := range cols {
		q.Cells[c] = func(s string) (float64, error) {
			seen[i] = append(seen[i], s)
			return float64(len(seen[i])), nil
		}
	}
	p, err := OpenParquet(pqPath("times.parquet"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	kept := 0
	tb, err := p.Scan(context.Background(), q, func(_ string, line int, row []float64) error {
		if x := recs[line][len(cols)]; x == "" || x == "NaN" {
			t.Errorf("row %d kept, its value %q missing", line, x)
		}
		kept++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	missing := 0
	for _, r := range recs[1:] {
		if x := r[len(cols)]; x == "" || x == "NaN" {
			missing++
		}
	}
	if tb.Dropped != missing || kept != len(recs)-1-missing {
		t.Errorf("%d rows dropped and %d kept, want %d and %d", tb.Dropped, kept, missing, len(recs)-1-missing)
	}
	for i, c := range cols {
		want := make([]string, 0, len(recs)-1)
		for _, r := range recs[1:] {
			want = append(want, r[i])
		}
		if !slices.Equal(seen[i], want) {
			t.Errorf("column %s: read\n%q\nwant (CSV)\n%q", c, seen[i], want)
		}
	}
	q.DropMissing = false
	_, err = p.Scan(context.Background(), q, func(string, int, []float64) error { return nil })
	const want = `dataset: ../testdata/parquet/times.parquet: column "x" (field 7): row 8 (row group 0, its row 8): "NaN" is a missing value`
	if !errors.Is(err, ErrEmptyCell) || err.Error() != want {
		t.Errorf("NaN without DropMissing: %v, want %s", err, want)
	}
}
