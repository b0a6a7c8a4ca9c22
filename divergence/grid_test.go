// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset/datasettest"
	"github.com/sublinear/pearson/internal/testtier"
)

// readCSV reads the numeric columns named of a CSV file with a header, and
// the rows whose column key holds keep (every row when key is empty).
func readCSV(t *testing.T, path string, cols []string, key, keep string) *mat.Dense {
	t.Helper()
	recs := datasettest.ReadCSV(t, path)
	at := map[string]int{}
	for i, h := range recs[0] {
		at[h] = i
	}
	var data []float64
	n := 0
	for _, r := range recs[1:] {
		if key != "" && r[at[key]] != keep {
			continue
		}
		for _, c := range cols {
			v, err := strconv.ParseFloat(r[at[c]], 64)
			if err != nil {
				t.Fatal(err)
			}
			data = append(data, v)
		}
		n++
	}
	return mat.NewDense(n, len(cols), data)
}

// friedman1 returns n rows of Friedman's first regression problem: ten
// features uniform on [0, 1], of which the first five matter,
// y = 10 sin(π x1 x2) + 20(x3 − ½)² + 10 x4 + 5 x5 + ε, ε ~ N(0, 1).
func friedman1(n int, rnd *rand.Rand) (x, y *mat.Dense) {
	x, y = mat.NewDense(n, 10, nil), mat.NewDense(n, 1, nil)
	for i := range n {
		for j := range 10 {
			x.Set(i, j, rnd.Float64())
		}
		r := x.RawRowView(i)
		y.Set(i, 0, 10*math.Sin(math.Pi*r[0]*r[1])+20*(r[2]-0.5)*(r[2]-0.5)+10*r[3]+5*r[4]+rnd.NormFloat64())
	}
	return x, y
}

// TestNoEdgeWarnings runs the README's examples and a ranking of Friedman #1
// with the default grids, which widen themselves: cross-validation should
// find an optimum inside them, or a flat score, without a warning.
func TestNoEdgeWarnings(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t) // single-threaded arithmetic, checked by the run without the detector
	noWarnings := func(what string, w []string) {
		t.Helper()
		for _, s := range w {
			t.Errorf("%s: %s", what, s)
		}
	}
	p := readCSV(t, "../testdata/shift/P.csv", []string{"x"}, "", "")
	q := readCSV(t, "../testdata/shift/Q.csv", []string{"x"}, "", "")
	pe, err := RelativePE(ctx, p, q, DefaultAlpha, nil)
	if err != nil {
		t.Fatal(err)
	}
	noWarnings("divergence shift", pe.Warnings)

	ab := []string{"a", "b"}
	ga := readCSV(t, "../testdata/groups.csv", ab, "group", "A")
	gc := readCSV(t, "../testdata/groups.csv", ab, "group", "ctl")
	pe, err = RelativePE(ctx, ga, gc, DefaultAlpha, nil)
	if err != nil {
		t.Fatal(err)
	}
	noWarnings("divergence groups", pe.Warnings)

	feats := []string{"x1", "x2", "x3", "x4", "x5", "x6"}
	x := readCSV(t, "../testdata/regression.csv", feats, "", "")
	y := readCSV(t, "../testdata/regression.csv", []string{"y"}, "", "")
	mi, err := LSMI(ctx, x.Slice(0, 2000, 0, 1), y, nil)
	if err != nil {
		t.Fatal(err)
	}
	noWarnings("mi x1 y", mi.Warnings)
	rk, err := Rank(ctx, x, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rk.Features {
		noWarnings("rank regression "+feats[f.Column], f.Warnings)
	}

	if !testtier.Enabled() {
		return // Friedman #1 at n = 3000: the long tier
	}
	fx, fy := friedman1(3000, rand.New(rand.NewPCG(13, 1)))
	rk, err = Rank(ctx, fx, fy, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rk.Features {
		noWarnings("rank Friedman #1 x"+strconv.Itoa(f.Column+1), f.Warnings)
		t.Logf("x%d smi %.4g σx %.3g σy %.3g λ %.3g", f.Column+1, f.SMI, f.SigmaX, f.SigmaY, f.Lambda)
	}
}

// TestDefaultGridsAreCopies checks that a caller who changes a default grid
// changes its own copy only: the next call returns the grid as documented.
func TestDefaultGridsAreCopies(t *testing.T) {
	t.Parallel()
	for _, g := range []struct {
		name  string
		grid  func() []float64
		first float64
	}{
		{"DefaultSigmaScales", DefaultSigmaScales, 1.0 / 8},
		{"DefaultLambdaScales", DefaultLambdaScales, 1e-4},
		{"DefaultLSMISigmaScales", DefaultLSMISigmaScales, 1.0 / 4},
		{"DefaultLSMILambdaScales", DefaultLSMILambdaScales, 1e-7},
		{"PermutationSigmaScales", PermutationSigmaScales, 1},
	} {
		a := g.grid()
		a[0] = 24
		if b := g.grid(); math.Abs(b[0]-g.first) > 1e-15*g.first {
			t.Errorf("%s()[0] = %v after a caller changed its copy, want %v", g.name, b[0], g.first)
		}
	}
}

// TestSampleRows checks the rows rule against (Draws + 2)·(K + M) written
// out, and its one overflow guard.
func TestSampleRows(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    *Settings
		want int
	}{
		{nil, (DefaultDraws + 2) * (DefaultK + DefaultM)},
		{&Settings{K: 30, M: 300}, (DefaultDraws + 2) * 330},
		{&Settings{K: 5, M: 10, Draws: 1}, 3 * 15},
		{&Settings{M: AllPoints}, math.MaxInt},
		{&Settings{K: 1, M: math.MaxInt / 4, Draws: 3}, math.MaxInt},
		{&Settings{K: 1, M: math.MaxInt / 8, Draws: 2}, 4 * (1 + math.MaxInt/8)},
	} {
		if got := SampleRows(tc.s); got != tc.want {
			t.Errorf("SampleRows(%+v) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// TestLowestWithinNoise checks RelativePE's rule for λ (searchGrid.lowRidge)
// on fold scores made by hand: the smallest λ whose mean paired difference
// from the best is at most one standard error of the differences is taken,
// and the best stays when no smaller λ qualifies.
func TestLowestWithinNoise(t *testing.T) {
	t.Parallel()
	g := searchGrid{lowRidge: 1}
	best := []float64{-1.0, -1.1, -0.9, -1.0, -1.0}
	shift := func(d ...float64) []float64 {
		out := make([]float64, len(best))
		for i := range out {
			out[i] = best[i] + d[i]
		}
		return out
	}
	// Column 0: worse by 0.05 on every fold (standard error 0). Column 1:
	// worse by a mean of 0.01 with a standard error of 0.0071 of the
	// differences: not within one. Column 2: a mean of 0.004, standard
	// error 0.0060: within.
	folds := [][]float64{
		shift(0.05, 0.05, 0.05, 0.05, 0.05),
		shift(0.03, -0.01, 0.02, 0.0, 0.01),
		shift(0.02, -0.01, 0.01, -0.01, 0.01),
		best,
	}
	if got := g.lowestWithinNoise(folds, 3); got != 2 {
		t.Errorf("chose column %d, want 2", got)
	}
	if got := g.lowestWithinNoise(folds[:2], 1); got != 1 {
		t.Errorf("chose column %d, want the best, 1", got)
	}
	// A column whose folds could not be solved (+Inf) never qualifies.
	inf := math.Inf(1)
	if got := g.lowestWithinNoise([][]float64{{inf, inf, inf, inf, inf}, best}, 1); got != 1 {
		t.Errorf("chose column %d, want the best, 1", got)
	}
}
