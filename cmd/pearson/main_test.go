// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sublinear/pearson/internal/testtier"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden and the examples' outputs in README.md and docs/cli.md")

// run calls Run with the arguments (without the program name) and an empty
// standard input, and returns the exit code and what was written to stdout
// and stderr.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runStdin(t, "", args...)
}

// runStdin is run with standard input in.
func runStdin(t *testing.T, in string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), append([]string{"pearson"}, args...), strings.NewReader(in), &out, &errb)
	return code, out.String(), errb.String()
}

// tunedUnlessRace returns args, with the kernel width and λ of a divergence,
// pe or test fixed (--sigma 1 --lambda 0.01) when the race detector is on.
// For the tests whose subject is not the estimate (stdin, remote inputs,
// progress, files written) and which compare two runs or read an output:
// at the defaults, cross-validation is about 85 % of the command's CPU and
// five to ten times as much under the detector, which watches its workers
// in TestCommandsGolden and in divergence's own tests: repeating it here
// adds time, not checks. The run without the detector keeps the defaults.
func tunedUnlessRace(args ...string) []string {
	if !testtier.Race {
		return args
	}
	return append([]string{args[0], "--sigma", "1", "--lambda", "0.01"}, args[1:]...)
}

// golden compares got with the file testdata/golden/name, or rewrites the file
// under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/pearson -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// writeFile writes content to a new file in a temporary directory and
// returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// testdata returns the path of a file in the repository's testdata folder.
func testdata(parts ...string) string {
	return filepath.Join(append([]string{"..", "..", "testdata"}, parts...)...)
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel()
	code, out, errs := run(t, "--help")
	if code != 0 || !strings.Contains(out, "qmin") || errs != "" {
		t.Errorf("--help: code %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, _ = run(t, "--version")
	if code != 0 || !strings.Contains(out, version) {
		t.Errorf("--version: code %d, stdout %q", code, out)
	}
	code, out, _ = run(t, "qmin", "--help")
	if code != 0 || !strings.Contains(out, "--exact") {
		t.Errorf("qmin --help: code %d, stdout %q", code, out)
	}
	code, out, errs = run(t, "help")
	if code != 0 || !strings.Contains(out, "qmin") || errs != "" {
		t.Errorf("help: code %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = run(t, "help", "rank")
	if code != 0 || !strings.Contains(out, "--target") || errs != "" {
		t.Errorf("help rank: code %d, stdout %q, stderr %q", code, out, errs)
	}
	// A command's help, wherever --help or -h is on its line.
	for _, cmd := range []string{"divergence", "pe", "test", "mi", "rank", "qmin"} {
		for _, args := range [][]string{{cmd, "P.csv", "Q.csv", "--help"}, {cmd, "--k", "3", "-h", "P.csv"}, {cmd, "P.csv", "--help=true"}} {
			code, out, errs := run(t, args...)
			if code != 0 || !strings.Contains(out, "USAGE:") || errs != "" {
				t.Errorf("%v: code %d, stdout %q, stderr %q", args, code, out, errs)
			}
		}
	}
	// A command is needed: its absence is a usage error.
	code, out, errs = run(t)
	if code != exitUsage || out != "" || !strings.Contains(errs, "missing command") || !strings.Contains(errs, "divergence, pe") || !strings.Contains(errs, "usage: pearson") {
		t.Errorf("no arguments: code %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		text string
	}{
		{[]string{"--nonsense"}, "flag provided but not defined: --nonsense"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"help", "frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"reproduce"}, `unknown command "reproduce"`}, // its own command now: cmd/reproduce
		{[]string{"qmin", "--nonsense"}, "flag provided but not defined: --nonsense"},
		{[]string{"qmin", "-nonsense"}, "flag provided but not defined: --nonsense"},
		{[]string{"qmin", "--k", "x"}, `invalid value "x" for flag --k`},
		{[]string{"qmin", "--exact=maybe"}, `for --exact`},
		{[]string{"qmin", "--d", "d.csv", "--b", "b.csv"}, "missing --a"},
		{[]string{"qmin", "--a", "-", "--d", "-", "--b", "b.csv"}, "only one of"},
		{[]string{"qmin", "--a", testdata("qmin", "A.csv"), "--d", testdata("qmin", "d.csv"), "--b", testdata("qmin", "b.csv"), "--k", "-1"}, "--k -1: need at least 1"},
		{[]string{"qmin", "--a", testdata("qmin", "A.csv"), "--d", testdata("qmin", "d.csv"), "--b", testdata("qmin", "b.csv"), "--draws", "-2"}, "--draws -2"},
		{[]string{"qmin", "--a", testdata("qmin", "A.csv"), "--d", testdata("qmin", "d.csv"), "--b", testdata("qmin", "b.csv"), "--box", "-1"}, "--box -1"},
		{[]string{"qmin", "--a", testdata("qmin", "A.csv"), "--d", testdata("qmin", "d.csv"), "--b", testdata("qmin", "b.csv"), "--format", "xml"}, `unknown --format "xml"`},
		{[]string{"qmin", "--a", testdata("qmin", "A.csv"), "--d", testdata("qmin", "d.csv"), "--b", testdata("qmin", "b.csv"), "--delimiter", "ab"}, "--delimiter"},
		{[]string{"qmin", "--a", testdata("qmin", "A.csv"), "--d", testdata("qmin", "d.csv"), "--b", testdata("qmin", "b.csv"), "--k", "200", "--without-replacement"}, "distinct"},
		{[]string{"qmin", "extra"}, `unexpected argument "extra"`},
	} {
		code, out, errs := run(t, tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, tc.text) || !strings.Contains(errs, "usage: pearson") {
			t.Errorf("%v: code %d, stdout %q, stderr %q; want code 2, %q and the usage line on stderr only", tc.args, code, out, errs, tc.text)
		}
		if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
			t.Errorf("%v: a panic trace on stderr: %s", tc.args, errs)
		}
	}
}

func TestQminGolden(t *testing.T) {
	t.Parallel()
	base := []string{"qmin", "--a", testdata("qmin", "A.csv"), "--d", testdata("qmin", "d.csv"), "--b", testdata("qmin", "b.csv"), "--exact"}
	for _, format := range []string{"text", "json", "csv"} {
		code, out, errs := run(t, append(base, "--format", format)...)
		if code != 0 || errs != "" {
			t.Fatalf("%s: code %d, stderr %q", format, code, errs)
		}
		golden(t, "qmin."+format, out)
	}
	code, out, _ := run(t, append(base, "--format", "json", "--box", "0.2")...)
	if code != 0 {
		t.Fatalf("box: code %d", code)
	}
	golden(t, "qmin-box.json", out)
}

func TestQminJSONContract(t *testing.T) {
	t.Parallel()
	code, out, _ := run(t, "qmin", "--a", testdata("qmin", "A.csv"), "--d", testdata("qmin", "d.csv"), "--b", testdata("qmin", "b.csv"), "--exact", "--format", "json", "--k", "100", "--without-replacement", "--draws", "2")
	if code != 0 {
		t.Fatalf("code %d", code)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"estimate", "stderr", "k", "n", "draws", "exact", "seed"} {
		if _, ok := got[key]; !ok {
			t.Errorf("JSON lacks %q: %s", key, out)
		}
	}
	// k = n without replacement solves the whole problem: the estimate is
	// the exact minimum, up to rounding.
	if e, x := got["estimate"].(float64), got["exact"].(float64); e != x && (e-x)/x > 1e-12 {
		t.Errorf("k = n: estimate %v, exact %v", e, x)
	}
}

func TestQminReproducible(t *testing.T) {
	t.Parallel()
	args := []string{"qmin", "--a", testdata("qmin", "A.csv"), "--d", testdata("qmin", "d.csv"), "--b", testdata("qmin", "b.csv"), "--format", "json"}
	_, first, _ := run(t, args...)
	_, second, _ := run(t, args...)
	_, other, _ := run(t, append(args, "--seed", "2")...)
	_, zero, _ := run(t, append(args, "--k", "0", "--draws", "0")...)
	if first != second {
		t.Errorf("two runs differ:\n%s\n%s", first, second)
	}
	if first == other {
		t.Errorf("--seed 2 printed the same as the default seed")
	}
	if zero != first {
		t.Errorf("--k 0 --draws 0 differ from the defaults:\n%s\n%s", zero, first)
	}
}

func TestQminStdin(t *testing.T) {
	t.Parallel()
	a, err := os.ReadFile(testdata("qmin", "A.csv"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runStdin(t, string(a), "qmin", "--a", "-", "--d", testdata("qmin", "d.csv"), "--b", testdata("qmin", "b.csv"), "--format", "json")
	_, want, _ := run(t, "qmin", "--a", testdata("qmin", "A.csv"), "--d", testdata("qmin", "d.csv"), "--b", testdata("qmin", "b.csv"), "--format", "json")
	if code != 0 || out != want {
		t.Errorf("A from stdin: code %d, stderr %q, output %q, want %q", code, errs, out, want)
	}
}

func TestQminBadInput(t *testing.T) {
	t.Parallel()
	d := writeFile(t, "d.csv", "1\n1\n")
	b := writeFile(t, "b.csv", "1,2\n")
	for _, tc := range []struct {
		name    string
		a, d, b string
		text    []string
	}{
		{"missing file", filepath.Join(t.TempDir(), "nope.csv"), d, b, []string{"nope.csv", "no such file"}},
		{"directory", t.TempDir(), d, b, []string{"directory"}},
		{"ragged", writeFile(t, "A.csv", "1,2\n3\n"), d, b, []string{"A.csv", "line 2"}},
		{"non-numeric", writeFile(t, "A.csv", "1,2\n3,x\n"), d, b, []string{"A.csv", "line 2", `"x"`}},
		{"not square", writeFile(t, "A.csv", "1,2,3\n4,5,6\n"), d, b, []string{"A.csv", "square"}},
		{"short d", writeFile(t, "A.csv", "1,0\n0,1\n"), writeFile(t, "d.csv", "1\n"), b, []string{"d.csv", "1 numbers"}},
		{"long b", writeFile(t, "A.csv", "1,0\n0,1\n"), d, writeFile(t, "b.csv", "1\n2\n3\n"), []string{"b.csv", "3 numbers"}},
		{"NaN", writeFile(t, "A.csv", "1,NaN\n0,1\n"), d, b, []string{"A.csv", "line 1"}},
		{"empty", writeFile(t, "A.csv", ""), d, b, []string{"A.csv"}},
		{"unbounded", writeFile(t, "A.csv", "-5,0\n0,-5\n"), d, b, []string{"unbounded"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := run(t, "qmin", "--a", tc.a, "--d", tc.d, "--b", tc.b, "--k", "2")
			if code != exitData || out != "" {
				t.Errorf("code %d, stdout %q, stderr %q; want code 1 and nothing on stdout", code, out, errs)
			}
			for _, w := range tc.text {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q lacks %q", errs, w)
				}
			}
			if !strings.HasPrefix(errs, "pearson: ") || strings.Count(errs, "\n") != 1 || strings.Contains(errs, "goroutine") {
				t.Errorf("stderr is not one clean line: %q", errs)
			}
		})
	}
}
