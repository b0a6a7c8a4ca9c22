// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"github.com/sublinear/pearson/internal/testtier"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Fixtures in testdata/.
var (
	shiftP     = testdata("shift", "P.csv")
	shiftQ     = testdata("shift", "Q.csv")
	groups     = testdata("groups.csv")
	regression = testdata("regression.csv")
)

// withoutTiming removes the "timing" key of a JSON object (the one value
// that changes from run to run) and returns it re-encoded with sorted keys.
func withoutTiming(t *testing.T, out string) string {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("output is not a JSON object: %v\n%s", err, out)
	}
	tm, ok := v["timing"].(map[string]any)
	if !ok {
		t.Fatalf("JSON lacks the timing object: %s", out)
	}
	for _, k := range []string{"load_s", "estimate_s"} {
		if _, ok := tm[k].(float64); !ok {
			t.Errorf("timing lacks %q: %v", k, tm)
		}
	}
	delete(v, "timing")
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func TestCommandsGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"divergence", []string{"divergence", shiftP, shiftQ}},
		{"divergence-group", []string{"pe", "--group", "group", "--numerator", "A", "--denominator", "ctl", groups}},
		{"test", []string{"test", "--permutations", "200", shiftP, shiftQ}},
		// A smaller budget than the defaults keeps these quick; the formats
		// do not depend on it.
		{"mi", []string{"mi", "--x", "x1", "--y", "y", "--k", "50", "--m", "1000", regression}},
		{"mi-test", []string{"smi", "--x", "x3,x4", "--y", "y", "--permutations", "100", "--k", "50", "--m", "1000", regression}},
		{"rank", []string{"rank", "--target", "y", "--permutations", "50", "--k", "50", "--m", "1000", regression}},
	} {
		formats := []string{"text", "json", "csv"}
		if testtier.Race {
			// The detector watches each command's estimate once; its three
			// formats are one result written by single-threaded writers,
			// compared with their goldens by the run without the detector
			// (under it the 18 runs took about 430 s of wall at load 17).
			formats = formats[:1]
		}
		for _, format := range formats {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				t.Parallel()
				code, out, errs := run(t, append(tc.args, "--format", format)...)
				if code != 0 || errs != "" {
					t.Fatalf("code %d, stderr %q", code, errs)
				}
				if format == "json" {
					out = withoutTiming(t, out)
				}
				for _, line := range strings.Split(out, "\n") {
					if strings.TrimRight(line, " \t") != line {
						t.Errorf("trailing white space: %q", line)
					}
				}
				golden(t, tc.name+"."+format, out)
			})
		}
	}
}

func TestJSONContract(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t) // the keys of each command's JSON; TestCommandsGolden runs the commands under the detector
	// The keys scripts rely on, per command.
	for _, tc := range []struct {
		args []string
		keys []string
	}{
		{[]string{"divergence", shiftP, shiftQ}, []string{"pe", "stderr", "alpha", "sigma", "lambda", "k", "m", "n_p", "n_q", "n_p_stderr", "n_q_stderr", "read_p", "read_q", "rows_read_p", "rows_read_q", "seed", "warnings", "timing"}},
		{[]string{"test", "--permutations", "50", shiftP, shiftQ}, []string{"pe", "stderr", "alpha", "sigma", "lambda", "k", "m", "n_p", "n_q", "seed", "warnings", "timing", "p_value", "permutations"}},
		{[]string{"mi", "--x", "x1", "--y", "y", "--k", "50", "--m", "1000", regression}, []string{"smi", "stderr", "sigma_x", "sigma_y", "lambda", "k", "m", "n", "n_stderr", "read", "rows_read", "seed", "warnings", "timing"}},
		{[]string{"mi", "--x", "x1", "--y", "y", "--permutations", "20", "--k", "50", "--m", "1000", regression}, []string{"smi", "p_value", "permutations"}},
		{[]string{"rank", "--target", "y", "--k", "50", "--m", "1000", regression}, []string{"target", "n", "n_stderr", "read", "rows_read", "features"}},
	} {
		code, out, _ := run(t, append(tc.args, "--format", "json")...)
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil {
			t.Fatalf("%v: code %d, %v", tc.args, code, err)
		}
		for _, k := range tc.keys {
			if _, ok := v[k]; !ok {
				t.Errorf("%v: no %q in %s", tc.args, k, out)
			}
		}
	}
	_, out, _ := run(t, "rank", "--target", "y", "--permutations", "20", "--k", "50", "--m", "1000", "--format", "json", regression)
	var v struct {
		Target   string
		Features []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Target != "y" || len(v.Features) != 6 {
		t.Fatalf("rank JSON: %v %+v", err, v)
	}
	for i, f := range v.Features {
		for _, k := range []string{"feature", "smi", "rank", "p_value"} {
			if _, ok := f[k]; !ok {
				t.Errorf("feature %d lacks %q: %v", i, k, f)
			}
		}
		if f["rank"].(float64) != float64(i+1) {
			t.Errorf("feature %d has rank %v", i, f["rank"])
		}
	}
}

func TestCommandsReproducible(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t) // equal bytes are arithmetic; TestCommandsGolden runs these commands under the detector
	// Text and CSV carry no timing: the same seed prints the same bytes.
	for _, args := range [][]string{
		{"divergence", shiftP, shiftQ},
		{"test", "--permutations", "100", "--format", "csv", shiftP, shiftQ},
		{"rank", "--target", "y", "--k", "50", "--m", "1000", regression},
	} {
		_, a, _ := run(t, args...)
		_, b, _ := run(t, args...)
		if a != b {
			t.Errorf("%v: two runs differ:\n%s\n%s", args, a, b)
		}
		_, c, _ := run(t, append(args, "--seed", "7")...)
		if c == a {
			t.Errorf("%v: --seed 7 printed the same as the default seed", args)
		}
	}
}

func TestFlagsAnywhere(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t) // flag parsing, single-threaded, checked by the run without the detector
	// Options before, between and after the files; "--" ends them.
	_, want, _ := run(t, "divergence", "--k", "50", shiftP, shiftQ)
	for _, args := range [][]string{
		{"divergence", shiftP, shiftQ, "--k", "50"},
		{"divergence", shiftP, "--k=50", shiftQ},
		{"divergence", "--k", "50", "--", shiftP, shiftQ},
	} {
		if code, got, errs := run(t, args...); code != 0 || got != want {
			t.Errorf("%v: code %d, stderr %q, output differs", args, code, errs)
		}
	}
}

func TestStdinInput(t *testing.T) {
	t.Parallel()
	p, err := os.ReadFile(shiftP)
	if err != nil {
		t.Fatal(err)
	}
	_, want, _ := run(t, tunedUnlessRace("divergence", shiftP, shiftQ)...)
	code, got, errs := runStdin(t, string(p), tunedUnlessRace("divergence", "-", shiftQ)...)
	if code != 0 {
		t.Fatalf("code %d: %s", code, errs)
	}
	if strings.Replace(got, "<stdin>", shiftP, 1) != want {
		t.Errorf("stdin:\n%s\nfile:\n%s", got, want)
	}
}

func TestRatioOut(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "w.csv")
	code, _, errs := run(t, tunedUnlessRace("pe", "--group", "group", "--numerator", "A", "--denominator", "ctl", "--standardize", "--ratio-out", out, groups)...)
	if code != 0 {
		t.Fatalf("code %d: %s", code, errs)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(bufio.NewReader(f)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(recs[0], ","); got != "file,line,group,a,b,ratio" {
		t.Errorf("header %q", got)
	}
	if len(recs) != 1501 {
		t.Fatalf("%d rows, want one per input row (1500) and a header", len(recs)-1)
	}
	// The relative ratio lies in [0, 1/α] = [0, 2]; it is higher on
	// average for the numerator group A than for the denominator ctl.
	mean := map[string]float64{}
	for _, r := range recs[1:] {
		v, err := strconv.ParseFloat(r[5], 64)
		if err != nil || v < 0 || v > 2.5 {
			t.Fatalf("ratio %q", r[5])
		}
		mean[r[2]] += v / 500
	}
	if !(mean["A"] > mean["ctl"]) {
		t.Errorf("mean ratio A %v, ctl %v", mean["A"], mean["ctl"])
	}
	if code, _, errs := runStdin(t, "x\n1\n2\n", "pe", "--ratio-out", out, "-", shiftQ); code != exitUsage || !strings.Contains(errs, "standard input") {
		t.Errorf("--ratio-out with stdin: code %d, %q", code, errs)
	}
	// A failed run leaves an existing file as it was; a run that succeeds
	// replaces it.
	if err := os.WriteFile(out, []byte("old\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(out, 0o640); err != nil {
		t.Fatal(err)
	}
	bad := writeFile(t, "bad.csv", "x\n1\n2\nzz\n")
	if code, _, errs := run(t, "pe", "--ratio-out", out, bad, shiftQ); code != exitData || string(must(os.ReadFile(out))) != "old\n" {
		t.Errorf("failed run: code %d, %q; the file holds %q", code, errs, must(os.ReadFile(out)))
	}
	if code, _, errs := run(t, tunedUnlessRace("pe", "--ratio-out", out, shiftP, shiftQ)...); code != 0 || !strings.HasPrefix(string(must(os.ReadFile(out))), "file,line,x,ratio\n") {
		t.Errorf("second run: code %d, %q", code, errs)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("the file replaced lost its mode: %v %v", fi.Mode(), err)
	}
	if entries := must(os.ReadDir(filepath.Dir(out))); len(entries) != 1 {
		t.Errorf("files left behind: %v", entries)
	}
}

func TestExactReportsWhatWasUsed(t *testing.T) {
	t.Parallel()
	// --exact uses every row as a centre and averages over every row, once:
	// the k, m and draws printed say so.
	var p, q, xy strings.Builder
	p.WriteString("x\n")
	q.WriteString("x\n")
	xy.WriteString("x,y\n")
	for i := range 40 {
		fmt.Fprintf(&p, "%d\n", i%11)
		fmt.Fprintf(&q, "%d.5\n", i%7)
		fmt.Fprintf(&xy, "%d,%d\n", i, (i*i)%13)
	}
	pf, qf := writeFile(t, "p.csv", p.String()), writeFile(t, "q.csv", q.String()+"3\n")
	var v struct{ K, M, Draws, NP, NQ, N int }
	_, out, errs := run(t, "pe", "--exact", "--format", "json", pf, qf)
	if err := json.Unmarshal([]byte(strings.ReplaceAll(strings.ReplaceAll(out, `"n_p"`, `"np"`), `"n_q"`, `"nq"`)), &v); err != nil {
		t.Fatalf("%v: %s", err, errs)
	}
	if v.K != 40 || v.NP != 40 || v.NQ != 41 || v.M != 81 || v.Draws != 1 {
		t.Errorf("pe --exact: %+v", v)
	}
	_, out, errs = run(t, "mi", "--x", "x", "--y", "y", "--exact", "--format", "json", writeFile(t, "xy.csv", xy.String()))
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %s", err, errs)
	}
	if v.K != 40 || v.N != 40 || v.M != 80 || v.Draws != 1 {
		t.Errorf("mi --exact: %+v (m counts the n pairs of h and the n rows of each factor of H)", v)
	}
}

func TestProgress(t *testing.T) {
	t.Parallel()
	code, out, errs := run(t, tunedUnlessRace("test", "--permutations", "300", "--progress", "always", shiftP, shiftQ)...)
	_, quiet, qerrs := run(t, tunedUnlessRace("test", "--permutations", "300", "--progress", "never", shiftP, shiftQ)...)
	if code != 0 || out != quiet || !strings.Contains(errs, "permutations") || qerrs != "" {
		t.Errorf("progress: code %d, stdout same %v, stderr %q, quiet stderr %q", code, out == quiet, errs, qerrs)
	}
	// Under auto, a buffer is not a terminal: nothing.
	if _, _, errs := run(t, tunedUnlessRace("test", "--permutations", "50", shiftP, shiftQ)...); errs != "" {
		t.Errorf("auto on a buffer: %q", errs)
	}
}

func TestPlots(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t) // single-threaded rendering after the estimate (internal/plots skips it too), checked by the run without the detector
	dir := t.TempDir()
	for _, tc := range []struct {
		file string
		args []string
	}{
		{"pe.png", []string{"divergence", shiftP, shiftQ}},
		{"pe2.svg", []string{"divergence", "--group", "group", "--numerator", "B", "--denominator", "ctl", groups}},
		{"test.svg", []string{"test", "--permutations", "50", shiftP, shiftQ}},
		{"mi.png", []string{"mi", "--x", "x1", "--y", "y", "--permutations", "20", "--k", "50", "--m", "1000", regression}},
		{"rank.png", []string{"rank", "--target", "y", "--k", "50", "--m", "1000", regression}},
	} {
		path := filepath.Join(dir, tc.file)
		code, _, errs := run(t, append(tc.args, "--plot", path)...)
		if code != 0 {
			t.Errorf("%v: code %d, %s", tc.args, code, errs)
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil || len(b) < 100 {
			t.Errorf("%s: %v, %d bytes", tc.file, err, len(b))
		}
	}
	if code, _, errs := run(t, "divergence", "--plot", filepath.Join(dir, "x.jpg"), shiftP, shiftQ); code != exitUsage || !strings.Contains(errs, ".png or .svg") {
		t.Errorf("--plot x.jpg: code %d, %q", code, errs)
	}
	if code, _, errs := run(t, "mi", "--x", "x1", "--y", "y", "--plot", filepath.Join(dir, "m.png"), regression); code != exitUsage || !strings.Contains(errs, "--permutations") {
		t.Errorf("mi --plot without permutations: code %d, %q", code, errs)
	}
}

func TestZeroMeansTheDefault(t *testing.T) {
	testtier.SkipUnderRace(t) // statistical arithmetic through the command, checked by the run without the detector
	// A flag's zero asks for the default, as the zero of its field in Go:
	// the output is the same bytes as without the flag.
	t.Parallel()
	var p, q strings.Builder
	p.WriteString("x\n")
	q.WriteString("x\n")
	for i := range 60 {
		fmt.Fprintf(&p, "%d\n", i%11)
		fmt.Fprintf(&q, "%d.5\n", i%7)
	}
	pf, qf := writeFile(t, "p.csv", p.String()), writeFile(t, "q.csv", q.String())
	for _, tc := range []struct{ zero, plain []string }{
		{[]string{"pe", "--k", "0", "--m", "0", "--draws", "0", "--folds", "0", pf, qf}, []string{"pe", pf, qf}},
		{[]string{"test", "--permutations", "0", "--m", "200", pf, qf}, []string{"test", "--m", "200", pf, qf}},
		{[]string{"rank", "--target", "y", "--permutations", "0", "--k", "0", "--m", "500", regression}, []string{"rank", "--target", "y", "--m", "500", regression}},
	} {
		code, zero, errs := run(t, tc.zero...)
		_, plain, _ := run(t, tc.plain...)
		if code != 0 || zero != plain {
			t.Errorf("%v: code %d, stderr %q, output\n%s\nwithout the zeros\n%s", tc.zero, code, errs, zero, plain)
		}
	}
}
