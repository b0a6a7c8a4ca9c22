// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInputCatalogue is the catalogue of bad (and oddly valid) input: each
// case asserts the exit code and the words of the message, naming the file,
// line and column where they apply. Nothing may reach standard output on an
// error, and no panic trace standard error.
func TestInputCatalogue(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rows := func(header string, n int, row func(i int) string) string {
		var b strings.Builder
		b.WriteString(header + "\n")
		for i := range n {
			b.WriteString(row(i) + "\n")
		}
		return b.String()
	}
	good := file("good.csv", rows("x,y", 30, func(i int) string { return fmt.Sprintf("%d,%d", i, (i*7)%11) }))
	other := file("other.csv", rows("x,y", 30, func(i int) string { return fmt.Sprintf("%d.5,%d", i%9, i%5) }))
	garbage := file("garbage.csv", "\x00\x01\xff\xfe\"\x00abc\n\x89PNG\r\n\x1a\n\x00\x00")
	semicolon := file("semi.csv", rows("x;y", 20, func(i int) string { return fmt.Sprintf("%d;%d", i, i%3) }))
	// Inputs that an output must not overwrite: a copy of good.csv, a
	// symbolic and a hard link to it.
	victim := file("victim.csv", string(must(os.ReadFile(good))))
	symlink, hardlink := filepath.Join(dir, "symlink.csv"), filepath.Join(dir, "hardlink.csv")
	if err := os.Symlink(victim, symlink); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(victim, hardlink); err != nil {
		t.Fatal(err)
	}
	missingDir := filepath.Join(dir, "no-such-dir")
	if err := os.Mkdir(filepath.Join(dir, "d.png"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Feature a's first cell is empty; name is text.
	lateA := file("late.csv", "a,b,name,y\n"+strings.TrimPrefix(rows("", 40, func(i int) string {
		if i == 0 {
			return fmt.Sprintf(",%d,n%d,%d", i%5, i, i%3)
		}
		return fmt.Sprintf("%d.5,%d,n%d,%d", i%7, i%5, i, (i*i)%3)
	}), "\n"))
	manyGroups := file("many.csv", rows("g,x", 400, func(i int) string { return fmt.Sprintf("value-%d,%d", i, i%9) }))
	for _, tc := range []struct {
		name string
		args []string
		code int
		text []string
	}{
		// Files and their dialect.
		{"empty file", []string{"pe", file("empty.csv", ""), good}, exitData, []string{"empty.csv", "empty"}},
		{"header only", []string{"pe", file("header.csv", "x,y\n"), good}, exitData, []string{"header.csv", "line 1", "any data row"}},
		{"BOM", []string{"pe", file("bom.csv", "\ufeff"+rows("x,y", 20, func(i int) string { return fmt.Sprintf("%d,%d", i, i%4) })), good}, exitOK, nil},
		{"CRLF", []string{"pe", file("crlf.csv", strings.ReplaceAll(rows("x,y", 20, func(i int) string { return fmt.Sprintf("%d,%d", i, i%4) }), "\n", "\r\n")), good}, exitOK, nil},
		{"quoted numbers", []string{"pe", file("quoted.csv", rows(`"x","y"`, 20, func(i int) string { return fmt.Sprintf(`"%d","%d.0"`, i, i%4) })), good}, exitOK, nil},
		{"semicolons without --delimiter", []string{"pe", semicolon, good}, exitData, []string{"semi.csv", "delimiter"}},
		{"semicolons with --delimiter", []string{"pe", "--delimiter", ";", semicolon, file("semi2.csv", strings.ReplaceAll(string(must(os.ReadFile(good))), ",", ";"))}, exitOK, nil},
		{"non-numeric cell", []string{"pe", file("a.csv", "x,y\n1,2\n2,abc\n"), good}, exitData, []string{"a.csv", "line 3", `"y"`, `"abc"`}},
		{"empty cell", []string{"pe", file("b.csv", "x,y\n1,2\n,3\n4,5\n"), good}, exitData, []string{"b.csv", "line 3", `"x"`, "empty"}},
		{"NaN", []string{"pe", file("c.csv", "x,y\n1,1\nNaN,2\n"), good}, exitData, []string{"c.csv", "line 3", `"x"`, "NaN"}},
		{"Inf", []string{"pe", file("d.csv", "x,y\n1,1\n2,-Inf\n"), good}, exitData, []string{"d.csv", "line 3", `"y"`}},
		{"ragged row", []string{"pe", file("e.csv", "x,y\n1,2\n3\n"), good}, exitData, []string{"e.csv", "line 3", "expected 2"}},
		{"unknown column", []string{"pe", "--columns", "x,w", good, good}, exitData, []string{"good.csv", `"w"`}},
		{"duplicate column names", []string{"pe", file("dup.csv", "x,x\n1,2\n3,4\n"), good}, exitData, []string{"dup.csv", `"x"`}},
		{"group with one value", []string{"pe", "--group", "g", file("g1.csv", "g,x\nA,1\nA,2\nA,3\n")}, exitData, []string{"g1.csv", `"g"`, "single value"}},
		{"group with three values", []string{"pe", "--group", "group", groups}, exitUsage, []string{"3 values", "--numerator"}},
		{"a sample of one row", []string{"pe", file("one.csv", "x,y\n1,2\n"), good}, exitData, []string{"P has 1 rows"}},
		{"a constant column", []string{"mi", "--x", "x", "--y", "y", file("const.csv", rows("x,y", 30, func(i int) string { return fmt.Sprintf("4,%d", i) }))}, exitData, []string{"constant"}},
		{"identical samples", []string{"pe", good, good}, exitOK, nil},
		{"values near 1e300", []string{"pe", file("big.csv", rows("x,y", 30, func(i int) string { return fmt.Sprintf("%de298,%de297", i, i%7) })), other}, exitOK, nil},
		{"a directory", []string{"pe", dir, good}, exitData, []string{"directory"}},
		{"a missing file", []string{"pe", filepath.Join(dir, "nope.csv"), good}, exitData, []string{"nope.csv", "no such file"}},
		{"binary garbage", []string{"pe", garbage, good}, exitData, []string{"garbage.csv"}},
		// Flags.
		// Settings the library checks, before any input is read; a flag's
		// zero asks for the default, as the field's zero in Go
		// (TestZeroMeansTheDefault).
		{"k < 0", []string{"pe", "--k", "-5", good, good}, exitUsage, []string{"--k -5: need 1 to 10000 centres (0: the default)"}},
		{"k too large", []string{"pe", "--k", "100000", good, good}, exitUsage, []string{"--k 100000: need 1 to 10000"}},
		{"m < 0", []string{"mi", "--x", "x", "--y", "y", "--m", "-3", good}, exitUsage, []string{"--m -3: need at least 1"}},
		{"α = 1", []string{"pe", "--alpha", "1", good, good}, exitUsage, []string{"--alpha 1: α must lie in [0, 1)"}},
		{"α < 0", []string{"pe", "--alpha", "-0.1", good, good}, exitUsage, []string{"--alpha -0.1"}},
		{"σ < 0", []string{"pe", "--sigma", "-1", good, good}, exitUsage, []string{"--sigma -1"}},
		{"σx < 0", []string{"mi", "--x", "x", "--y", "y", "--sigma-x", "-2", good}, exitUsage, []string{"--sigma-x -2"}},
		{"λ < 0", []string{"pe", "--lambda", "-0.5", good, good}, exitUsage, []string{"--lambda -0.5"}},
		{"folds = 1", []string{"pe", "--folds", "1", good, good}, exitUsage, []string{"--folds 1: cross-validation needs 2 to 1000 folds"}},
		{"folds > rows", []string{"pe", "--folds", "20", file("few.csv", "x\n1\n2\n3\n4\n5\n6\n"), good}, exitData, []string{"folds"}},
		{"permutations too many", []string{"test", "--permutations", "20000000", good, good}, exitUsage, []string{"--permutations 20000000: need 0 to 10000000"}},
		{"permutations < 0", []string{"mi", "--x", "x", "--y", "y", "--permutations", "-1", good}, exitUsage, []string{"--permutations -1"}},
		{"rank permutations < 0", []string{"rank", "--target", "y", "--permutations", "-2", good}, exitUsage, []string{"--permutations -2"}},
		{"draws < 0", []string{"pe", "--draws", "-1", good, good}, exitUsage, []string{"--draws -1: need 1 to 1000000 draws"}},
		{"unknown format", []string{"rank", "--target", "y", "--format", "xml", good}, exitUsage, []string{`"xml"`}},
		{"unknown progress", []string{"rank", "--target", "y", "--progress", "maybe", good}, exitUsage, []string{`"maybe"`}},
		{"bad plot extension", []string{"pe", "--plot", filepath.Join(dir, "x.jpg"), good, good}, exitUsage, []string{".png or .svg"}},
		{"not a number", []string{"pe", "--k", "ten", good, good}, exitUsage, []string{`"ten"`}},
		{"unknown flag", []string{"pe", "--kk", "3", good, good}, exitUsage, []string{"flag provided but not defined: --kk"}},
		{"flag errors name --flags", []string{"pe", "--sigma", "x", good, good}, exitUsage, []string{`invalid value "x" for flag --sigma`}},
		{"flag without its value after the files", []string{"pe", good, good, "--k"}, exitUsage, []string{"flag needs an argument: --k"}},
		// --exact uses every row: the flags of the constant-time estimate do not apply.
		{"exact with k", []string{"pe", "--exact", "--k", "20", good, good}, exitUsage, []string{"--k and --exact"}},
		{"exact with m", []string{"mi", "--x", "x", "--y", "y", "--m", "50", "--exact", good}, exitUsage, []string{"--m and --exact"}},
		{"exact with draws", []string{"rank", "--target", "y", "--exact", "--draws", "3", good}, exitUsage, []string{"--draws and --exact"}},
		{"exact with reservoir", []string{"test", "--exact", "--reservoir", "10", good, good}, exitUsage, []string{"--reservoir and --exact"}},
		// Output files: never an input, standard output or each other, and
		// an unwritable destination (here a missing directory: exit 1, a
		// runtime error) fails before any work, leaving nothing behind.
		{"ratio-out is an input", []string{"pe", "--ratio-out", victim, victim, good}, exitUsage, []string{"--ratio-out " + victim, "is the input file " + victim}},
		{"ratio-out is a symbolic link to an input", []string{"pe", "--ratio-out", symlink, good, victim}, exitUsage, []string{"--ratio-out " + symlink, "input file " + victim}},
		{"ratio-out is a hard link to an input", []string{"pe", "--group", "y", "--ratio-out", hardlink, victim}, exitUsage, []string{"--ratio-out " + hardlink, "input file " + victim}},
		{"ratio-out to stdout", []string{"pe", "--ratio-out", "-", good, other}, exitUsage, []string{"--ratio-out -", "standard output"}},
		{"ratio-out and plot the same file", []string{"pe", "--ratio-out", filepath.Join(dir, "same.svg"), "--plot", filepath.Join(dir, ".", "same.svg"), good, other}, exitUsage, []string{"--ratio-out", "--plot", "same file"}},
		{"ratio-out in a missing directory", []string{"pe", "--ratio-out", filepath.Join(missingDir, "r.csv"), good, other}, exitData, []string{"--ratio-out", "no-such-dir", "no such file"}},
		{"plot in a missing directory", []string{"pe", "--plot", filepath.Join(missingDir, "p.png"), good, other}, exitData, []string{"--plot", "no-such-dir"}},
		{"test plot in a missing directory", []string{"test", "--plot", filepath.Join(missingDir, "p.png"), good, other}, exitData, []string{"--plot", "no-such-dir"}},
		{"mi plot in a missing directory", []string{"mi", "--x", "x", "--y", "y", "--permutations", "5", "--plot", filepath.Join(missingDir, "p.svg"), good}, exitData, []string{"--plot", "no-such-dir"}},
		{"rank plot in a missing directory", []string{"rank", "--target", "y", "--plot", filepath.Join(missingDir, "p.svg"), good}, exitData, []string{"--plot", "no-such-dir"}},
		{"plot is a directory", []string{"rank", "--target", "y", "--plot", filepath.Join(dir, "d.png"), good}, exitData, []string{"d.png", "directory"}},
		// The default columns: an empty cell is missing, not text.
		{"late numeric feature, drop missing", []string{"rank", "--target", "y", "--drop-missing", "--k", "10", "--m", "50", "--format", "csv", lateA}, exitOK,
			[]string{"dropped 1 rows", `column "name" left out: its cells are text with more than 20 distinct labels`}},
		{"late numeric feature", []string{"rank", "--target", "y", lateA}, exitData, []string{"late.csv", "line 2", `column "a"`, "empty cell", `on line 3, is "1.5"`}},
		{"group column of many values", []string{"pe", "--group", "g", manyGroups}, exitUsage, []string{`"g"`, "more than 102 values", `"value-9", ... and more`, "--numerator"}},
		{"group column of twelve values", []string{"pe", "--group", "g", file("twelve.csv", rows("g,x", 30, func(i int) string { return fmt.Sprintf("v%d,%d", i%12, i) }))}, exitUsage, []string{"has 12 values", `"v9", ... and 2 more)`}},
		{"group value not found among many", []string{"pe", "--group", "g", "--numerator", "value-3", "--denominator", "nope", manyGroups}, exitData, []string{`"nope"`, "no such value", "and more"}},
		// Conflicting or missing arguments.
		{"group with two files", []string{"pe", "--group", "g", good, good}, exitUsage, []string{"single input file"}},
		{"numerator without group", []string{"pe", "--numerator", "A", good, good}, exitUsage, []string{"go with --group"}},
		{"same numerator and denominator", []string{"pe", "--group", "group", "--numerator", "A", "--denominator", "A", groups}, exitUsage, []string{`both "A"`}},
		{"no such group value", []string{"pe", "--group", "group", "--numerator", "Z", "--denominator", "A", groups}, exitData, []string{`"Z"`, "no such value"}},
		{"one file without group", []string{"pe", good}, exitUsage, []string{"--group"}},
		{"no input", []string{"test"}, exitUsage, []string{"missing input"}},
		{"three inputs", []string{"pe", good, good, good}, exitUsage, []string{"got 3"}},
		{"two stdins", []string{"pe", "-", "-"}, exitUsage, []string{"standard input"}},
		{"ratio-out with stdin", []string{"pe", "--ratio-out", filepath.Join(dir, "w.csv"), "-", good}, exitUsage, []string{"standard input"}},
		{"x and y overlap", []string{"mi", "--x", "x", "--y", "x", good}, exitUsage, []string{"both --x and --y"}},
		{"mi without y", []string{"mi", "--x", "x", good}, exitUsage, []string{"--y"}},
		{"rank without target", []string{"rank", good}, exitUsage, []string{"--target"}},
		{"target unknown", []string{"rank", "--target", "q", good}, exitData, []string{`"q"`}},
		{"target among features", []string{"rank", "--target", "y", "--features", "x,y", good}, exitUsage, []string{"also among --features"}},
		{"exact too large", []string{"pe", "--exact", file("big2.csv", rows("x", 5001, func(i int) string { return fmt.Sprint(i % 97) })), good}, exitData, []string{"MaxExact"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runStdin(t, "x,y\n1,2\n2,3\n", tc.args...)
			if code != tc.code {
				t.Fatalf("exit code %d, want %d; stderr %q", code, tc.code, errs)
			}
			if tc.code != exitOK && out != "" {
				t.Errorf("output on an error: %q", out)
			}
			if tc.code == exitOK && (out == "" || strings.Contains(out, "NaN") || strings.Contains(out, "Inf")) {
				t.Errorf("output %q", out)
			}
			for _, w := range tc.text {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q lacks %q", errs, w)
				}
			}
			if strings.Contains(errs, "goroutine ") || strings.Contains(errs, "panic") {
				t.Errorf("panic on stderr: %s", errs)
			}
			if len(errs) > 2000 {
				t.Errorf("%d bytes on stderr", len(errs))
			}
		})
	}
	// No output file or temporary file was left behind, and no input was
	// overwritten.
	for _, e := range must(os.ReadDir(dir)) {
		if name := e.Name(); strings.HasPrefix(name, ".") || name == "same.svg" || name == "no-such-dir" {
			t.Errorf("%s left behind", name)
		}
	}
	if string(must(os.ReadFile(victim))) != string(must(os.ReadFile(good))) {
		t.Errorf("an output overwrote an input")
	}
	if strings.Contains(string(must(os.ReadFile(lateA))), "ratio") {
		t.Errorf("an output overwrote an input")
	}
	// The late numeric feature is ranked.
	if _, out, _ := run(t, "rank", "--target", "y", "--drop-missing", "--k", "10", "--m", "50", "--format", "csv", lateA); !strings.Contains(out, ",a,") || !strings.Contains(out, ",b,") {
		t.Errorf("rank with a late numeric feature:\n%s", out)
	}
	// --drop-missing skips the row and says so on stderr.
	code, out, errs := run(t, "pe", "--drop-missing", "--columns", "x", file("h.csv", "x,z\n1,2\n,3\n4,5\n6,1\n7,1\n8,1\n9,1\n10,1\n11,1\n12,1\n13,1\n14,1\n"), good, "--format", "json")
	if code != 0 || !strings.Contains(errs, "dropped 1 rows") || !strings.Contains(out, `"n_p":11`) {
		t.Errorf("--drop-missing: code %d, stderr %q, stdout %s", code, errs, out)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
