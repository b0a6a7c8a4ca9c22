// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sublinear/pearson/drift"
)

// driftTable writes a table of n rows: 20 normal columns x0…x19, a text
// column cat and a numeric column opt with empty cells. With shift, x0, x1
// and x2 are moved by one standard deviation, the frequencies of cat go
// from (½, 0.3, 0.2) to (0.2, 0.3, ½) and opt is empty in 30 % of the rows
// instead of 2 %.
func driftTable(path string, n int, shift bool, seed uint64) error {
	rnd := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "x%d,", i)
	}
	b.WriteString("cat,opt\n")
	freq, empty := []float64{0.5, 0.8}, 0.02
	if shift {
		freq, empty = []float64{0.2, 0.5}, 0.3
	}
	for range n {
		for i := range 20 {
			v := rnd.NormFloat64()
			if shift && i < 3 {
				v++
			}
			fmt.Fprintf(&b, "%.4f,", v)
		}
		u := rnd.Float64()
		switch {
		case u < freq[0]:
			b.WriteString("a,")
		case u < freq[1]:
			b.WriteString("b,")
		default:
			b.WriteString("c,")
		}
		if rnd.Float64() >= empty {
			fmt.Fprintf(&b, "%.3f", rnd.Float64())
		}
		b.WriteString("\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// driftFiles are a reference, a shifted current table and an unshifted
// one, written once for the tests.
var driftFiles = sync.OnceValues(func() ([3]string, error) {
	dir, err := os.MkdirTemp("", "pearson-drift")
	if err != nil {
		return [3]string{}, err
	}
	files := [3]string{filepath.Join(dir, "ref.csv"), filepath.Join(dir, "cur.csv"), filepath.Join(dir, "same.csv")}
	for i, shift := range []bool{false, true, false} {
		if err := driftTable(files[i], 600, shift, uint64(i+1)); err != nil {
			return files, err
		}
	}
	return files, nil
})

// fast are settings that keep the tests quick: every row of the tables is
// kept, fewer permutations.
var fast = []string{"--k", "30", "--m", "150", "--draws", "3", "--permutations", "199", "--exceedances", "10"}

func driftRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return run(t, append(append([]string{"drift"}, fast...), args...)...)
}

func driftInputs(t *testing.T) (ref, cur, same string) {
	t.Helper()
	f, err := driftFiles()
	if err != nil {
		t.Fatal(err)
	}
	return f[0], f[1], f[2]
}

// driftJSON is the part of drift's JSON the tests read.
type driftJSON struct {
	Drift   bool
	Drifted int
	Current string
	Columns []struct {
		Column     string
		Type       string
		Drifted    bool
		MissingCur float64 `json:"missing_cur"`
		MissingRef float64 `json:"missing_ref"`
	}
	Joint *struct{ Drifted bool }
}

func (d *driftJSON) drifted() []string {
	var out []string
	for _, c := range d.Columns {
		if c.Drifted {
			out = append(out, c.Column)
		}
	}
	slices.Sort(out)
	return out
}

func TestDriftFindsShiftedColumns(t *testing.T) {
	t.Parallel()
	ref, cur, same := driftInputs(t)
	code, out, errs := driftRun(t, "--format", "json", ref, cur)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res driftJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got, want := res.drifted(), []string{"cat", "opt", "x0", "x1", "x2"}; !slices.Equal(got, want) {
		t.Errorf("drifted %q, want %q", got, want)
	}
	for _, c := range res.Columns {
		switch c.Column {
		case "cat":
			if c.Type != "categorical" {
				t.Errorf("cat is %s", c.Type)
			}
		case "opt":
			if c.MissingCur < 0.25 || c.MissingRef > 0.05 {
				t.Errorf("opt missing %g → %g, want 0.02 → 0.3", c.MissingRef, c.MissingCur)
			}
		}
	}
	if res.Drift || res.Joint == nil || !res.Joint.Drifted {
		t.Errorf("verdict %v, joint %+v: want no drift (5 of 22 columns) and a drifted joint row", res.Drift, res.Joint)
	}

	// --fail-on-drift: 3 when a column drifts (the default rule, though
	// the share 5/22 is below --drift-share), 0 when none does; with
	// --fail-rule share, 3 only when the share reaches --drift-share.
	if code, _, errs := driftRun(t, "--fail-on-drift", ref, cur); code != exitDrift || !strings.Contains(errs, "--fail-rule column") || !strings.Contains(errs, "5 of 22 columns drifted") {
		t.Errorf("drift with --fail-on-drift: exit %d, %s", code, errs)
	}
	if code, _, errs := driftRun(t, "--fail-on-drift", "--fail-rule", "share", ref, cur); code != 0 {
		t.Errorf("share 5/22 below 0.5 with --fail-rule share: exit %d, %s", code, errs)
	}
	if code, _, errs := driftRun(t, "--fail-on-drift", "--fail-rule", "share", "--drift-share", "0.2", ref, cur); code != exitDrift || !strings.Contains(errs, "reaches the drift share 0.2") {
		t.Errorf("share 5/22 above 0.2 with --fail-rule share: exit %d, %s", code, errs)
	}
	code, out, errs = driftRun(t, "--fail-on-drift", ref, same)
	if code != 0 || !strings.Contains(out, "no drift: 0 of 22") {
		t.Errorf("no drift with --fail-on-drift: exit %d\n%s%s", code, out, errs)
	}
}

// TestDriftSmallCurrentTable compares a current table of 2 to 8 rows: the
// numeric columns say they cannot be judged, and why, instead of advice on
// cross-validation folds; --fail-on-drift fails the batch (exit 1).
func TestDriftSmallCurrentTable(t *testing.T) {
	t.Parallel()
	ref, _, same := driftInputs(t)
	data, err := os.ReadFile(same)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	for _, n := range []int{2, 8} {
		small := filepath.Join(t.TempDir(), "small.csv")
		if err := os.WriteFile(small, []byte(strings.Join(lines[:n+1], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := driftRun(t, "--columns", "x0,x1,cat", ref, small)
		if code != 0 || !strings.Contains(out, "cannot judge: "+strconv.Itoa(n)+" present values in the current table") || strings.Contains(out+errs, "fewer folds") {
			t.Errorf("%d rows: exit %d\n%s%s", n, code, out, errs)
		}
		code, _, errs = driftRun(t, "--fail-on-drift", "--columns", "x0,x1,cat", ref, small)
		if code != exitData || !strings.Contains(errs, "cannot judge drift: 2 of 3 columns") {
			t.Errorf("%d rows, --fail-on-drift: exit %d, %s", n, code, errs)
		}
	}
}

func TestDriftSavedReference(t *testing.T) {
	t.Parallel()
	ref, cur, same := driftInputs(t)
	dir := t.TempDir()
	saved := filepath.Join(dir, "ref.pdr")
	if code, _, errs := driftRun(t, "--save-reference", saved, ref); code != 0 {
		t.Fatalf("--save-reference: exit %d: %s", code, errs)
	}
	// The stored reference gives the same bytes as the raw one.
	_, raw, _ := driftRun(t, ref, cur)
	code, loaded, errs := driftRun(t, "--reference", saved, cur)
	if code != 0 || loaded != raw {
		t.Errorf("--reference: exit %d, %s\n--- got\n%s--- want (raw reference)\n%s", code, errs, loaded, raw)
	}

	// Two batches: one JSON object per line.
	code, out, errs := driftRun(t, "--format", "json", "--reference", saved, cur, same)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 {
		t.Fatalf("two batches: exit %d, %d lines: %s", code, len(lines), errs)
	}
	for i, want := range []int{5, 0} {
		var res driftJSON
		if err := json.Unmarshal([]byte(lines[i]), &res); err != nil {
			t.Fatal(err)
		}
		if res.Drifted != want {
			t.Errorf("batch %d (%s): %d columns drifted, want %d", i, res.Current, res.Drifted, want)
		}
	}

	// A corrupt, truncated or foreign file is an error naming it.
	b, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	flipped := slices.Clone(b)
	flipped[len(b)/2] ^= 1
	for name, content := range map[string][]byte{"truncated.pdr": b[:len(b)-9], "corrupt.pdr": flipped, "foreign.pdr": []byte("x,y\n1,2\n")} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs := driftRun(t, "--reference", path, cur)
		if code != exitData || !strings.Contains(errs, path) || !strings.Contains(errs, "not a valid reference") {
			t.Errorf("%s: exit %d: %s", name, code, errs)
		}
	}
}

func TestDriftHTML(t *testing.T) {
	t.Parallel()
	ref, cur, _ := driftInputs(t)
	page := filepath.Join(t.TempDir(), "report.html")
	if code, _, errs := driftRun(t, "--html", page, "--drift-share", "0.2", ref, cur); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.HasPrefix(s, "<!DOCTYPE html>") || !strings.Contains(s, "Drift: 5 of 22 columns drifted") {
		t.Errorf("the page lacks the doctype or the verdict:\n%.400s", s)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(page), ".*")); len(m) != 0 {
		t.Errorf("temporary files left: %q", m)
	}
}

func TestDriftUsage(t *testing.T) {
	t.Parallel()
	ref, cur, _ := driftInputs(t)
	for _, args := range [][]string{
		{ref},
		{"--adjust", "bonferroni", ref, cur},
		{"--level", "2", ref, cur},
		{"--save-reference", "x.pdr", ref, cur},
		{"--save-reference", "x.pdr", "--reference", "y.pdr", ref},
		{"--reference", "y.pdr"},
	} {
		if code, _, errs := driftRun(t, args...); code != exitUsage {
			t.Errorf("%q: exit %d, want %d: %s", args, code, exitUsage, errs)
		}
	}
}

// TestDriftParquetMixed compares the groups of a mixed table (a numeric
// column with nulls, a string column with nulls and blanks, an integer
// column) written by DuckDB as CSV and as Parquet (scripts/parquet-fixtures.mjs):
// both files hold the same values, are read in full (4 row groups are too
// few to sample), so every column's result is the same.
func TestDriftParquetMixed(t *testing.T) {
	t.Parallel()
	var results [2]map[string]any
	for i, f := range []string{"mixed.csv", "mixed.parquet"} {
		code, out, errs := driftRun(t, "--format", "json", "--group", "grp", filepath.Join("..", "..", "testdata", "parquet", f))
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", f, code, errs)
		}
		if err := json.Unmarshal([]byte(out), &results[i]); err != nil {
			t.Fatalf("%s: %v: %s", f, err, out)
		}
	}
	csv, pq := results[0]["columns"].([]any), results[1]["columns"].([]any)
	if len(csv) != 3 || len(pq) != len(csv) {
		t.Fatalf("%d columns from CSV, %d from Parquet, want 3 (x, color, level)", len(csv), len(pq))
	}
	for j := range csv {
		c, p := csv[j].(map[string]any), pq[j].(map[string]any)
		for _, key := range []string{"column", "type", "divergence", "stderr", "p_value", "missing_ref", "missing_cur", "missing_q"} {
			if fmt.Sprint(c[key]) != fmt.Sprint(p[key]) {
				t.Errorf("column %v, %s: %v from CSV, %v from Parquet", c["column"], key, c[key], p[key])
			}
		}
	}
	for _, c := range pq {
		if c := c.(map[string]any); c["column"] == "color" && c["type"] != "categorical" {
			t.Errorf("color is %v from Parquet, want categorical", c["type"])
		}
	}
}

// TestDriftDefaultsAreTheLibrarys runs the command at its defaults on two
// tables it writes and the library at its zero Settings (the same seed) on
// the same columns, and asks for the same p-values: the library's power
// study (drift's TestPowerStudy, which runs Settings{}) then measures what
// the command delivers. The tables have 2500 rows each, more than the 4000
// points an explicit --m 4000 would give the column tests together, so a
// flag default other than the library's rule shows as other p-values.
func TestDriftDefaultsAreTheLibrarys(t *testing.T) {
	t.Parallel()
	const n, seed = 2500, 5
	rnd := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	tables := make([][]drift.Column, 2)
	var paths []string
	for ti := range tables {
		cols := []drift.Column{{Name: "a", Values: make([]float64, n), Rows: n}, {Name: "b", Values: make([]float64, n), Rows: n}}
		var b strings.Builder
		b.WriteString("a,b\n")
		for i := range n {
			cols[0].Values[i] = rnd.NormFloat64() + 0.08*float64(ti)
			cols[1].Values[i] = rnd.NormFloat64()
			fmt.Fprintf(&b, "%s,%s\n", strconv.FormatFloat(cols[0].Values[i], 'g', -1, 64), strconv.FormatFloat(cols[1].Values[i], 'g', -1, 64))
		}
		tables[ti] = cols
		path := filepath.Join(dir, fmt.Sprintf("t%d.csv", ti))
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	code, out, errs := run(t, "drift", "--no-joint", "--seed", strconv.Itoa(seed), "--format", "json", paths[0], paths[1])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var cmd struct {
		Columns []struct {
			Column string
			P      float64 `json:"p_value"`
		}
	}
	if err := json.Unmarshal([]byte(out), &cmd); err != nil {
		t.Fatal(err)
	}
	s := &drift.Settings{NoJoint: true} // the joint row is left out of both, for time
	s.Src = seedSource(seed)
	lib, err := drift.Compare(context.Background(), tables[0], tables[1], s)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmd.Columns {
		for _, l := range lib.Columns {
			if l.Name == c.Column && l.PValue != c.P {
				t.Errorf("column %s: p-value %g by the command at its defaults, %g by the library's", c.Column, c.P, l.PValue)
			}
		}
	}
}
