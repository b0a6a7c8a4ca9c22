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

	"github.com/sublinear/pearson/dataset/datasettest"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/testtier"
)

// TestParquetGroupDrawsUniform checks that the unit draws within
// row-group draws keep every row equally likely: 16 unit draws in 8
// row-group draws of 2 each (one per stratum of the file's rows, the
// default), in 5 (unequal unit draws per row-group draw), in 5 two per
// stratum (the last stratum holding three) and in 8 independent ones, on a file of unequal row groups cut into pages of about 32 rows
// (the units); a chi-square test of the rows' frequencies over many
// samples, and the rows of a row-group draw all in one row group.
func TestParquetGroupDrawsUniform(t *testing.T) {
	rgs := []int{100, 250, 400, 750, 500}
	path := writeX(t, rgs, 256)
	for _, c := range []struct{ d, design int }{{0, 0}, {5, 0}, {5, designStrataTwo}, {8, designPPS}} {
		p := openSeek(t, path)
		p.rgDraws, p.rgDesign = c.d, c.design
		wantD := c.d
		if wantD == 0 {
			wantD = 8
		}
		const reps, size, units, rows = 1500, 32, 16, 2000
		count := make([]float64, rows)
		src := rand.NewPCG(7, uint64(8+c.d))
		kept := 0
		for range reps {
			tab, err := p.Sample(context.Background(), Query{}, Sampling{Size: size, Seek: true, Units: units, Src: src})
			if err != nil {
				t.Fatal(err)
			}
			g := tab.Groups[0]
			if !tab.Sampled || tab.Draws != wantD || tab.UnitDraws != units || g.Rows != rows || len(g.Units) != g.Len() {
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
			t.Errorf("D = %d, %s: chi-square %.1f over %d rows (1999 degrees of freedom)", wantD, rgDesignName[c.design], chi2, rows)
		}
		// Each row group's share, a coarser test of the same: its count
		// against e·rows, within 4 standard errors of a Poisson count
		// (the draws' counts vary less than Poisson's, never more).
		start := 0
		for g, r := range rgs {
			obs := 0.0
			for _, c := range count[start : start+r] {
				obs += c
			}
			if z := (obs - e*float64(r)) / math.Sqrt(e*float64(r)); math.Abs(z) > 4 {
				t.Errorf("D = %d, %s: row group %d drawn %.0f times, %.0f expected", wantD, rgDesignName[c.design], g, obs, e*float64(r))
			}
			start += r
		}
		t.Logf("D = %d, %s: chi-square %.1f, 1999 degrees of freedom, %.0f expected per row", wantD, rgDesignName[c.design], chi2, e)
	}
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
	return datasettest.WriteParquet(t, kind+".parquet", groups, parquet.PageBufferSize(2048), parquet.Compression(&parquet.Uncompressed)), xs
}

// tQuantile975 returns the 0.975 quantile of Student's t with k degrees of
// freedom, for the k of the studies here (2, 3, 4, 7, 8, 15, 31, 63).
func tQuantile975(k int) float64 {
	switch k {
	case 3:
		return 3.182
	case 2:
		return 4.303
	case 4:
		return 2.776
	case 8:
		return 2.306
	case 7:
		return 2.365
	case 15:
		return 2.131
	case 31:
		return 2.040
	}
	return 1.998 // 63
}

// designDF returns the degrees of freedom of the variance between the d
// row-group draws of a table: Σ_h (m_h − 1) over its strata, d − 1
// without strata.
func designDF(d int, strata []int) int {
	if strata == nil {
		return d - 1
	}
	s := 0
	for _, h := range strata {
		s = max(s, h+1)
	}
	return d - s
}

// rgDesignName names the designs of the row-group draws in the logs.
var rgDesignName = map[int]string{0: "default", designPPS: "independent", designStrata: "strata of 1, paired",
	designStrataTwo: "strata of 2"}

// TestParquetGroupDrawsCoverage measures the error bar of the mean of a
// two-stage sample with the row-group draws as its observations
// (Group.Units, Table.Draws, Table.DrawStrata): on files whose row groups
// are unlike each other ("sorted", "drift") and on a shuffled one, the
// standard error over the D row-group draws (summary.StrataVariance) must
// not fall short of the spread of the mean across samples, and the
// interval ±t·SE must cover the file's mean about 95 % of the time. It
// compares the designs of the row-group draws at D = 8 (the default for
// 64 units) — independent draws, one per stratum of equal rows (the
// default: adjacent strata paired for the variance, conservative), two per
// stratum of D/2, systematic — and independent draws at D = 4, 16 and 64
// (one unit draw per row-group draw: the independent unit draws of the
// one-stage design), so that the price of bounding the row groups, and
// what stratifying them recovers, is measured.
func TestParquetGroupDrawsCoverage(t *testing.T) {
	testtier.SkipUnderRace(t)
	t.Parallel()
	reps := testtier.Pick(60, 400)
	const size, units = 2000, 64
	type design struct{ d, kind int }
	designs := []design{{64, designPPS}, {8, designPPS}, {8, designStrataTwo}, {8, designStrata}, {5, designStrataTwo}, {16, designStrataTwo}}
	if testtier.Enabled() {
		designs = append(designs, design{4, designPPS}, design{16, designPPS})
	}
	for _, kind := range []string{"sorted", "drift", "normal"} {
		path, xs := timeOrdered(t, kind)
		mu, _ := meanVar(xs)
		base := 0.0 // the spread at D = 64
		for _, ds := range designs {
			d := ds.d
			p := openSeek(t, path)
			p.rgDraws, p.rgDesign = d, ds.kind
			src := rand.NewPCG(13, uint64(d*10+ds.kind))
			means := make([]float64, reps)
			se := make([]float64, reps)
			coverT, coverZ, df := 0, 0, 0
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
				se[i] = clusterSE(g.Data, g.Units, d, tab.DrawStrata)
				df = designDF(d, tab.DrawStrata)
				if math.Abs(means[i]-mu) <= tQuantile975(df)*se[i] {
					coverT++
				}
				if math.Abs(means[i]-mu) <= 2*se[i] {
					coverZ++
				}
			}
			_, v := meanVar(means)
			spread := math.Sqrt(v)
			if d == 64 && ds.kind == designPPS {
				base = spread
			}
			rmsSE := 0.0
			for _, s := range se {
				rmsSE += s * s / float64(reps)
			}
			rmsSE = math.Sqrt(rmsSE)
			cT, cZ := float64(coverT)/float64(reps), float64(coverZ)/float64(reps)
			t.Logf("%-6s D = %2d %-20s spread %.4f (%.2f× D = 64 independent), SE rms %.4f (SE/spread %.2f); coverage ±2·SE %.3f, ±t(%d)·SE %.3f (%d samples)",
				kind, d, rgDesignName[ds.kind], spread, spread/base, rmsSE, rmsSE/spread, cZ, df, cT, reps)
			// The variance estimator is unbiased for independent draws and
			// for two draws per stratum, conservative for pairs of strata of
			// one draw: its mean square against the spread's square, within
			// the sampling error of both (relative SE about √(2/reps) each,
			// and the SE's own variability with df degrees of freedom).
			// One draw per stratum, the strata paired: the estimator's
			// expectation adds the squared differences of the paired strata's
			// means (collapsedExcess).
			tol := 4 * math.Sqrt(2/float64(reps)+2/float64(reps*df))
			want := spread * spread
			if ds.kind == designStrata {
				want += collapsedExcess(xs, d)
			}
			if r := rmsSE * rmsSE / want; math.Abs(r-1) > tol {
				t.Errorf("%s, D = %d, %s: SE² %.3g for an expected %.3g (ratio %.2f, tolerance %.2f)", kind, d, rgDesignName[ds.kind], rmsSE*rmsSE, want, r, tol)
			}
			// Coverage with Student's t: nominal 0.95, binomial SE √(0.95·0.05/reps).
			if cT < 0.95-4*math.Sqrt(0.95*0.05/float64(reps)) {
				t.Errorf("%s, D = %d, %s: coverage %.3f of ±t·SE", kind, d, rgDesignName[ds.kind], cT)
			}
		}
	}
}

// collapsedExcess returns Σ_k ((μ_2k − μ_2k+1)/d)² over the pairs of
// the d strata of equal rows of x (d even), μ_h the mean of stratum h: what
// the collapsed-strata estimator of the variance of a mean adds to it in
// expectation, when each stratum's draw has the stratum's mean as its
// expectation (strata made of whole row groups, as in these files).
func collapsedExcess(x []float64, d int) float64 {
	mu := make([]float64, d)
	for h := range d {
		mu[h], _ = meanVar(x[h*len(x)/d : (h+1)*len(x)/d])
	}
	e := 0.0
	for k := 0; k+1 < d; k += 2 {
		e += (mu[k] - mu[k+1]) * (mu[k] - mu[k+1]) / float64(d*d)
	}
	return e
}

// clusterSE returns the standard error of the mean of x whose rows came
// from the row-group draws units (0 to d − 1) in the strata strata: with
// zⱼ the sum of (xᵢ − x̄)/n over the rows of draw j, SE² =
// Σ_h m_h/(m_h−1) Σ_{j∈h} (zⱼ − z̄_h)² (d/(d−1)·Σⱼ zⱼ² without strata), the
// estimator of the design effect (divergence.PEResult.DesignEffect),
// written here again.
func clusterSE(x []float64, units []int, d int, strata []int) float64 {
	m, _ := meanVar(x)
	z := make([]float64, d)
	for i, a := range x {
		z[units[i]] += (a - m) / float64(len(x))
	}
	if strata == nil {
		strata = make([]int, d)
	}
	ns := 0
	for _, h := range strata {
		ns = max(ns, h+1)
	}
	zs, cnt := make([]float64, ns), make([]float64, ns)
	for j, h := range strata {
		zs[h] += z[j]
		cnt[h]++
	}
	v := 0.0
	for j, h := range strata {
		e := z[j] - zs[h]/cnt[h]
		v += e * e * cnt[h] / (cnt[h] - 1)
	}
	return math.Sqrt(v)
}

// TestParquetGroupDrawsPECoverage checks the error bar of the estimator
// itself, divergence.RelativePE, when the numerator sample is a two-stage
// sample of a file in time order (sorted, or its mean drifting from 0 to 2
// along the file) and the denominator one of a shuffled file, at the
// default design (D = 8 row-group draws, one per stratum, paired for the
// variance): its StdErr, which adds the variance between the row-group
// draws of Group.Units in their strata (Table.DrawStrata, behind
// PEResult.DesignEffect), must not fall short of the spread of the
// estimate across samples, and ±t·StdErr must cover the estimates' mean
// about 95 % of the time (the design's own variance: the mean over many
// samples stands for the estimate's expectation). σ and λ are fixed, so
// that what varies is the sample, not the tuning. The other designs, and
// the shuffled file, are measured beside it by
// BenchmarkParquetGroupDrawsPEDesigns (docs/RESULTS.md, "The design
// effect"); TestParquetPENearZero checks the shuffled file. Long tier.
func TestParquetGroupDrawsPECoverage(t *testing.T) {
	testtier.Long(t, "a coverage study of RelativePE over 200 two-stage samples per file")
	t.Parallel()
	const size, units, reps = 1000, 64, 200
	d, kind := groupDraws(units), defaultDesign
	shuffled, _ := timeOrdered(t, "normal")
	q := openSeek(t, shuffled)
	q.rgDraws, q.rgDesign = d, kind
	for _, file := range []string{"drift", "sorted"} {
		path, _ := timeOrdered(t, file)
		p := openSeek(t, path)
		p.rgDraws, p.rgDesign = d, kind
		pe, se, deff, _, df := peOverSamples(t, p, q, size, units, reps, rand.NewPCG(17, uint64(d*10+kind)), 3)
		mu, spread, rms, coverT, cover2 := peCoverage(pe, se, df)
		cT := float64(coverT) / reps
		t.Logf("%-6s D = %2d %-20s PE mean %.4f, spread %.4f, StdErr rms %.4f (StdErr/spread %.2f), design effect mean %.1f, coverage ±2·StdErr %.3f, ±t(%d)·StdErr %.3f (%d samples)",
			file, d, rgDesignName[kind], mu, spread, rms, rms/spread, deff, float64(cover2)/reps, df, cT, reps)
		// The spread's relative SE is about 1/√(2·reps) = 5 % (3.5 % at
		// the 400 samples this test drew before): StdErr/spread, measured
		// 1.44 (drift) and 1.75 (sorted) at 200 samples, is 8 and 10 of
		// those SEs above 0.85. The bound on coverage, 0.905, was set
		// while StdErr left out the data's own term (Var(ψ) over the
		// file's rows, not the kept ones, since fixed: docs/RESULTS.md);
		// ±t·StdErr now covers 0.99–1.00 on these files (1.000 and 0.990
		// at 200 samples), and the bound is kept, less its 4 binomial SEs
		// (0.062 at 200 samples, 0.044 at 400).
		if r := rms / spread; r < 0.85 || r > 2 {
			t.Errorf("%s: StdErr %.4f for a spread of %.4f", file, rms, spread)
		}
		if cT < 0.905-4*math.Sqrt(0.95*0.05/reps) {
			t.Errorf("%s: coverage %.3f", file, cT)
		}
	}
}

// BenchmarkParquetGroupDrawsPEDesigns is the table of docs/RESULTS.md, "The
// design effect": RelativePE's estimate, spread, StdErr, design effect and
// coverage over 400 two-stage samples per line, P from a file in time
// order (drifting, sorted) or a shuffled one and Q from the shuffled file,
// at four designs of the row-group draws: 64 independent unit draws, 8
// independent row groups, 8 one per stratum (the default, which
// TestParquetGroupDrawsPECoverage checks) and two per stratum. It asserts
// nothing, so it is a benchmark, not a test:
//
//	go test -run '^$' -bench ParquetGroupDrawsPEDesigns -benchtime 1x -v ./dataset
//
// prints the table (minutes of CPU).
func BenchmarkParquetGroupDrawsPEDesigns(b *testing.B) {
	for range b.N {
		parquetGroupDrawsPEDesigns(b)
	}
}

func parquetGroupDrawsPEDesigns(b *testing.B) {
	const size, units, reps = 1000, 64, 400
	shuffled, _ := timeOrdered(b, "normal")
	q := openSeek(b, shuffled)
	type design struct{ d, kind int }
	for _, kind := range []string{"drift", "sorted", "normal"} {
		path, _ := timeOrdered(b, kind)
		base := 0.0
		for _, ds := range []design{{64, designPPS}, {8, designPPS}, {8, designStrataTwo}, {8, designStrata}} {
			d := ds.d
			p := openSeek(b, path)
			p.rgDraws, p.rgDesign = d, ds.kind
			q.rgDraws, q.rgDesign = d, ds.kind
			pe, se, deff, _, df := peOverSamples(b, p, q, size, units, reps, rand.NewPCG(17, uint64(d*10+ds.kind)), 3)
			mu, spread, rms, coverT, cover2 := peCoverage(pe, se, df)
			if d == 64 {
				base = spread
			}
			b.Logf("%-6s D = %2d %-20s PE mean %.4f, spread %.4f (%.2f× D = 64 independent), StdErr rms %.4f (StdErr/spread %.2f), design effect mean %.1f, coverage ±2·StdErr %.3f, ±t(%d)·StdErr %.3f (%d samples)",
				kind, d, rgDesignName[ds.kind], mu, spread, spread/base, rms, rms/spread, deff, float64(cover2)/reps, df, float64(coverT)/reps, reps)
		}
	}
}

// peOverSamples draws reps pairs of two-stage samples of p and q (size rows
// kept from units unit draws each, the sampler's generator src) and returns
// RelativePE's estimate and StdErr on each pair (σ = 0.5 and λ = 10⁻³
// fixed, so that what varies is the sample; the estimator's generator
// seeded (i, seed)), the mean design effect, the rows kept in all and the
// design's degrees of freedom (designDF).
func peOverSamples(t testing.TB, p, q *Parquet, size, units, reps int, src rand.Source, seed uint64) (pe, se []float64, deff float64, kept, df int) {
	t.Helper()
	pe, se = make([]float64, reps), make([]float64, reps)
	for i := range reps {
		var m [2]divergence.Subsample
		for k, s := range []*Parquet{p, q} {
			tab, err := s.Sample(context.Background(), Query{}, Sampling{Size: size, Seek: true, Units: units, Src: src})
			if err != nil {
				t.Fatal(err)
			}
			g := tab.Groups[0]
			kept += g.Len()
			m[k] = divergence.Subsample{Matrix: mat.NewDense(g.Len(), 1, g.Data), Rows: g.Rows, Units: g.Units, UnitDraws: tab.Draws, UnitStrata: tab.DrawStrata}
			df = designDF(tab.Draws, tab.DrawStrata)
		}
		res, err := divergence.RelativePE(context.Background(), m[0], m[1], 0.5,
			&divergence.PESettings{Sigma: 0.5, Settings: divergence.Settings{Lambda: 1e-3, Src: rand.NewPCG(uint64(i), seed)}})
		if err != nil {
			t.Fatal(err)
		}
		pe[i], se[i] = res.PE, res.StdErr
		deff += res.DesignEffect / float64(reps)
	}
	return pe, se, deff, kept, df
}

// peCoverage returns the mean and spread (standard deviation) of the
// estimates pe, the root mean square of their StdErrs se, and how many of
// them lie within t(df)·StdErr and within 2·StdErr of their mean.
func peCoverage(pe, se []float64, df int) (mu, spread, rms float64, coverT, cover2 int) {
	mu, v := meanVar(pe)
	spread = math.Sqrt(v)
	n := float64(len(pe))
	for i := range pe {
		rms += se[i] * se[i] / n
		if math.Abs(pe[i]-mu) <= tQuantile975(df)*se[i] {
			coverT++
		}
		if math.Abs(pe[i]-mu) <= 2*se[i] {
			cover2++
		}
	}
	return mu, spread, math.Sqrt(rms), coverT, cover2
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
	t.Parallel()
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
	var isA []float64 // per row of the file, 1 for "a"
	for _, g := range groups {
		for _, row := range g {
			isA = append(isA, map[string]float64{"a": 1}[row.G])
		}
	}
	path := datasettest.WriteParquet(t, "g.parquet", groups, parquet.PageBufferSize(2048), parquet.Compression(&parquet.Uncompressed))
	type design struct{ d, kind int }
	designs := []design{{8, defaultDesign}}
	if testtier.Enabled() {
		designs = append(designs, design{64, designPPS}, design{8, designPPS}, design{8, designStrataTwo})
	}
	for _, ds := range designs {
		p := openSeek(t, path)
		p.rgDraws, p.rgDesign = ds.d, ds.kind
		src := rand.NewPCG(21, uint64(22+ds.d*10+ds.kind))
		counts := make([]float64, reps)
		rms, cover, cover2, df := 0.0, 0, 0, 0
		for i := range reps {
			tab, err := p.Sample(context.Background(), Query{Group: "g", Groups: []string{"a"}}, Sampling{Size: size, Seek: true, Units: units, Src: src})
			if err != nil {
				t.Fatal(err)
			}
			if !tab.Sampled || tab.Draws != ds.d {
				t.Fatalf("sampled %v, %d row-group draws; fallback %q", tab.Sampled, tab.Draws, tab.Fallback)
			}
			g := tab.Groups[0]
			counts[i] = float64(g.Rows)
			rms += g.RowsStdErr * g.RowsStdErr / float64(reps)
			df = designDF(tab.Draws, tab.DrawStrata)
			if math.Abs(counts[i]-float64(trueA)) <= tQuantile975(df)*g.RowsStdErr {
				cover++
			}
			if math.Abs(counts[i]-float64(trueA)) <= 2*g.RowsStdErr {
				cover2++
			}
		}
		m, v := meanVar(counts)
		spread, se := math.Sqrt(v), math.Sqrt(rms)
		c := float64(cover) / float64(reps)
		t.Logf("D = %2d %-20s group a: %d rows; estimates %.0f ± %.0f (spread), RowsStdErr rms %.0f (SE/spread %.2f); coverage ±2·SE %.3f, ±t(%d)·SE %.3f (%d samples)",
			ds.d, rgDesignName[ds.kind], trueA, m, spread, se, se/spread, float64(cover2)/float64(reps), df, c, reps)
		if math.Abs(m-float64(trueA)) > 4*spread/math.Sqrt(float64(reps)) {
			t.Errorf("%s: mean estimate %.0f, true count %d", rgDesignName[ds.kind], m, trueA)
		}
		if ds.kind != defaultDesign {
			continue // measured, for comparison; see docs/RESULTS.md, "The design effect"
		}
		// The collapsed strata's estimator adds, in expectation, N² times
		// collapsedExcess of the rows' indicators of "a".
		want := spread*spread + float64(len(isA)*len(isA))*collapsedExcess(isA, ds.d)
		if r := se * se / want; r < 0.6 || r > 1.6 {
			t.Errorf("RowsStdErr² %.4g for an expected %.4g (spread %.0f)", se*se, want, spread)
		}
		if c < 0.95-4*math.Sqrt(0.95*0.05/float64(reps)) {
			t.Errorf("coverage %.3f", c)
		}
	}
}
