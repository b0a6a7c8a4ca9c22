// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// TestDriftAllRows runs the command on tables of 40 000 rows, more than
// its sample of 32 800: the second pass must count every row (rows_ref
// exact), and each column's p_all_rows must be at most the Bonferroni
// bound 3·p of Welch's z-test on every row, computed here from the values
// (the whole-data p is three times the smallest of its mean, scale and KS
// tests): a shift of 0.05 sd, which Welch sees at z ≈ 7, is found; the
// categorical column is tested on every row too.
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
		Columns []struct {
			Column  string
			Drifted bool
			P       *float64 `json:"p_all_rows"`
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
		case c.Column == "a" && (*c.P > 3*welch*(1+1e-6) || !c.Drifted):
			t.Errorf("column a: p_all_rows %v, above 3 × Welch's %v, or not drifted (%v)", *c.P, welch, c.Drifted)
		}
	}
}
