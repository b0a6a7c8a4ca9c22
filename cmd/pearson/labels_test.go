// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/sublinear/pearson/dataset/datasettest"
	"github.com/sublinear/pearson/internal/progress"
)

// labelRow is a row of a Parquet file whose y is both an integer column
// and a string column of the same values, x being null in some rows.
type labelRow struct {
	X  *float64 `parquet:"x,optional"`
	YI int64    `parquet:"yi"`
	YS string   `parquet:"ys"`
}

// TestParquetTextLabelsDropMissing checks that a Parquet string column read
// as labels with --drop-missing keeps the same rows as the integer column
// of the same values: the rows with a null are dropped before the sample
// is drawn, so that the sample holds --reservoir rows and the row count is
// exact on a full read and the same estimate on a sampled one. 40 000 rows
// in row groups of 100 (so that seeking samples them in units), x null in 40% of them, a reservoir of 600.
func TestParquetTextLabelsDropMissing(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(11, 12))
	rows := make([]labelRow, 40_000)
	present := 0
	for i := range rows {
		c := rnd.IntN(3)
		rows[i].YI, rows[i].YS = int64(c), strconv.Itoa(c)
		if rnd.Float64() >= 0.4 {
			x := rnd.NormFloat64()
			rows[i].X = &x
			present++
		}
	}
	path := datasettest.WriteParquet(t, "labels.parquet", datasettest.Groups(rows, 100))
	for _, seek := range []bool{false, true} {
		r := &reader{ctx: context.Background(), delim: ',', reservoir: 600, seek: seek, drop: true, seed: 1, prog: &progress.Bars{}, stderr: io.Discard}
		ti, si, err := readColumns(r, path, []string{"x", "yi"}, "yi", 20)
		if err != nil {
			t.Fatal(err)
		}
		ts, ss, err := readColumns(r, path, []string{"x", "ys"}, "ys", 20)
		if err != nil {
			t.Fatal(err)
		}
		gi, gs := ti.Groups[0], ts.Groups[0]
		name := fmt.Sprintf("seek %v", seek)
		if gs.Len() != 600 || gi.Len() != 600 {
			t.Errorf("%s: %d rows kept of the string column, %d of the integer column, want 600", name, gs.Len(), gi.Len())
		}
		if gs.Rows != gi.Rows || gs.RowsStdErr != gi.RowsStdErr || ts.Dropped != ti.Dropped || !slices.Equal(gs.Lines, gi.Lines) {
			t.Errorf("%s: string column %d ± %g rows (%d dropped), integer column %d ± %g (%d dropped), or other rows kept",
				name, gs.Rows, gs.RowsStdErr, ts.Dropped, gi.Rows, gi.RowsStdErr, ti.Dropped)
		}
		t.Logf("%s: read %s, %d ± %g rows", name, ss.readAs(), gs.Rows, gs.RowsStdErr)
		if ss.readAs() != si.readAs() {
			t.Errorf("%s: read %q and %q", name, ss.readAs(), si.readAs())
		}
		if !seek && (gs.Rows != present || gs.RowsStdErr != 0 || ts.Dropped != len(rows)-present) {
			t.Errorf("full read: %d ± %g rows, %d dropped: want %d exactly, %d dropped", gs.Rows, gs.RowsStdErr, ts.Dropped, present, len(rows)-present)
		}
		for i := range gs.Len() {
			label := ts.Categories[1][int(gs.Data[2*i+1])]
			if want := strconv.Itoa(int(gi.Data[2*i+1])); label != want || gs.Data[2*i] != gi.Data[2*i] {
				t.Fatalf("%s: row %d: (%g, %q), integer column (%g, %s)", name, gs.Lines[i], gs.Data[2*i], label, gi.Data[2*i], want)
			}
		}
	}
}
