// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sublinear/pearson/dataset/datasettest"
)

// TestChangepointParquetTimes reads the series of testdata/parquet/times.*,
// written by DuckDB (scripts/parquet-fixtures.mjs), with each of its time
// columns as --time: in Parquet a DATE, TIMESTAMPs in milliseconds,
// microseconds and nanoseconds, adjusted to UTC or not, and ISO 8601
// strings, all from before to after 1970; in CSV the same times as ISO 8601
// text, written by DuckDB's strftime. Both must give the same output,
// byte for byte, and leave out, with --drop-missing, the rows whose value
// is NaN or null (empty in the CSV), counted as the CSV file shows them;
// without it, the first NaN is an error naming the file, row and column.
func TestChangepointParquetTimes(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "parquet")
	pq, text := filepath.Join(dir, "times.parquet"), filepath.Join(dir, "times.csv")
	recs := datasettest.ReadCSV(t, text)
	missing := 0
	for _, r := range recs[1:] {
		if x := r[len(r)-1]; x == "" || x == "NaN" {
			missing++
		}
	}
	if missing < 2 {
		t.Fatalf("%s: %d missing values; the fixture has NaN and nulls", text, missing)
	}
	for i, col := range recs[0][:len(recs[0])-1] {
		args := []string{"changepoint", "--drop-missing", "--time", col, "--columns", "x", "--format", "jsonl"}
		code, got, errs := run(t, append(args, pq)...)
		if code != 0 {
			t.Fatalf("--time %s: exit %d: %s", col, code, errs)
		}
		_, want, _ := run(t, append(args, text)...)
		got = strings.ReplaceAll(got, pq, text)
		if got != want {
			t.Errorf("--time %s: Parquet and CSV differ:\n%s\nCSV:\n%s", col, got, want)
		}
		first := recs[1][i]
		if !strings.Contains(got, `"time":"`+first+`"`) && !strings.Contains(got, `"start":"`+first+`"`) {
			t.Errorf("--time %s: the first time %s not printed as in the CSV:\n%.400s", col, first, got)
		}
		if d := `"rows_dropped":` + strconv.Itoa(missing) + ","; !strings.Contains(got, d) {
			t.Errorf("--time %s: want %s in the summary:\n%s", col, d, got[strings.LastIndex(got, `{"kind":"summary"`):])
		}
	}
	code, _, errs := run(t, "changepoint", "--time", "ts", "--columns", "x", pq)
	want := pq + `: column "x" (field 7): row 8 (row group 0, its row 8): "NaN" is a missing value; --drop-missing`
	if code == 0 || !strings.Contains(errs, want) {
		t.Errorf("a NaN without --drop-missing: exit %d, want an error with\n%s\ngot\n%s", code, want, errs)
	}
}

// TestChangepointParquetTimesOrder checks that a Parquet --time column out
// of order fails as the same column in CSV does, with the same words after
// the line (CSV's counts the header; Parquet's is the row, from 1).
func TestChangepointParquetTimesOrder(t *testing.T) {
	type row struct {
		When time.Time `parquet:"when,timestamp(millisecond)"`
		X    float64   `parquet:"x"`
	}
	at := func(h int) time.Time { return time.Date(2024, 3, 1, h, 0, 0, 0, time.UTC) }
	rows := []row{{at(0), 1}, {at(2), 2}, {at(1), 3}, {at(3), 4}}
	pq := datasettest.WriteParquet(t, "order.parquet", [][]row{rows})
	var b strings.Builder
	b.WriteString("when,x\n")
	for _, r := range rows {
		b.WriteString(r.When.Format(time.RFC3339) + "," + strconv.Itoa(int(r.X)) + "\n")
	}
	text := filepath.Join(t.TempDir(), "order.csv")
	if err := os.WriteFile(text, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tail := func(path string) string {
		code, _, errs := run(t, "changepoint", "--time", "when", "--columns", "x", path)
		if code == 0 {
			t.Fatalf("%s: times out of order accepted", path)
		}
		_, after, ok := strings.Cut(errs, path+": line ")
		if _, msg, ok2 := strings.Cut(after, ": "); ok && ok2 {
			return msg
		}
		t.Fatalf("%s: the error does not name the file and line: %s", path, errs)
		return ""
	}
	got, want := tail(pq), tail(text)
	if got != want || !strings.Contains(want, "(2024-03-01T01:00:00Z) is not after that of the row before (2024-03-01T02:00:00Z)") {
		t.Errorf("Parquet:\n%s\nCSV:\n%s", got, want)
	}
}
