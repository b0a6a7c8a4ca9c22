// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sublinear/pearson/dataset/datasettest"
)

// The smaller failures of issue 33 (item 8), each through Run.

// nestedRow is a Parquet row with columns the commands cannot read as
// numbers: a list, a struct and a timestamp.
type nestedRow struct {
	X    float64   `parquet:"x"`
	Y    float64   `parquet:"y"`
	Tags []string  `parquet:"tags,list"`
	At   time.Time `parquet:"at,timestamp"`
	S    struct {
		A int64 `parquet:"a"`
	} `parquet:"s"`
}

// TestParquetNestedColumnsLeftOut checks that the default selection leaves
// out a Parquet file's list, struct and timestamp columns with a note, as
// it leaves out any column it cannot read, instead of failing with the
// reader's internal "named as a label column but not among the columns
// read".
func TestParquetNestedColumnsLeftOut(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 2))
	rows := make([]nestedRow, 200)
	for i := range rows {
		rows[i].X = rnd.NormFloat64()
		rows[i].Y = rows[i].X + rnd.NormFloat64()
		rows[i].Tags = []string{"a", "b"}
		rows[i].At = time.Unix(int64(i)*3600, 0)
		rows[i].S.A = int64(i)
	}
	p := datasettest.WriteParquet(t, "n.parquet", [][]nestedRow{rows})
	for _, args := range [][]string{
		{"pe", p, p},
		{"rank", "--target", "y", p},
	} {
		code, out, errs := run(t, args...)
		if code != 0 {
			t.Errorf("%s: exit %d, stderr %q", args[0], code, errs)
			continue
		}
		for _, col := range []string{"tags", "at", "s"} {
			if !strings.Contains(errs, fmt.Sprintf("column %q left out: its type", col)) {
				t.Errorf("%s: no note that column %q is left out in stderr %q", args[0], col, errs)
			}
		}
		if strings.Contains(errs+out, "label column") {
			t.Errorf("%s: internal message in %q", args[0], errs)
		}
	}
}

// TestDriftGateAbsentColumn checks that --fail-on-drift fails a batch that
// lacks a column of the reference: its drift cannot be judged.
func TestDriftGateAbsentColumn(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(3, 4))
	var ref, cur strings.Builder
	ref.WriteString("x,y\n")
	cur.WriteString("x\n")
	for range 200 {
		fmt.Fprintf(&ref, "%.4f,%.4f\n", rnd.NormFloat64(), rnd.NormFloat64())
		fmt.Fprintf(&cur, "%.4f\n", rnd.NormFloat64())
	}
	refPath, curPath := writeFile(t, "ref.csv", ref.String()), writeFile(t, "cur.csv", cur.String())
	saved := filepath.Join(t.TempDir(), "ref.pearson")
	if code, _, errs := run(t, "drift", "--save-reference", saved, refPath); code != 0 {
		t.Fatalf("--save-reference: exit %d, %s", code, errs)
	}
	code, _, errs := run(t, "drift", "--permutations", "20", "--fail-on-drift", "--reference", saved, curPath)
	if code == 0 || !strings.Contains(errs, `lacks the reference's column(s) "y"`) {
		t.Errorf("exit %d, stderr %q: want a failed gate naming the absent column", code, errs)
	}
	// Without the gate the batch is compared, the absence noted.
	if code, out, errs := run(t, "drift", "--permutations", "20", "--reference", saved, curPath); code != 0 || !strings.Contains(out, "absent") {
		t.Errorf("without --fail-on-drift: exit %d, stderr %q, output %q", code, errs, out)
	}
}

// TestChangepointEmptyLinesAfterHeader checks that empty lines right after
// the header are missing rows, as those further down are: never skipped.
func TestChangepointEmptyLinesAfterHeader(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("x\n\n\n")
	for i := range 120 {
		fmt.Fprintf(&b, "%d\n", i%7)
	}
	p := writeFile(t, "s.csv", b.String())
	for _, args := range [][]string{{"changepoint", p}, {"changepoint", "--stream", "--window", "10", p}} {
		code, _, errs := run(t, args...)
		if code == 0 || !strings.Contains(errs, "line 2: row 0 is missing (an empty line") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
	// A blank line before the header is not a row.
	q := writeFile(t, "b.csv", "\nx\n"+strings.TrimPrefix(b.String(), "x\n\n\n"))
	if code, _, errs := run(t, "changepoint", q); code != 0 {
		t.Errorf("a blank line before the header: exit %d, stderr %q", code, errs)
	}
}

// TestTextColumnLeftOutOnce checks that a text column with too many labels
// left out of rank's default selection is told once, by its warning, and
// not also as a column that is not numeric.
func TestTextColumnLeftOutOnce(t *testing.T) {
	t.Parallel()
	p := idLabels(t)
	code, _, errs := run(t, "rank", "--target", "y", p)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if n := strings.Count(errs, `column "name" left out`); n != 1 {
		t.Errorf("%d notes that column \"name\" is left out, want 1: %q", n, errs)
	}
}

// TestMICategoricalXMessage checks that mi's refusal of a text x column
// with too many labels names the y column and its flag, not a target.
func TestMICategoricalXMessage(t *testing.T) {
	t.Parallel()
	code, _, errs := run(t, "mi", "--x", "name", "--y", "y", idLabels(t))
	if code == 0 || strings.Contains(errs, "target") || !strings.Contains(errs, `the --y column "y"`) || !strings.Contains(errs, "--y-type numeric") {
		t.Errorf("exit %d, stderr %q: want a refusal naming the --y column and --y-type", code, errs)
	}
}

// idLabels writes a table of y, x (numbers) and name (a distinct label per
// row) of 300 rows.
func idLabels(t *testing.T) string {
	t.Helper()
	rnd := rand.New(rand.NewPCG(5, 6))
	var b strings.Builder
	b.WriteString("y,x,name\n")
	for i := range 300 {
		x := rnd.NormFloat64()
		fmt.Fprintf(&b, "%.4f,%.4f,id%d\n", x+rnd.NormFloat64(), x, i)
	}
	return writeFile(t, "labels.csv", b.String())
}
