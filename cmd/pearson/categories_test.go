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
	"strconv"
	"strings"
	"testing"

	"github.com/sublinear/pearson/dataset/datasettest"
	"github.com/sublinear/pearson/internal/testtier"
	"github.com/sublinear/pearson/tabular"
)

// personRow is a row of the mixed tables of the categorical-feature tests:
// a text column, a boolean column and two numeric ones.
type personRow struct {
	Country string  `parquet:"country"`
	Member  bool    `parquet:"member"`
	Age     float64 `parquet:"age"`
	Score   float64 `parquet:"score"`
}

// people draws n rows in which score depends on country strongly, on age a
// little and not on member.
func people(n int, shift float64, rnd *rand.Rand) []personRow {
	countries := []string{"FR", "DE", "IT"}
	effect := []float64{0, 1, -1}
	rows := make([]personRow, n)
	for i := range rows {
		c := rnd.IntN(len(countries))
		if rnd.Float64() < shift { // a Q with more DE
			c = 1
		}
		age := 40 + 10*rnd.NormFloat64()
		rows[i] = personRow{countries[c], rnd.IntN(2) == 1, age, effect[c] + 0.02*age + 0.5*rnd.NormFloat64() + shift}
	}
	return rows
}

// writePeople writes rows as CSV and as Parquet (one row group) in a
// temporary directory and returns both paths.
func writePeople(t *testing.T, name string, rows []personRow) (csvPath, parquetPath string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("country,member,age,score\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%s,%t,%s,%s\n", r.Country, r.Member, strconv.FormatFloat(r.Age, 'g', -1, 64), strconv.FormatFloat(r.Score, 'g', -1, 64))
	}
	csvPath = filepath.Join(t.TempDir(), name+".csv")
	if err := os.WriteFile(csvPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return csvPath, datasettest.WriteParquet(t, name+".parquet", datasettest.Groups(rows, len(rows)))
}

// TestCategoricalFeatures: rank, mi and divergence take text and boolean
// columns as categories, the same from CSV and from Parquet, and say so.
func TestCategoricalFeatures(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t) // statistical arithmetic through the command, checked by the run without the detector
	rnd := rand.New(rand.NewPCG(5, 6))
	pc, pp := writePeople(t, "p", people(1500, 0, rnd))
	qc, qp := writePeople(t, "q", people(1500, 0.3, rnd))
	type ranked struct {
		Categorical []string `json:"categorical_x"`
		Features    []struct {
			Feature string   `json:"feature"`
			SMI     float64  `json:"smi"`
			SigmaX  *float64 `json:"sigma_x"`
		} `json:"features"`
	}
	var got []string
	for _, path := range []string{pc, pp} {
		code, out, stderr := run(t, "rank", "--format", "json", "--target", "score", "--features", "country,age,member", path)
		if code != 0 {
			t.Fatalf("rank %s: exit %d: %s", path, code, stderr)
		}
		var r ranked
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.Categorical, []string{"country", "member"}) || r.Features[0].Feature != "country" {
			t.Errorf("rank %s: categorical %v, ranking %+v: want country and member categorical, country first", path, r.Categorical, r.Features)
		}
		for _, f := range r.Features {
			if (f.SigmaX == nil) != (f.Feature != "age") {
				t.Errorf("rank %s: %s has sigma_x %v: want n/a for categories only", path, f.Feature, f.SigmaX)
			}
		}
		got = append(got, out[:strings.Index(out, `"timing"`)]+out[strings.Index(out, `"features"`):])
	}
	if got[0] != got[1] {
		t.Errorf("rank: CSV and Parquet differ:\n%s\n%s", got[0], got[1])
	}

	got = got[:0]
	for _, args := range [][]string{{"divergence", pc, qc}, {"divergence", pp, qp}, {"test", "--permutations", "50", pc, qc}} {
		code, out, stderr := run(t, append([]string{args[0], "--format", "json", "--columns", "country,age"}, args[1:]...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var r struct {
			PE          float64  `json:"pe"`
			Categorical []string `json:"categorical"`
			PValue      *float64 `json:"p_value"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.Categorical, []string{"country"}) {
			t.Errorf("%v: categorical %v, want [country]", args, r.Categorical)
		}
		if r.PValue != nil && *r.PValue > 0.05 {
			t.Errorf("%v: p = %v for a shift in the country shares", args, *r.PValue)
		}
		got = append(got, fmt.Sprint(r.PE))
	}
	if got[0] != got[1] {
		t.Errorf("divergence: CSV %s and Parquet %s differ", got[0], got[1])
	}

	code, out, stderr := run(t, "mi", "--x", "country,age", "--y", "score", pc)
	if code != 0 || !strings.Contains(out, "categorical_x  country") {
		t.Errorf("mi: exit %d: %s%s", code, out, stderr)
	}
}

// TestCategoricalBound: a feature column of more than
// divergence.MaxCategories labels (or, beside a target that may hold class
// labels, more than the target's bound) is refused, naming the column.
func TestCategoricalBound(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("id,x,y\n")
	for i := range 300 {
		fmt.Fprintf(&b, "u%d,%d,%d\n", i, i%7, i%5)
	}
	path := writeFile(t, "ids.csv", b.String())
	for _, args := range [][]string{
		{"rank", "--target", "y", "--features", "id,x", path},
		{"mi", "--x", "id,x", "--y", "y", path},
		{"divergence", "--columns", "id,x", path, path},
	} {
		code, _, stderr := run(t, args...)
		if code == 0 || !strings.Contains(stderr, `"id"`) || !strings.Contains(stderr, "at most") {
			t.Errorf("%v: exit %d, %s: want a refusal naming the column and the limit", args, code, stderr)
		}
	}
}

// withoutJSONTiming returns a JSON output without its "timing" member.
func withoutJSONTiming(s string) string {
	i := strings.Index(s, `"timing":{`)
	if i < 0 {
		return s
	}
	j := strings.Index(s[i:], "}")
	return s[:i] + s[i+j+1:]
}

// TestDefaultTakesText: with no --columns or --features, divergence, test
// and rank take the text and boolean columns as categories, from CSV and
// Parquet alike, as they take them named: the outputs are those of the
// columns named in header order. A column of text that tells the rows
// apart (an identifier) is left out with a warning naming --exclude, both
// when it holds more labels than a category column may and when its
// labels are fewer but nearly one per row.
func TestDefaultTakesText(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t) // statistical arithmetic through the command, checked by the run without the detector
	rnd := rand.New(rand.NewPCG(7, 8))
	pc, pp := writePeople(t, "p", people(1000, 0, rnd))
	qc, _ := writePeople(t, "q", people(1000, 0.3, rnd))
	for _, tc := range [][2][]string{
		{{"rank", "--target", "score", "--permutations", "20", pc}, {"rank", "--target", "score", "--permutations", "20", "--features", "country,member,age", pc}},
		{{"rank", "--target", "score", pp}, {"rank", "--target", "score", "--features", "country,member,age", pp}},
		{{"divergence", pc, qc}, {"divergence", "--columns", "country,member,age,score", pc, qc}},
		{{"test", "--permutations", "20", pc, qc}, {"test", "--permutations", "20", "--columns", "country,member,age,score", pc, qc}},
	} {
		var outs [2]string
		for i, args := range tc {
			code, out, stderr := run(t, append(args, "--format", "json")...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			outs[i] = withoutJSONTiming(out)
		}
		if outs[0] != outs[1] {
			t.Errorf("%v: the default selection differs from the columns named:\n%s\nnamed:\n%s", tc[0], outs[0], outs[1])
		}
		if !strings.Contains(outs[0], `"categorical`) || !strings.Contains(outs[0], `["country","member"]`) {
			t.Errorf("%v: country and member not said to be categories:\n%s", tc[0], outs[0])
		}
	}

	// Identifiers: u0, u1, … on 1000 rows (more labels than a category
	// column holds) and on 60 rows (fewer, one per row).
	dir := t.TempDir()
	for _, n := range []int{1000, 60} {
		var b strings.Builder
		b.WriteString("id,country,x\n")
		for i := range n {
			fmt.Fprintf(&b, "u%d,%s,%g\n", i, []string{"FR", "DE"}[i%2], rnd.NormFloat64())
		}
		path := filepath.Join(dir, fmt.Sprintf("ids%d.csv", n))
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, stderr := run(t, "divergence", "--format", "json", "--group", "country", path)
		if code != 0 {
			t.Fatalf("ids %d: exit %d: %s", n, code, stderr)
		}
		var r struct {
			Columns  []string `json:"columns"`
			Warnings []string `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.Columns, []string{"x"}) || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], `column "id" left out`) || !strings.Contains(r.Warnings[0], "--exclude id") {
			t.Errorf("ids %d: columns %v, warnings %q: want x alone and a warning naming --exclude id", n, r.Columns, r.Warnings)
		}
		code, _, stderr = run(t, "rank", "--target", "x", path)
		if code != 0 || !strings.Contains(stderr, `column "id" left out`) {
			t.Errorf("ids %d: rank: exit %d, stderr %q: want the identifier left out, said on standard error", n, code, stderr)
		}
	}

	// Seven identifiers: four are left out one read at a time, the other
	// three together, so that the reads are bounded.
	var b strings.Builder
	b.WriteString("a,b,c,d,e,f,g,country,x\n")
	for i := range 300 {
		for j := range 7 {
			fmt.Fprintf(&b, "u%d_%d,", j, i)
		}
		fmt.Fprintf(&b, "%s,%g\n", []string{"FR", "DE"}[i%2], rnd.NormFloat64())
	}
	path := filepath.Join(dir, "many.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := run(t, "divergence", "--format", "json", "--group", "country", path)
	var r struct {
		Columns  []string `json:"columns"`
		Warnings []string `json:"warnings"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
		t.Fatalf("seven identifiers: exit %d: %s", code, stderr)
	}
	if !slices.Equal(r.Columns, []string{"x"}) || len(r.Warnings) != tabular.MaxTextRereads+1 || !strings.Contains(r.Warnings[tabular.MaxTextRereads], `columns "e", "f", "g" left out`) {
		t.Errorf("seven identifiers: columns %v, warnings %q", r.Columns, r.Warnings)
	}
}
