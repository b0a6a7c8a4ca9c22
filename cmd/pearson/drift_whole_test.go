// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/drift"
	"github.com/sublinear/pearson/tabular"
)

// TestDriftAllRows runs the command on tables of 40 000 rows, more than
// its sample of 32 800: the second pass must count every row (rows_ref
// exact), and each column's p_all_rows must be at most the Bonferroni
// bound 3·p of Welch's z-test on every row, computed here from the values
// (the whole-data p is three times the smallest of its mean, scale and KS
// tests): a shift of 0.05 sd, which Welch sees at z ≈ 7, is found; the
// categorical column is tested on every row too. And a Go caller reading
// the files through tabular.ReadDrift (second pass included) and comparing
// them with drift's settings the flags map to gets the command's numbers,
// bit for bit: the second pass is the library's, not the command's.
func TestDriftAllRows(t *testing.T) {
	t.Parallel()
	const n = 40_000
	rnd := rand.New(rand.NewPCG(8, 9))
	dir := t.TempDir()
	var paths []string
	vals := make([][]float64, 2)
	for ti := range 2 {
		var b strings.Builder
		b.WriteString("a,c\n")
		vals[ti] = make([]float64, n)
		for i := range n {
			vals[ti][i] = rnd.NormFloat64() + 0.05*float64(ti)
			fmt.Fprintf(&b, "%.6f,%c\n", vals[ti][i], 'p'+rune(rnd.IntN(3)))
		}
		path := filepath.Join(dir, fmt.Sprintf("t%d.csv", ti))
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	code, out, errs := driftRun(t, "--no-joint", "--format", "json", paths[0], paths[1])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res struct {
		RowsRef int `json:"rows_ref"`
		RowsCur int `json:"rows_cur"`
		Columns []struct {
			Column     string
			Drifted    bool
			P          *float64 `json:"p_all_rows"`
			Divergence float64
			PValue     *float64 `json:"p_value"`
			QValue     *float64 `json:"q_value"`
			Shift      *float64 `json:"shift_sd"`
			W1         *float64 `json:"w1_sd"`
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.RowsRef != n {
		t.Errorf("rows_ref %d, want the exact %d", res.RowsRef, n)
	}
	m0, s0 := stat.MeanStdDev(vals[0], nil)
	m1, s1 := stat.MeanStdDev(vals[1], nil)
	welch := math.Erfc(math.Abs(m1-m0) / math.Sqrt((s0*s0+s1*s1)/n) / math.Sqrt2)
	for _, c := range res.Columns {
		switch {
		case c.P == nil:
			t.Errorf("column %s: no p_all_rows", c.Column)
		case c.Column == "a" && (*c.P > 2*welch*(1+1e-6) || !c.Drifted):
			t.Errorf("column a: p_all_rows %v, above 2 × Welch's %v, or not drifted (%v)", *c.P, welch, c.Drifted)
		}
	}
	lib := goCallerDrift(t, paths[0], paths[1])
	if len(lib.Columns) != len(res.Columns) {
		t.Fatalf("the library compared %d columns, the command %d", len(lib.Columns), len(res.Columns))
	}
	num := func(p *float64) float64 {
		if p == nil {
			return math.NaN()
		}
		return *p
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for i, c := range lib.Sorted() {
		cc := res.Columns[i]
		got := []float64{c.Divergence, c.PValue, c.QValue, allRowsP(&c), c.Shift, c.Wasserstein, float64(c.RowsRef), float64(c.RowsCur)}
		want := []float64{cc.Divergence, num(cc.PValue), num(cc.QValue), num(cc.P), num(cc.Shift), num(cc.W1), float64(res.RowsRef), float64(res.RowsCur)}
		for k := range got {
			if c.Name != cc.Column || !same(got[k], want[k]) || c.Drifted != cc.Drifted {
				t.Errorf("column %s: the library gives %v (drifted %v), the command %s %v (drifted %v)", c.Name, got, c.Drifted, cc.Column, want, cc.Drifted)
				break
			}
		}
	}
}

// goCallerDrift compares the tables at refPath and curPath as a Go caller
// does, with the settings driftRun's flags (fast, --no-joint) and the
// default seed map to: tabular.ReadDrift for each file (the reference's
// tallies from its sample, the current one's like them), then the
// reference's Compare.
func goCallerDrift(t *testing.T, refPath, curPath string) *drift.Result {
	t.Helper()
	ctx := context.Background()
	s := &drift.Settings{
		Settings:     divergence.Settings{K: 30, M: 150, Draws: 3, Src: rand.NewPCG(1, 0x70656172736f6e)},
		Points:       150,
		Permutations: 199,
		Exceedances:  10,
		NoJoint:      true,
	}
	read := func(path string, like func(string) *drift.Tally) []drift.Column {
		src, err := dataset.Open(path, dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		dt, err := tabular.ReadDrift(ctx, src, tabular.DriftRead{
			Sampling: dataset.Sampling{Size: s.SampleSize(), Src: rand.NewPCG(1, 0x72657365727665), Seek: true},
			Like:     like,
		})
		if err != nil {
			t.Fatal(err)
		}
		if dt.Note != "" {
			t.Fatalf("%s: %s", path, dt.Note)
		}
		return dt.Columns(0)
	}
	ref, err := drift.NewReference(read(refPath, nil), s)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ref.Compare(ctx, read(curPath, ref.Tally), s)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
