// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/sublinear/pearson/dataset/datasettest"
	"github.com/sublinear/pearson/internal/testtier"
)

// sortedRow is a row of the sorted Parquet files of TestUnitErrorSorted.
type sortedRow struct {
	X float64 `parquet:"x"`
}

// writeSorted writes n values drawn from N(mean, 1), sorted, as a Parquet
// file of one DOUBLE column x in row groups of rg rows.
func writeSorted(t *testing.T, name string, n, rg int, mean float64, rnd *rand.Rand) string {
	t.Helper()
	x := make([]float64, n)
	for i := range x {
		x[i] = mean + rnd.NormFloat64()
	}
	slices.Sort(x)
	rows := make([]sortedRow, n)
	for i, v := range x {
		rows[i] = sortedRow{v}
	}
	return datasettest.WriteParquet(t, name, datasettest.Groups(rows, rg))
}

// TestUnitErrorSorted checks the error bar of a divergence estimated from
// Parquet files sorted by the value, sampled in two stages: a row group
// holds a narrow slice of the values, so that the 64 units drawn, not the
// rows, are the independent observations. Over seeds, the estimate must be
// within 2·stderr of a reference in at least 85% of the runs (95% expected
// for a normal error; 85% allows a binomial deviation of 2.5 standard
// deviations at 30 runs and the estimate of the variance from 64 draws),
// while the stderr of independent rows, which the estimator reports
// without the design, covers at most half of them: the design effect here
// is near the rows taken per unit.
//
// σ and λ are fixed, so that every run and the reference estimate the same
// value; the reference is a scan of every row with 50 draws, whose own
// error is a fraction of the sampled runs' (it is counted in the
// comparison all the same).
func TestUnitErrorSorted(t *testing.T) {
	if testtier.Race {
		// Its arithmetic is that of one goroutine but Ratio.Eval's, which
		// divergence's TestRatioEvalParallel runs under the race detector.
		t.Skip("a statistical test: 13 to 31 runs of the command")
	}
	t.Parallel()
	rnd := rand.New(rand.NewPCG(5, 6))
	const rows, rg = 300_000, 1000 // 300 row groups: more than the 4·64 units a sample needs
	p := writeSorted(t, "p.parquet", rows, rg, 0, rnd)
	q := writeSorted(t, "q.parquet", rows, rg, 1, rnd)
	args := []string{"pe", "--k", "50", "--m", "1000", "--sigma", "1", "--lambda", "40"}
	ref, _ := runJSON(t, append(args, "--draws", "50", "--scan", p, q)...)
	refPE, refSE := ref["pe"].(float64), ref["stderr"].(float64)
	if _, ok := ref["design_effect"]; ok {
		t.Errorf("a scan reports a design effect: %v", ref["design_effect"])
	}
	const seeds = 30
	var covered, coveredIID int
	var deff float64
	for seed := range seeds {
		v, _ := runJSON(t, append(args, "--draws", "6", "--seed", strconv.Itoa(seed+1), p, q)...)
		if v["read_p"] != "sampled" || v["read_q"] != "sampled" {
			t.Fatalf("seed %d: read_p %v, read_q %v: not sampled", seed+1, v["read_p"], v["read_q"])
		}
		pe, se := v["pe"].(float64), v["stderr"].(float64)
		d, ok := v["design_effect"].(float64)
		if !ok {
			t.Fatalf("seed %d: no design_effect in %v", seed+1, v)
		}
		deff += d / float64(seeds)
		// The error bar the run would give were the kept rows
		// independent: the design effect is the ratio of the two
		// variances of the estimate's linearisation, so se/√deff is
		// that bar up to the estimator's Monte Carlo part, which is
		// small here.
		iid := se / math.Sqrt(d)
		diff := math.Abs(pe - refPE)
		if diff <= 2*math.Hypot(se, refSE) {
			covered++
		}
		if diff <= 2*math.Hypot(iid, refSE) {
			coveredIID++
		}
	}
	t.Logf("reference %.4g ± %.2g; covered by 2·stderr in %d of %d runs, by the iid stderr in %d; mean design effect %.3g", refPE, refSE, covered, seeds, coveredIID, deff)
	if float64(covered) < 0.85*float64(seeds) {
		t.Errorf("2·stderr covers the reference in %d of %d runs, want at least 85%%", covered, seeds)
	}
	if float64(coveredIID) > 0.5*float64(seeds) {
		t.Errorf("the iid stderr covers the reference in %d of %d runs: the file does not test the design", coveredIID, seeds)
	}
	if deff < 10 {
		t.Errorf("mean design effect %.3g on a sorted file, want ≫ 1", deff)
	}
}

// pairRow is a row of the Parquet files of TestMIUnitError.
type pairRow struct {
	X float64 `parquet:"x"`
	Y float64 `parquet:"y"`
}

// writePairs writes n pairs (x, y) of a bivariate normal with correlation
// rho as a Parquet file of two DOUBLE columns in row groups of rg rows,
// sorted by x when sorted, in the order drawn otherwise.
func writePairs(t *testing.T, name string, n, rg int, rho float64, sorted bool, rnd *rand.Rand) string {
	t.Helper()
	rows := make([]pairRow, n)
	for i := range rows {
		x := rnd.NormFloat64()
		rows[i] = pairRow{x, rho*x + math.Sqrt(1-rho*rho)*rnd.NormFloat64()}
	}
	if sorted {
		slices.SortFunc(rows, func(a, b pairRow) int { return cmp.Compare(a.X, b.X) })
	}
	return datasettest.WriteParquet(t, name, datasettest.Groups(rows, rg))
}

// TestMIDesignEffectKeys checks, cheaply, that mi and rank report the
// design effect of a Parquet file sampled in units, and that it is large
// for a file sorted by x: a row group holds a narrow slice of x, so that
// its rows are far from a random sample.
func TestMIDesignEffectKeys(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(7, 8))
	path := writePairs(t, "sorted.parquet", 60_000, 200, 0.5, true, rnd) // 300 row groups
	args := []string{"--k", "20", "--m", "400", "--draws", "3", "--sigma-x", "1", "--sigma-y", "1", "--lambda", "1"}
	v, _ := runJSON(t, append([]string{"mi", "--x", "x", "--y", "y"}, append(args, path)...)...)
	if v["read"] != "sampled" {
		t.Fatalf("read %v: not sampled", v["read"])
	}
	if d, ok := v["design_effect"].(float64); !ok || d < 1.3 {
		t.Errorf("mi: design_effect %v, want ≫ 1 on a sorted file", v["design_effect"])
	}
	r, _ := runJSON(t, append([]string{"rank", "--target", "y"}, append(args, path)...)...)
	features, _ := r["features"].([]any)
	if len(features) != 1 {
		t.Fatalf("rank: features %v", r["features"])
	}
	if d, ok := features[0].(map[string]any)["design_effect"].(float64); !ok || d < 1.3 {
		t.Errorf("rank: design_effect %v, want ≫ 1 on a sorted file", features[0])
	}
	s, _ := runJSON(t, append([]string{"mi", "--x", "x", "--y", "y", "--scan"}, append(args, path)...)...)
	if _, ok := s["design_effect"]; ok {
		t.Errorf("a scan reports a design effect: %v", s["design_effect"])
	}
}

// TestMIUnitError checks mi's error bar on Parquet files sampled in two
// stages, as TestUnitErrorSorted does the divergence's. On a file sorted by
// x (ρ = 0.5, 300 000 rows in row groups of 1000, 64 units drawn, about 130
// rows kept from each), the estimate must be within 2·stderr of a reference
// in at least 16 of 20 runs (19 expected for a normal error; 16 allows three
// binomial standard deviations, and the variance between units is estimated
// from 64 draws), while the bar of independent rows, stderr/√design_effect
// (the approximation of TestUnitErrorSorted), covers at least 5 runs fewer:
// the reference's own error, in both bars, keeps that one from falling
// further. On the same rows shuffled, the design effect
// must be 1 within 0.25: its Monte Carlo error is about √(2/63) = 0.18 a
// run, 0.04 for the mean of 20.
//
// σx, σy and λ are fixed, so that every run and the reference estimate the
// same value (at about the widths and λ that cross-validation chooses);
// the reference is a scan with 50 draws.
func TestMIUnitError(t *testing.T) {
	testtier.Long(t, "a statistical study: 42 runs of the command")
	testtier.SkipUnderRace(t)
	t.Parallel()
	const rows, rg, rho = 300_000, 1000, 0.5
	args := []string{"mi", "--x", "x", "--y", "y", "--k", "50", "--m", "1000", "--sigma-x", "2.5", "--sigma-y", "2.5", "--lambda", "1000", "--model", "kernel"}
	const seeds = 20
	for _, sorted := range []bool{true, false} {
		path := writePairs(t, "pairs.parquet", rows, rg, rho, sorted, rand.New(rand.NewPCG(9, 10)))
		ref, _ := runJSON(t, append(args, "--draws", "50", "--scan", path)...)
		refSMI, refSE := ref["smi"].(float64), ref["stderr"].(float64)
		var covered, coveredIID int
		var deff float64
		for seed := range seeds {
			v, _ := runJSON(t, append(args, "--draws", "6", "--seed", strconv.Itoa(seed+1), path)...)
			smi, se := v["smi"].(float64), v["stderr"].(float64)
			d, ok := v["design_effect"].(float64)
			if !ok {
				t.Fatalf("sorted %v, seed %d: no design_effect in %v", sorted, seed+1, v)
			}
			deff += d / seeds
			diff := math.Abs(smi - refSMI)
			if diff <= 2*math.Hypot(se, refSE) {
				covered++
			}
			if diff <= 2*math.Hypot(se/math.Sqrt(max(d, 1)), refSE) {
				coveredIID++
			}
		}
		t.Logf("sorted %v: reference %.4g ± %.2g; covered by 2·stderr in %d of %d runs, by the iid stderr in %d; mean design effect %.3g", sorted, refSMI, refSE, covered, seeds, coveredIID, deff)
		if covered < 16 {
			t.Errorf("sorted %v: 2·stderr covers the reference in %d of %d runs, want at least 16", sorted, covered, seeds)
		}
		switch {
		case sorted && coveredIID > covered-5:
			t.Errorf("the iid stderr covers the reference in %d of %d runs: the file does not test the design", coveredIID, seeds)
		case sorted && deff < 10:
			t.Errorf("mean design effect %.3g on a sorted file, want ≫ 1", deff)
		case !sorted && math.Abs(deff-1) > 0.25:
			t.Errorf("mean design effect %.3g on a shuffled file, want 1 ± 0.25", deff)
		}
	}
}
