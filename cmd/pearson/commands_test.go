// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
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
		for _, format := range []string{"text", "json", "csv"} {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				code, out, errs := run(t, append(tc.args, "--format", format)...)
				if code != 0 || errs != "" {
					t.Fatalf("code %d, stderr %q", code, errs)
				}
				if format == "json" {
					out = withoutTiming(t, out)
				}
				golden(t, tc.name+"."+format, out)
			})
		}
	}
}

func TestJSONContract(t *testing.T) {
	// The keys scripts rely on, per command.
	for _, tc := range []struct {
		args []string
		keys []string
	}{
		{[]string{"divergence", shiftP, shiftQ}, []string{"pe", "stderr", "alpha", "sigma", "lambda", "k", "m", "n_p", "n_q", "seed", "warnings", "timing"}},
		{[]string{"test", "--permutations", "50", shiftP, shiftQ}, []string{"pe", "stderr", "alpha", "sigma", "lambda", "k", "m", "n_p", "n_q", "seed", "warnings", "timing", "p_value", "permutations"}},
		{[]string{"mi", "--x", "x1", "--y", "y", "--k", "50", "--m", "1000", regression}, []string{"smi", "stderr", "sigma_x", "sigma_y", "lambda", "k", "m", "n", "seed", "warnings", "timing"}},
		{[]string{"mi", "--x", "x1", "--y", "y", "--permutations", "20", "--k", "50", "--m", "1000", regression}, []string{"smi", "p_value", "permutations"}},
		{[]string{"rank", "--target", "y", "--k", "50", "--m", "1000", regression}, []string{"target", "features"}},
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
	p, err := os.ReadFile(shiftP)
	if err != nil {
		t.Fatal(err)
	}
	_, want, _ := run(t, "divergence", shiftP, shiftQ)
	code, got, errs := runStdin(t, string(p), "divergence", "-", shiftQ)
	if code != 0 {
		t.Fatalf("code %d: %s", code, errs)
	}
	if strings.Replace(got, "<stdin>", shiftP, 1) != want {
		t.Errorf("stdin:\n%s\nfile:\n%s", got, want)
	}
}

func TestRatioOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w.csv")
	code, _, errs := run(t, "pe", "--group", "group", "--numerator", "A", "--denominator", "ctl", "--standardize", "--ratio-out", out, groups)
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
}

func TestProgress(t *testing.T) {
	code, out, errs := run(t, "test", "--permutations", "300", "--progress", "always", shiftP, shiftQ)
	_, quiet, qerrs := run(t, "test", "--permutations", "300", "--progress", "never", shiftP, shiftQ)
	if code != 0 || out != quiet || !strings.Contains(errs, "permutations") || qerrs != "" {
		t.Errorf("progress: code %d, stdout same %v, stderr %q, quiet stderr %q", code, out == quiet, errs, qerrs)
	}
	// Under auto, a buffer is not a terminal: nothing.
	if _, _, errs := run(t, "test", "--permutations", "50", shiftP, shiftQ); errs != "" {
		t.Errorf("auto on a buffer: %q", errs)
	}
}

func TestPlots(t *testing.T) {
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

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := file("good.csv", "x,y\n1,2\n2,3\n3,5\n4,4\n5,7\n6,1\n7,3\n8,8\n9,2\n10,6\n11,5\n12,9\n")
	for _, tc := range []struct {
		name string
		args []string
		code int
		text []string
	}{
		{"non-numeric", []string{"pe", file("a.csv", "x\n1\n2\nabc\n"), good}, exitData, []string{"a.csv", "line 4", `"x"`, `"abc"`}},
		{"empty cell", []string{"pe", file("b.csv", "x,z\n1,2\n,3\n4,5\n"), good, "--columns", "x"}, exitData, []string{"b.csv", "line 3", `"x"`, "empty"}},
		{"NaN", []string{"pe", file("c.csv", "x\n1\nNaN\n"), good}, exitData, []string{"c.csv", "line 3", "NaN"}},
		{"Inf", []string{"pe", file("d.csv", "x\n1\n-Inf\n"), good}, exitData, []string{"d.csv", "line 3"}},
		{"ragged", []string{"mi", "--x", "x", "--y", "y", file("e.csv", "x,y\n1,2\n3\n")}, exitData, []string{"e.csv", "line 3"}},
		{"unknown column", []string{"mi", "--x", "x", "--y", "w", good}, exitData, []string{"good.csv", `"w"`}},
		{"one group", []string{"pe", "--group", "g", file("f.csv", "g,x\nA,1\nA,2\nA,3\n")}, exitData, []string{"f.csv", `"g"`, "single value"}},
		{"three groups", []string{"pe", "--group", "group", groups}, exitUsage, []string{"3 values", "--numerator"}},
		{"no such group", []string{"pe", "--group", "group", "--numerator", "Z", "--denominator", "A", groups}, exitData, []string{`"Z"`, "no such value"}},
		{"missing file", []string{"pe", filepath.Join(dir, "nope.csv"), good}, exitData, []string{"nope.csv"}},
		{"no inputs", []string{"pe"}, exitUsage, []string{"missing input"}},
		{"group and two files", []string{"pe", "--group", "g", good, good}, exitUsage, []string{"single input file"}},
		{"one file no group", []string{"pe", good}, exitUsage, []string{"--group"}},
		{"k = 0", []string{"pe", "--k", "0", good, good}, exitUsage, []string{"--k 0"}},
		{"alpha = 1", []string{"pe", "--alpha", "1", good, good}, exitUsage, []string{"--alpha 1"}},
		{"sigma < 0", []string{"pe", "--sigma", "-1", good, good}, exitUsage, []string{"--sigma -1"}},
		{"folds = 1", []string{"pe", "--folds", "1", good, good}, exitUsage, []string{"--folds 1"}},
		{"permutations = 0", []string{"test", "--permutations", "0", good, good}, exitUsage, []string{"--permutations 0"}},
		{"bad format", []string{"rank", "--target", "y", "--format", "xml", good}, exitUsage, []string{`"xml"`}},
		{"bad progress", []string{"rank", "--target", "y", "--progress", "maybe", good}, exitUsage, []string{`"maybe"`}},
		{"x and y overlap", []string{"mi", "--x", "x", "--y", "x", good}, exitUsage, []string{"both --x and --y"}},
		{"target missing", []string{"rank", good}, exitUsage, []string{"--target"}},
		{"target unknown", []string{"rank", "--target", "q", good}, exitData, []string{`"q"`}},
		{"constant", []string{"mi", "--x", "x", "--y", "y", file("g.csv", "x,y\n1,1\n1,2\n1,3\n1,4\n1,5\n1,6\n1,7\n1,8\n1,9\n1,10\n1,11\n1,12\n")}, exitData, []string{"constant"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != tc.code || out != "" {
				t.Errorf("code %d, stdout %q, stderr %q; want code %d and nothing on stdout", code, out, errs, tc.code)
			}
			for _, w := range tc.text {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q lacks %q", errs, w)
				}
			}
			if strings.Contains(errs, "goroutine ") || strings.Contains(errs, "panic:") {
				t.Errorf("panic on stderr: %s", errs)
			}
		})
	}
	// --drop-missing skips the row and says so on stderr.
	code, out, errs := run(t, "pe", "--drop-missing", "--columns", "x", file("h.csv", "x,z\n1,2\n,3\n4,5\n6,1\n7,1\n8,1\n9,1\n10,1\n11,1\n12,1\n13,1\n14,1\n"), good, "--format", "json")
	if code != 0 || !strings.Contains(errs, "dropped 1 rows") || !strings.Contains(out, `"n_p":11`) {
		t.Errorf("--drop-missing: code %d, stderr %q, stdout %s", code, errs, out)
	}
}

func TestReproduceCommand(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, "reproduce", "--quick", "--experiment", "toy", "--seeds", "2", "--out", dir)
	if code != 0 || !strings.Contains(out, "Figure 1") || !strings.Contains(errs, "figure1.png") {
		t.Errorf("code %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, errs := run(t, "reproduce", "--experiment", "figure9"); code != exitUsage || !strings.Contains(errs, "figure9") {
		t.Errorf("unknown experiment: code %d, %q", code, errs)
	}
}
