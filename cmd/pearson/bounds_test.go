// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBoundsCatalogue is the catalogue of the runs that issue 27 found
// without a refusal up front or with a misleading message: each case
// asserts the exit code and the words of the message; nothing may reach
// standard output on an error, and no panic trace standard error.
func TestBoundsCatalogue(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := range 40 {
		fmt.Fprintf(&b, "%d,%d\n", i, (i*7)%11)
	}
	good := file("good.csv", b.String())
	pq := func(name string) string { return filepath.Join("..", "..", "testdata", "parquet", name) }
	gz := func(name, content string) string {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(content))
		w.Close()
		return file(name, b.String())
	}
	b.Reset()
	b.WriteString("x,,y\n")
	for i := range 40 {
		fmt.Fprintf(&b, "%d,%d,%d\n", i, i%3, (i*5)%7)
	}
	unnamed := file("unnamed.csv", b.String())
	b.Reset()
	b.WriteString("a,b\n")
	for i := range 200 {
		fmt.Fprintf(&b, "%d,%d\n", (i*37)%101, (i*11)%13)
	}
	ref := file("ref.csv", b.String())
	oneRow := file("one.csv", "a,b\n5,3\n")
	// Columns at the extremes of float64: subnormal, and near ±1e308.
	b.Reset()
	b.WriteString("a,b\n")
	for i := range 80 {
		fmt.Fprintf(&b, "%g,%g\n", float64((i*37)%101-50)*1e-311, float64((i*11)%13-6)*1e-310)
	}
	subnormal := file("subnormal.csv", b.String())
	b.Reset()
	b.WriteString("a,b\n")
	for i := range 300 {
		fmt.Fprintf(&b, "%g,%d\n", float64((i*37)%101-50)*3e306, i%7)
	}
	huge := file("huge.csv", b.String())
	b.Reset()
	b.WriteString("x\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "%d\n", (i*37)%1001)
	}
	rows3000 := file("rows3000.csv", b.String())
	b.Reset()
	for i := range maxColumns + 1 {
		fmt.Fprintf(&b, "f%d,", i)
	}
	b.WriteString("y\n")
	for r := range 3 {
		for i := range maxColumns + 1 {
			fmt.Fprintf(&b, "%d,", (i+r)%7)
		}
		fmt.Fprintf(&b, "%d\n", r)
	}
	wide := file("wide.csv", b.String())
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		text  []string
	}{
		// --exact is refused from the Parquet footers (6500 rows), before a
		// row is read.
		{"pe --exact on a Parquet directory", "", []string{"pe", "--exact", "--columns", "x", pq("parts"), good}, exitUsage, []string{"parts", "6500 rows", "Parquet footer", "leave --exact out"}},
		{"mi --exact on a Parquet file", "", []string{"mi", "--exact", "--x", "id", "--y", "x", pq("snappy.parquet")}, exitUsage, []string{"snappy.parquet", "6500 rows", "Parquet footer"}},
		// Runs with no end in sight are refused once the rows are read.
		{"pe with --m beyond every row and many draws", "", []string{"pe", "--m", "100000000", "--k", "1000", "--draws", "100", rows3000, rows3000}, exitUsage, []string{"6000 points", "1000 centres", "100 draws", "lower --m, --k or --draws"}},
		{"rank on more than maxColumns features", "", []string{"rank", "--target", "y", wide}, exitUsage, []string{fmt.Sprintf("%d features", maxColumns+1), "--features"}},
		{"drift on more than maxColumns columns", "", []string{"drift", wide, wide}, exitUsage, []string{fmt.Sprintf("%d columns", maxColumns+2), "--columns"}},
		// Messages at the extremes.
		{"drift on subnormal columns", "", []string{"drift", "--permutations", "99", "--draws", "2", subnormal, subnormal}, exitOK, nil},
		{"drift on columns near 1e308", "", []string{"drift", huge, huge}, exitData, []string{`column "a"`, "overflow", "rescale the column"}},
		{"pe on columns near 1e308 (scaled per column)", "", []string{"pe", "--m", "200", "--draws", "2", huge, huge}, exitOK, nil},
		// Small ones.
		{"Parquet on standard input", string(must(os.ReadFile(pq("one_rg.parquet")))), []string{"pe", "-", good}, exitData, []string{"<stdin>", "is a Parquet file", "give its path"}},
		// The default selection takes a string column as categories.
		{"Parquet string column taken", "", []string{"pe", "--m", "200", "--k", "20", "--draws", "2", pq("one_rg.parquet"), pq("one_rg.parquet")}, exitOK, nil},
		{"CSV column without a name", "", []string{"pe", "--m", "200", unnamed, unnamed}, exitOK, []string{"column 2 left out: it has no name in the header line"}},
		{"qmin reads .gz", "", []string{"qmin", "--exact", "--a", gz("a.csv.gz", "2,0\n0,2\n"), "--d", gz("d.csv.gz", "1\n1\n"), "--b", gz("b.csv.gz", "1\n-1\n")}, exitOK, nil},
		{"drift on one current row", "", []string{"drift", ref, oneRow}, exitOK, nil},
		{"drift on one current row, --fail-on-drift", "", []string{"drift", "--fail-on-drift", ref, oneRow}, exitData, []string{"one.csv", "cannot judge drift", "--fail-on-drift"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runStdin(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Fatalf("exit code %d, want %d; stderr %q", code, tc.code, errs)
			}
			if strings.HasPrefix(tc.name, "drift on one") && !strings.Contains(out, "cannot judge") {
				t.Errorf("the verdict does not say it cannot judge:\n%s", out)
			}
			if tc.code == exitOK && tc.args[0] == "pe" && (strings.Contains(out, "NaN") || strings.Contains(out, "Inf")) {
				t.Errorf("output %q", out)
			}
			if tc.code != exitOK && out != "" && tc.args[0] != "drift" {
				t.Errorf("output on an error: %q", out)
			}
			for _, w := range tc.text {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q lacks %q", errs, w)
				}
			}
			if strings.Contains(errs, "--sigma") || strings.Contains(errs, "NaN") {
				t.Errorf("a message about a flag not given or a NaN not in the data: %s", errs)
			}
			if strings.Contains(errs, "goroutine ") || strings.Contains(errs, "panic") {
				t.Errorf("panic on stderr: %s", errs)
			}
		})
	}
}

// TestWorkBound checks checkWork's bound of one estimate's kernel
// evaluations: pe asking for 12 000 points × 1000 centres × 20 draws
// (2.4·10⁸) is refused before any estimate, naming the flags, while rank
// counts each feature's estimate on its own, so that 100 features at the
// default settings (2.4·10⁶ each) run, as scripts/rank-bench.sh does.
func TestWorkBound(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var p, q strings.Builder
	p.WriteString("x\n")
	q.WriteString("x\n")
	for i := range 6000 {
		fmt.Fprintf(&p, "%d\n", i%97)
		fmt.Fprintf(&q, "%d\n", i%89)
	}
	pf, qf := filepath.Join(dir, "p.csv"), filepath.Join(dir, "q.csv")
	if err := os.WriteFile(pf, []byte(p.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(qf, []byte(q.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, "pe", "--k", "1000", "--draws", "20", "--m", "20000", pf, qf)
	if code != 2 || !strings.Contains(stderr, "kernel evaluations, more than the bound") || !strings.Contains(stderr, "lower --m, --k or --draws") {
		t.Errorf("pe beyond the bound: exit %d, %q", code, stderr)
	}
	w := rankSettings{}.work(shape{ra: 100_000, ca: 100, cb: 1})
	if w.estimates != 100 || w.points*w.centres*w.draws > maxWork {
		t.Errorf("rank of 100 features at the defaults: %+v, bound %g", w, maxWork)
	}
}
