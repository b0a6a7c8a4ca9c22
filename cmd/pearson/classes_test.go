// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestClassTarget runs rank and mi on a target of class labels 0, 1, 2:
// detected as categorical by default, scored with the delta kernel, the
// informative feature first; --target-type numeric and --y-type numeric
// turn the detection off; a bad value or --sigma-y with categorical is a
// usage error.
func TestClassTarget(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(3, 3))
	var b strings.Builder
	b.WriteString("noise,signal,class\n")
	for range 600 {
		c := rnd.IntN(3)
		fmt.Fprintf(&b, "%.4f,%.4f,%d\n", rnd.NormFloat64(), float64(c)-1+rnd.NormFloat64(), c)
	}
	path := writeFile(t, "classes.csv", b.String())
	type ranked struct {
		Features []struct {
			Feature string  `json:"feature"`
			SigmaY  float64 `json:"sigma_y"`
		} `json:"features"`
		TargetType string `json:"target_type"`
	}
	for _, c := range []struct {
		args      []string
		want      string
		classSigY bool
	}{
		{nil, "categorical", true},
		{[]string{"--target-type", "categorical"}, "categorical", true},
		{[]string{"--target-type", "numeric"}, "numeric", false},
	} {
		code, out, stderr := run(t, append(append([]string{"rank", "--target", "class", "--format", "json", "--k", "30", "--m", "600"}, c.args...), path)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		var r ranked
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: %v\n%s", c.args, err, out)
		}
		if r.TargetType != c.want || r.Features[0].Feature != "signal" || (r.Features[0].SigmaY == 0.01) != c.classSigY {
			t.Errorf("%v: target_type %q, first %q with σy %v; want %q, signal", c.args, r.TargetType, r.Features[0].Feature, r.Features[0].SigmaY, c.want)
		}
	}
	code, out, stderr := run(t, "mi", "--x", "signal", "--y", "class", "--format", "json", "--k", "30", "--m", "600", path)
	if code != 0 || !strings.Contains(out, `"y_type":"categorical"`) || !strings.Contains(out, `"sigma_y":0.01`) {
		t.Errorf("mi on the class column: exit %d, %s%s", code, out, stderr)
	}
	for _, args := range [][]string{
		{"rank", "--target", "class", "--target-type", "classes", path},
		{"rank", "--target", "class", "--target-type", "categorical", "--sigma-y", "1", path},
		{"mi", "--x", "noise", "--y", "signal,class", "--y-type", "categorical", path},
	} {
		if code, _, stderr := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage): %s", args, code, stderr)
		}
	}
}

// classFiles writes the same rows of a feature that depends on a class,
// a noise column and the class, as integers 0, 1, 2 and as text labels
// (with white space around some, which the reader trims), n rows each.
func classFiles(t *testing.T, n int) (ints, words string) {
	rnd := rand.New(rand.NewPCG(13, 13))
	names := []string{"setosa", " versicolor", "virginica "}
	var bi, bw strings.Builder
	bi.WriteString("noise,signal,class\n")
	bw.WriteString("noise,signal,class\n")
	for range n {
		c := rnd.IntN(3)
		a, b := rnd.NormFloat64(), float64(c)-1+rnd.NormFloat64()
		fmt.Fprintf(&bi, "%.4f,%.4f,%d\n", a, b, c)
		fmt.Fprintf(&bw, "%.4f,%.4f,%s\n", a, b, names[c])
	}
	return writeFile(t, "ints.csv", bi.String()), writeFile(t, "words.csv", bw.String())
}

// miJSON is what TestTextClasses reads of mi's JSON output.
type miJSON struct {
	SMI     float64  `json:"smi"`
	StdErr  float64  `json:"stderr"`
	SigmaX  float64  `json:"sigma_x"`
	SigmaY  float64  `json:"sigma_y"`
	Lambda  float64  `json:"lambda"`
	YType   string   `json:"y_type"`
	Classes []string `json:"classes"`
	Read    string   `json:"read"`
}

func runMI(t *testing.T, stdin string, args ...string) miJSON {
	t.Helper()
	code, out, stderr := runStdin(t, stdin, append([]string{"mi", "--format", "json", "--k", "30", "--m", "300", "--draws", "3"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	var r miJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return r
}

// TestTextClasses checks that a target of text labels is read as classes:
// the same rows labelled by integers and by words give the same estimate to
// the last bit (both are coded by divergence.ClassCodes in the order of
// first appearance in the sample, so the names of the classes cannot
// matter), from a file and from standard input, and in a rank, with the
// classes named in the output.
func TestTextClasses(t *testing.T) {
	t.Parallel()
	ints, words := classFiles(t, 400)
	a := runMI(t, "", "--x", "signal", "--y", "class", ints)
	b := runMI(t, "", "--x", "signal", "--y", "class", words)
	if a.YType != "categorical" || b.YType != "categorical" {
		t.Fatalf("y_type %q and %q, want categorical", a.YType, b.YType)
	}
	if a.SMI != b.SMI || a.StdErr != b.StdErr || a.SigmaX != b.SigmaX || a.Lambda != b.Lambda || b.SigmaY != 0.01 {
		t.Errorf("integer labels %+v, text labels %+v: want the same estimate", a, b)
	}
	if len(a.Classes) != 3 || len(b.Classes) != 3 {
		t.Fatalf("classes %q and %q, want 3", a.Classes, b.Classes)
	}
	for i, c := range b.Classes {
		want := map[string]string{"0": "setosa", "1": "versicolor", "2": "virginica"}[a.Classes[i]]
		if c != want {
			t.Errorf("text classes %q for integer classes %q", b.Classes, a.Classes)
			break
		}
	}
	data, err := os.ReadFile(words)
	if err != nil {
		t.Fatal(err)
	}
	if c := runMI(t, string(data), "--x", "signal", "--y", "class", "-"); c.SMI != b.SMI {
		t.Errorf("standard input: smi %v, file %v", c.SMI, b.SMI)
	}
	// Categorical forced on text labels, and rank's default selection,
	// which keeps a text target beside the numeric features.
	if c := runMI(t, "", "--x", "signal", "--y", "class", "--y-type", "categorical", words); c.SMI != b.SMI {
		t.Errorf("--y-type categorical: smi %v, auto %v", c.SMI, b.SMI)
	}
	// The README's example.
	code, out, stderr := run(t, "rank", "--target", "species", "--format", "csv", filepath.Join("..", "..", "testdata", "classes.csv"))
	if rows := strings.Split(out, "\n"); code != 0 || len(rows) < 4 || !strings.HasPrefix(rows[1], "1,width,") || !strings.HasPrefix(rows[3], "3,noise,") {
		t.Errorf("rank on testdata/classes.csv: exit %d, %s%s", code, out, stderr)
	}
	code, out, stderr = run(t, "rank", "--target", "class", "--format", "json", "--k", "30", "--m", "300", "--draws", "3", words)
	if code != 0 || !strings.Contains(out, `"target_type":"categorical"`) || !strings.Contains(out, `"classes":[`) ||
		strings.Index(out, `"feature":"signal"`) > strings.Index(out, `"feature":"noise"`) || strings.Contains(out, `"feature":"class"`) {
		t.Errorf("rank on text labels: exit %d, %s%s", code, out, stderr)
	}
}

// TestTextClassesSampled reads a text target from a file large enough to be
// sampled by seeking, and from Parquet, a string column (sampled in units).
func TestTextClassesSampled(t *testing.T) {
	t.Parallel()
	_, words := classFiles(t, 20000)
	if r := runMI(t, "", "--x", "signal", "--y", "class", "--reservoir", "400", words); r.Read != "sampled" || r.YType != "categorical" || len(r.Classes) != 3 || r.SMI < 0.05 {
		t.Errorf("sampled text labels: %+v", r)
	}
}

// TestParquetTextClasses reads a Parquet string column as class labels:
// mi's y, rank's target by name and by the default selection, which reads
// the numeric columns beside it; nulls in the other columns fail as in a
// numeric read, or are dropped with --drop-missing.
func TestParquetTextClasses(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "..", "testdata", "parquet", "mixed.parquet")
	r := runMI(t, "", "--x", "level", "--y", "grp", path)
	if r.YType != "categorical" || len(r.Classes) != 2 || !slices.Contains(r.Classes, "ctl") || !slices.Contains(r.Classes, "trt") {
		t.Errorf("Parquet string column: %+v", r)
	}
	if code, _, stderr := run(t, "mi", "--x", "x", "--y", "grp", path); code != exitData || !strings.Contains(stderr, "--drop-missing") {
		t.Errorf("Parquet nulls without --drop-missing: exit %d: %s", code, stderr)
	}
	if r := runMI(t, "", "--x", "x", "--y", "grp", "--drop-missing", path); r.YType != "categorical" {
		t.Errorf("Parquet nulls dropped: %+v", r)
	}
	code, out, stderr := run(t, "rank", "--target", "grp", "--format", "json", "--k", "30", "--m", "300", "--draws", "3", "--drop-missing", path)
	if code != 0 || !strings.Contains(out, `"target_type":"categorical"`) || !strings.Contains(out, `"feature":"level"`) || !strings.Contains(out, `"categorical_x":["color"]`) {
		t.Errorf("rank on a Parquet string target: exit %d, %s%s", code, out, stderr)
	}
	if code, _, stderr := run(t, "mi", "--x", "level", "--y", "grp", "--y-type", "numeric", path); code != exitData || !strings.Contains(stderr, "--y-type categorical") {
		t.Errorf("numeric forced on a Parquet string column: exit %d: %s", code, stderr)
	}
}

// TestTextClassErrors checks the errors of text targets: more labels than
// auto takes, met as soon as the read reaches the first label beyond
// (allowed with categorical, up to the rows kept), numeric forced on text,
// a width on text labels, and an empty label, which is missing as an empty
// number is.
func TestTextClassErrors(t *testing.T) {
	t.Parallel()
	var many, empty strings.Builder
	many.WriteString("x,label\n")
	empty.WriteString("x,label\n")
	for i := range 60 {
		fmt.Fprintf(&many, "%d,c%d\n", i, i%25)
		l := []string{"cat", "dog", ""}[i%3]
		fmt.Fprintf(&empty, "%d,%s\n", i, l)
	}
	mpath, epath := writeFile(t, "many.csv", many.String()), writeFile(t, "empty.csv", empty.String())
	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"mi", "--x", "x", "--y", "label", mpath}, exitData, []string{mpath, "line 22", `"label"`, `"c20"`, "20 distinct", "--y-type categorical"}},
		{[]string{"rank", "--target", "label", mpath}, exitData, []string{`"label"`, "20 distinct", "--target-type categorical"}},
		{[]string{"mi", "--x", "x", "--y", "label", "--y-type", "categorical", "--reservoir", "22", mpath}, exitData, []string{"line 24", `"c22"`, "22 distinct", "--reservoir"}},
		{[]string{"mi", "--x", "x", "--y", "label", "--y-type", "categorical", "--k", "10", "--m", "40", mpath}, exitOK, nil},
		{[]string{"mi", "--x", "x", "--y", "label", "--y-type", "numeric", mpath}, exitData, []string{"cannot parse", "--y-type categorical"}},
		{[]string{"rank", "--target", "label", "--target-type", "numeric", "--features", "x", mpath}, exitData, []string{"--target-type categorical"}},
		{[]string{"mi", "--x", "x", "--y", "label", "--sigma-y", "1", "--drop-missing", epath}, exitUsage, []string{"text labels", "--sigma-y"}},
		{[]string{"mi", "--x", "x", "--y", "label", epath}, exitData, []string{"empty cell", "label"}},
		{[]string{"mi", "--x", "x", "--y", "label", "--drop-missing", "--k", "10", "--m", "30", epath}, exitOK, []string{"dropped 20 rows"}},
	} {
		code, _, stderr := run(t, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d: %s", c.args, code, c.code, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: standard error %q lacks %q", c.args, stderr, w)
			}
		}
	}
}
