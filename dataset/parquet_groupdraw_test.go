// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/parquet-go/parquet-go"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/testtier"
)

// TestParquetGroupDrawsUniform checks that the unit draws within
// row-group draws keep every row equally likely: 16 unit draws in 8
// row-group draws of 2 each, on a file of unequal row groups cut into
// pages of about 32 rows (the units); a chi-square test of the rows'
// frequencies over many samples, and the rows of a row-group draw all in
// one row group.
func TestParquetGroupDrawsUniform(t *testing.T) {
	rgs := []int{100, 250, 400, 750, 500}
	p := openSeek(t, writeX(t, rgs, 256))
	const reps, size, units, rows = 1500, 32, 16, 2000
	count := make([]float64, rows)
	src := rand.NewPCG(7, 8)
	kept := 0
	for range reps {
		tab, err := p.Sample(context.Background(), Query{}, Sampling{Size: size, Seek: true, Units: units, Src: src})
		if err != nil {
			t.Fatal(err)
		}
		g := tab.Groups[0]
		if !tab.Sampled || tab.Draws != 8 || tab.UnitDraws != units || g.Rows != rows || len(g.Units) != g.Len() {
			t.Fatalf("sampled %v, draws %d of %d units, rows %d, units %d", tab.Sampled, tab.Draws, tab.UnitDraws, g.Rows, len(g.Units))
		}
		rgOf := map[int]int{}
		for i, x := range g.Data {
			if int(x) != g.Lines[i]-1 {
				t.Fatalf("row %d holds %v", g.Lines[i], x)
			}
			rg, start := 0, 0
			for int(x) >= start+rgs[rg] {
				start += rgs[rg]
				rg++
			}
			if r, ok := rgOf[g.Units[i]]; ok && r != rg {
				t.Fatalf("row-group draw %d holds rows of row groups %d and %d", g.Units[i], r, rg)
			}
			rgOf[g.Units[i]] = rg
			count[int(x)]++
		}
		kept += g.Len()
	}
	e := float64(kept) / rows
	chi2 := 0.0
	for _, c := range count {
		chi2 += (c - e) * (c - e) / e
	}
	// 1999 degrees of freedom: mean 1999, standard deviation 63.
	if chi2 > 1999+4*63 {
		t.Errorf("chi-square %.1f over %d rows (1999 degrees of freedom)", chi2, rows)
	}
	t.Logf("chi-square %.1f, 1999 degrees of freedom, %.0f expected per row", chi2, e)
}

// timeOrdered writes a file of 64 row groups of 2048 rows in pages of
// about 256 rows, x in an order that makes its row groups unlike each
// other: "sorted", standard normal values sorted (the worst case), or
// "drift", a standard normal noise around a mean that climbs from 0 to 2
// along the file (data written in time order); any other kind gives
// standard normal values in random order. It returns the file and x.
func timeOrdered(t testing.TB, kind string) (string, []float64) {
	const rgs, rgRows = 64, 2048
	r := rand.New(rand.NewPCG(11, 12))
	xs := make([]float64, rgs*rgRows)
	for i := range xs {
		xs[i] = r.NormFloat64()
		if kind == "drift" {
			xs[i] += 2 * float64(i) / float64(len(xs))
		}
	}
	if kind == "sorted" {
		sort.Float64s(xs)
	}
	groups := make([][]pqXRow, rgs)
	for g := range groups {
		groups[g] = make([]pqXRow, rgRows)
		for j := range groups[g] {
			groups[g][j].X = xs[g*rgRows+j]
		}
	}
	return writePQ(t, kind+".parquet", groups, parquet.PageBufferSize(2048), parquet.Compression(&parquet.Uncompressed)), xs
}

// tQuantile975 returns the 0.975 quantile of Student's t with k degrees of
// freedom, for the k of the studies here (3, 7, 15, 63).
func tQuantile975(k int) float64 {
	switch k {
	case 3:
		return 3.182
	case 7:
		return 2.365
	case 15:
		return 2.131
	}
	return 1.998 // 63
}

// TestParquetGroupDrawsCoverage measures the error bar of the mean of a
// two-stage sample with the row-group draws as its independent draws
// (Group.Units, Table.Draws): on files whose row groups are unlike each
// other, the ultimate-cluster standard error over the D row-group draws
// must match the spread of the mean across samples, and the interval
// ±t·SE must cover the file's mean about 95 % of the time. It compares
// D = 4, 8 (the default for 64 units), 16 and 64 (one unit draw per
// row-group draw: the independent unit draws of the one-stage design), so
// that the price of bounding the row groups is measured: the spread of the
// mean grows as D falls when the row groups differ.
func TestParquetGroupDrawsCoverage(t *testing.T) {
	testtier.SkipUnderRace(t)
	reps := testtier.Pick(60, 400)
	const size, units = 2000, 64
	for _, kind := range []string{"sorted", "drift"} {
		path, xs := timeOrdered(t, kind)
		mu, _ := meanVar(xs)
		for _, d := range []int{4, 8, 16, 64} {
			p := openSeek(t, path)
			p.rgDraws = d
			src := rand.NewPCG(13, uint64(d))
			means := make([]float64, reps)
			se := make([]float64, reps)
			coverT, coverZ := 0, 0
			for i := range reps {
				tab, err := p.Sample(context.Background(), Query{}, Sampling{Size: size, Seek: true, Units: units, Src: src})
				if err != nil {
					t.Fatal(err)
				}
				if tab.Draws != d || tab.UnitDraws != units {
					t.Fatalf("%d row-group draws of %d units, want %d of %d", tab.Draws, tab.UnitDraws, d, units)
				}
				g := tab.Groups[0]
				means[i], _ = meanVar(g.Data)
				se[i] = clusterSE(g.Data, g.Units, d)
				if math.Abs(means[i]-mu) <= tQuantile975(d-1)*se[i] {
					coverT++
				}
				if math.Abs(means[i]-mu) <= 1.96*se[i] {
					coverZ++
				}
			}
			_, v := meanVar(means)
			spread := math.Sqrt(v)
			mse, _ := meanVar(se)
			rmsSE := 0.0
			for _, s := range se {
				rmsSE += s * s / float64(reps)
			}
			rmsSE = math.Sqrt(rmsSE)
			t.Logf("%s, D = %2d: spread of the mean %.4f, SE mean %.4f (rms %.4f); coverage ±t(D−1)·SE %.3f, ±1.96·SE %.3f (%d samples)",
				kind, d, spread, mse, rmsSE, float64(coverT)/float64(reps), float64(coverZ)/float64(reps), reps)
			// The variance estimator is unbiased: its mean square against
			// the spread's square, within the sampling error of both
			// (relative SE about √(2/reps) each, and the SE's own
			// variability with D − 1 degrees of freedom).
			tol := 4 * math.Sqrt(2/float64(reps)+2/float64(reps*(d-1)))
			if r := rmsSE * rmsSE / (spread * spread); math.Abs(r-1) > tol {
				t.Errorf("%s, D = %d: SE² %.3g for a spread² of %.3g (ratio %.2f, tolerance %.2f)", kind, d, rmsSE*rmsSE, spread*spread, r, tol)
			}
			// Coverage with Student's t: nominal 0.95, binomial SE √(0.95·0.05/reps).
			if c := float64(coverT) / float64(reps); c < 0.95-4*math.Sqrt(0.95*0.05/float64(reps)) {
				t.Errorf("%s, D = %d: coverage %.3f of ±t·SE", kind, d, c)
			}
		}
	}
}

// clusterSE returns the ultimate-cluster standard error of the mean of x
// whose rows came from the draws units (0 to d − 1): with zⱼ the sum of
// (xᵢ − x̄)/n over the rows of draw j, SE² = d/(d−1)·Σⱼ zⱼ², the estimator
// of the design effect (divergence.PEResult.DesignEffect).
func clusterSE(x []float64, units []int, d int) float64 {
	m, _ := meanVar(x)
	z := make([]float64, d)
	for i, a := range x {
		z[units[i]] += (a - m) / float64(len(x))
	}
	v := 0.0
	for _, a := range z {
		v += a * a
	}
	return math.Sqrt(v * float64(d) / float64(d-1))
}

// TestParquetGroupDrawsPECoverage measures the error bar of the estimator
// itself, divergence.RelativePE, when the numerator sample is a two-stage
// sample of a file in time order (its mean drifts from 0 to 2 along the
// file) and the denominator one of a shuffled file: its StdErr, which adds
// the variance between the row-group draws of Group.Units (the
// ultimate-cluster estimate behind PEResult.DesignEffect), must match the
// spread of the estimate across samples, and ±t·StdErr must cover the
// estimates' mean about 95 % of the time (the design's own variance: the
// mean over many samples stands for the estimate's expectation). σ and λ
// are fixed, so that what varies is the sample, not the tuning. D = 8 (the
// default for 64 units) is checked; D = 64 (the one-stage design, whose
// error bar falls short here: 0.79 of the spread) is logged beside it.
// Long tier (PEARSON_LONG=1): about 30 s.
func TestParquetGroupDrawsPECoverage(t *testing.T) {
	testtier.Long(t, "a coverage study of RelativePE over 200 two-stage samples per design")
	const size, units, reps = 1000, 64, 200
	drift, _ := timeOrdered(t, "drift")
	shuffled, _ := timeOrdered(t, "normal")
	q := openSeek(t, shuffled)
	for _, d := range []int{8, 64} {
		p := openSeek(t, drift)
		p.rgDraws = d
		q.rgDraws = d
		src := rand.NewPCG(17, uint64(d))
		pe, se, deff := make([]float64, reps), make([]float64, reps), 0.0
		for i := range reps {
			var m [2]divergence.Subsample
			for k, s := range []*Parquet{p, q} {
				tab, err := s.Sample(context.Background(), Query{}, Sampling{Size: size, Seek: true, Units: units, Src: src})
				if err != nil {
					t.Fatal(err)
				}
				g := tab.Groups[0]
				m[k] = divergence.Subsample{Matrix: mat.NewDense(g.Len(), 1, g.Data), Rows: g.Rows, Units: g.Units, UnitDraws: tab.Draws}
			}
			res, err := divergence.RelativePE(context.Background(), m[0], m[1], 0.5,
				&divergence.PESettings{Sigma: 0.5, Settings: divergence.Settings{Lambda: 1e-3, Src: rand.NewPCG(uint64(i), 3)}})
			if err != nil {
				t.Fatal(err)
			}
			pe[i], se[i] = res.PE, res.StdErr
			deff += res.DesignEffect / reps
		}
		mu, v := meanVar(pe)
		spread := math.Sqrt(v)
		rms, cover := 0.0, 0
		for i := range reps {
			rms += se[i] * se[i] / reps
			if math.Abs(pe[i]-mu) <= tQuantile975(d-1)*se[i] {
				cover++
			}
		}
		rms = math.Sqrt(rms)
		t.Logf("D = %2d: PE mean %.4f, spread %.4f, StdErr rms %.4f (ratio %.2f), design effect mean %.1f, coverage of the mean ±t(D−1)·StdErr %.3f (%d samples)",
			d, mu, spread, rms, rms/spread, deff, float64(cover)/reps, reps)
		if d != groupDraws(units) {
			continue // measured, for comparison; see docs/results/s3.md
		}
		// The spread's relative SE is about 1/√(2·reps) = 5 %.
		if r := rms / spread; r < 0.8 || r > 1.4 {
			t.Errorf("D = %d: StdErr %.4f for a spread of %.4f", d, rms, spread)
		}
		if c := float64(cover) / reps; c < 0.95-4*math.Sqrt(0.95*0.05/reps) {
			t.Errorf("D = %d: coverage %.3f", d, c)
		}
	}
}

// pqTimeGroupRow is a row of the grouped file of TestParquetGroupDrawsCounts.
type pqTimeGroupRow struct {
	X float64 `parquet:"x"`
	G string  `parquet:"g"`
}

// TestParquetGroupDrawsCounts measures the standard error of the row
// counts of a group column (the Hansen–Hurwitz estimate, with the
// row-group draws as its independent draws) on a file written in time
// order: 64 row groups of 2 048 rows whose share of group "a" falls from 1
// to 0 along the file. The count of "a" ± t(D−1)·RowsStdErr must cover the
// true count about 95 % of the time, and RowsStdErr match the spread of the
// counts.
func TestParquetGroupDrawsCounts(t *testing.T) {
	testtier.SkipUnderRace(t)
	reps := testtier.Pick(100, 400)
	const rgs, rgRows, units, size = 64, 2048, 64, 400
	r := rand.New(rand.NewPCG(19, 20))
	groups := make([][]pqTimeGroupRow, rgs)
	trueA := 0
	for g := range groups {
		groups[g] = make([]pqTimeGroupRow, rgRows)
		for j := range groups[g] {
			row := &groups[g][j]
			row.X, row.G = r.NormFloat64(), "b"
			if r.Float64() < 1-float64(g)/rgs {
				row.G = "a"
				trueA++
			}
		}
	}
	p := openSeek(t, writePQ(t, "g.parquet", groups, parquet.PageBufferSize(2048), parquet.Compression(&parquet.Uncompressed)))
	src := rand.NewPCG(21, 22)
	counts := make([]float64, reps)
	rms, cover := 0.0, 0
	for i := range reps {
		tab, err := p.Sample(context.Background(), Query{Group: "g", Groups: []string{"a"}}, Sampling{Size: size, Seek: true, Units: units, Src: src})
		if err != nil {
			t.Fatal(err)
		}
		if !tab.Sampled || tab.Draws != 8 {
			t.Fatalf("sampled %v, %d row-group draws; fallback %q", tab.Sampled, tab.Draws, tab.Fallback)
		}
		g := tab.Groups[0]
		counts[i] = float64(g.Rows)
		rms += g.RowsStdErr * g.RowsStdErr / float64(reps)
		if math.Abs(counts[i]-float64(trueA)) <= tQuantile975(tab.Draws-1)*g.RowsStdErr {
			cover++
		}
	}
	m, v := meanVar(counts)
	spread, se := math.Sqrt(v), math.Sqrt(rms)
	c := float64(cover) / float64(reps)
	t.Logf("group a: %d rows; estimates %.0f ± %.0f (spread), RowsStdErr rms %.0f; coverage ±t(7)·SE %.3f (%d samples)", trueA, m, spread, se, c, reps)
	if math.Abs(m-float64(trueA)) > 4*spread/math.Sqrt(float64(reps)) {
		t.Errorf("mean estimate %.0f, true count %d", m, trueA)
	}
	if r := se / spread; r < 0.75 || r > 1.33 {
		t.Errorf("RowsStdErr %.0f for a spread of %.0f", se, spread)
	}
	if c < 0.95-4*math.Sqrt(0.95*0.05/float64(reps)) {
		t.Errorf("coverage %.3f", c)
	}
}
