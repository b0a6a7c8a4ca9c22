// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/sublinear/pearson/dataset/datasettest"
	"github.com/sublinear/pearson/internal/testtier"
)

// pqXRow is a row of the files the tests write with parquet-go.
type pqXRow struct {
	X float64 `parquet:"x"`
}

// writeX writes a Parquet file of one DOUBLE column x holding 0, 1, 2, ...,
// with row groups of the given sizes and pages of about pageBuf bytes.
// parquet-go writes an offset index; it is the library the package reads
// with, so these files test the sampler, not interoperability.
func writeX(t testing.TB, rgs []int, pageBuf int) string {
	t.Helper()
	var groups [][]pqXRow
	i := 0
	for _, n := range rgs {
		rows := make([]pqXRow, n)
		for j := range rows {
			rows[j].X = float64(i)
			i++
		}
		groups = append(groups, rows)
	}
	return datasettest.WriteParquet(t, "x.parquet", groups, parquet.PageBufferSize(pageBuf), parquet.Compression(&parquet.Uncompressed))
}

// openSeek opens the Parquet file at path, to be sampled by units however
// few they are.
func openSeek(t testing.TB, path string) *Parquet {
	t.Helper()
	p, err := OpenParquet(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.alwaysSeek = true
	t.Cleanup(func() { p.Close() })
	return p
}

// TestParquetSampleUniform checks that every row of a file with unequal row
// groups is equally likely to be kept by a two-stage sample: a chi-square
// test of the rows' frequencies over many samples.
func TestParquetSampleUniform(t *testing.T) {
	rgs := []int{10, 25, 40, 75, 50}
	p := openSeek(t, writeX(t, rgs, 1<<20))
	if !slices.Equal(p.shards[0].rgRows, []int64{10, 25, 40, 75, 50}) {
		t.Fatalf("row groups %v", p.shards[0].rgRows)
	}
	const reps, size, units = 3000, 12, 3
	count := make([]float64, 200)
	src := rand.NewPCG(3, 4)
	kept, fallbacks := 0, 0
	for range reps {
		tab, err := p.Sample(context.Background(), Query{}, Sampling{Size: size, Seek: true, Units: units, Src: src})
		if err != nil {
			t.Fatal(err)
		}
		g := tab.Groups[0]
		if !tab.Sampled { // the smallest row group drawn 3 times holds too few rows
			fallbacks++
			continue
		}
		if tab.Draws != units || g.Rows != 200 || len(g.Units) != g.Len() {
			t.Fatalf("sampled %v, draws %d, rows %d, units %d", tab.Sampled, tab.Draws, g.Rows, len(g.Units))
		}
		// The rows of a draw come from one row group.
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
				t.Fatalf("draw %d holds rows of row groups %d and %d", g.Units[i], r, rg)
			}
			rgOf[g.Units[i]] = rg
			count[int(x)]++
		}
		kept += g.Len()
	}
	e := float64(kept) / 200
	chi2 := 0.0
	for _, c := range count {
		chi2 += (c - e) * (c - e) / e
	}
	// 199 degrees of freedom: mean 199, standard deviation 20.
	if chi2 > 199+4*20 {
		t.Errorf("chi-square %.1f over 200 rows (199 degrees of freedom)", chi2)
	}
	t.Logf("chi-square %.1f, 199 degrees of freedom, %.0f expected per row; %d full reads", chi2, e, fallbacks)
	if fallbacks > reps/100 {
		t.Errorf("%d full reads in %d samples", fallbacks, reps)
	}
}

// TestParquetSampleSorted samples a file sorted by the value (DuckDB, 16
// row groups of 2048 rows, x from 0 to 1): a row group is far from a random
// sample, and the sample mean varies much more than the mean of as many
// independent rows. The design effect is 1 + (r − 1)·σ_b²/σ² for r rows
// per draw (NewParquetAt); here σ_b² is about σ² (1 − 1/16²), so the
// standard error is about √r times the independent one. A jackknife over
// the draws (Group.Units) measures it.
func TestParquetSampleSorted(t *testing.T) {
	p := openSeek(t, pqPath("sorted.parquet"))
	p.rgDesign = designPPS // the closed form below is that of independent draws
	full, data, _ := scanAll(t, p, Query{})
	xs := data[""]
	if full.Groups[0].Rows != 32768 || len(p.shards[0].rgRows) != 16 {
		t.Fatalf("%d rows in %d row groups", full.Groups[0].Rows, len(p.shards[0].rgRows))
	}
	// The population: the mean, the variance of the row groups' means
	// and the mean variance within them.
	mu, total, sb, sw := 0.0, 0.0, 0.0, 0.0
	for _, x := range xs {
		mu += x
	}
	mu /= float64(len(xs))
	for _, x := range xs {
		total += (x - mu) * (x - mu)
	}
	total /= float64(len(xs))
	for g := range 16 {
		part := xs[g*2048 : (g+1)*2048]
		m, v := meanVar(part)
		sb += (m - mu) * (m - mu) / 16
		sw += v / 16
	}
	const size, n, reps = 400, 8, 300
	r := float64(size / n)
	fpc := 1 - r/2048
	design := math.Sqrt((sb + sw*fpc/r) / n)
	iid := math.Sqrt(total / size)
	deff := 1 + (r-1)*sb/total
	src := rand.NewPCG(5, 6)
	means := make([]float64, reps)
	covered, jk := 0, 0.0
	for i := range reps {
		tab, err := p.Sample(context.Background(), Query{}, Sampling{Size: size, Seek: true, Units: n, Src: src})
		if err != nil {
			t.Fatal(err)
		}
		g := tab.Groups[0]
		if g.Len() != size {
			t.Fatalf("%d rows kept", g.Len())
		}
		m, _ := meanVar(g.Data)
		means[i] = m
		se := jackknifeMean(g.Data, g.Units, n)
		jk += se / reps
		if math.Abs(m-mu) <= 2.365*se { // t quantile, 7 degrees of freedom
			covered++
		}
	}
	mm, mv := meanVar(means)
	spread := math.Sqrt(mv)
	t.Logf("sample mean: spread %.4f across %d samples; design %.4f, independent rows %.4f (design effect %.1f); jackknife %.4f, coverage %d/%d",
		spread, reps, design, iid, deff, jk, covered, reps)
	if math.Abs(mm-mu) > 4*spread/math.Sqrt(reps) {
		t.Errorf("mean of the sample means %.4f, the file's %.4f", mm, mu)
	}
	if spread < 0.8*design || spread > 1.25*design {
		t.Errorf("spread %.4f, the design's standard error %.4f", spread, design)
	}
	if spread < 0.8*math.Sqrt(deff)*iid {
		t.Errorf("spread %.4f, not the design effect %.1f times the variance of independent rows (%.4f)", spread, deff, iid)
	}
	if jk < 0.75*spread || jk > 1.3*spread || covered < reps*85/100 {
		t.Errorf("jackknife %.4f for a spread of %.4f, coverage %d/%d", jk, spread, covered, reps)
	}
}

// meanVar returns the mean and the variance (n − 1) of x.
func meanVar(x []float64) (float64, float64) {
	m, v := 0.0, 0.0
	for _, a := range x {
		m += a
	}
	m /= float64(len(x))
	for _, a := range x {
		v += (a - m) * (a - m)
	}
	return m, v / float64(len(x)-1)
}

// jackknifeMean returns the jackknife standard error of the mean of x over
// the n draws labelled by units: the mean recomputed without each draw.
func jackknifeMean(x []float64, units []int, n int) float64 {
	sum := make([]float64, n)
	cnt := make([]float64, n)
	tot, tc := 0.0, 0.0
	for i, a := range x {
		sum[units[i]] += a
		cnt[units[i]]++
		tot += a
		tc++
	}
	var th []float64
	for j := range n {
		if cnt[j] > 0 {
			th = append(th, (tot-sum[j])/(tc-cnt[j]))
		}
	}
	m, v := meanVar(th)
	_ = m
	k := float64(len(th))
	return math.Sqrt(v * (k - 1) * (k - 1) / k)
}

// TestParquetSampleBytes checks that the bytes a two-stage sample reads
// depend on the units drawn, not on the size of the file: two files 10×
// apart.
func TestParquetSampleBytes(t *testing.T) {
	var read [2]int64
	var sizes [2]int64
	for i, k := range []int{24, 240} {
		rgs := make([]int, k)
		for j := range rgs {
			rgs[j] = 4096
		}
		path := writeX(t, rgs, 1<<20)
		p, err := OpenParquet(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		before := p.read
		tab, err := p.Sample(context.Background(), Query{}, Sampling{Size: 256, Seek: true, Units: 4})
		if err != nil {
			t.Fatal(err)
		}
		p.Close()
		fi, _ := os.Stat(path)
		read[i], sizes[i] = p.read-before, fi.Size()
		if !tab.Sampled || tab.Units > 4 {
			t.Fatalf("sampled %v, %d units", tab.Sampled, tab.Units)
		}
		t.Logf("%d rows, %d bytes: sample of 256 rows in 4 draws (%d units) read %d bytes (footer %d bytes, read before)",
			k*4096, fi.Size(), tab.Units, read[i], before)
	}
	if read[1] > 2*read[0] || read[1] > sizes[1]/20 {
		t.Errorf("read %d and %d bytes of files of %d and %d", read[0], read[1], sizes[0], sizes[1])
	}
}

// TestParquetSampleOffsetIndex samples a file with small pages and an
// offset index: the units are pages, and only their bytes are read.
func TestParquetSampleOffsetIndex(t *testing.T) {
	path := writeX(t, []int{500000}, 4096)
	p, err := OpenParquet(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	before := p.read
	tab, err := p.Sample(context.Background(), Query{}, Sampling{Size: 200, Seek: true, Units: 8})
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	g := tab.Groups[0]
	if !tab.Sampled || g.Len() != 200 || g.Rows != 500000 {
		t.Fatalf("sampled %v, %d of %d rows", tab.Sampled, g.Len(), g.Rows)
	}
	lo, hi := map[int]int{}, map[int]int{}
	for i, x := range g.Data {
		if int(x) != g.Lines[i]-1 {
			t.Fatalf("row %d holds %v", g.Lines[i], x)
		}
		u := g.Units[i]
		if _, ok := lo[u]; !ok {
			lo[u] = g.Lines[i]
		}
		hi[u] = g.Lines[i]
	}
	for u := range lo {
		if hi[u]-lo[u] > 1024 {
			t.Errorf("draw %d holds rows %d to %d: not one page", u, lo[u], hi[u])
		}
	}
	read := p.read - before
	t.Logf("%d bytes, %d units drawn, %d read, %d bytes read", fi.Size(), tab.Draws, tab.Units, read)
	if read > fi.Size()/20 {
		t.Errorf("read %d bytes of %d", read, fi.Size())
	}
}

// TestParquetSampleGroups samples by units with a group column (estimated
// counts) and with a partition key (exact counts), and checks when Sample
// reads every row instead.
func TestParquetSampleGroups(t *testing.T) {
	ctx := context.Background()
	p := openSeek(t, pqPath("snappy.parquet"))
	tab, err := p.Sample(ctx, Query{Columns: []string{"x"}, Group: "grp"}, Sampling{Size: 100, Seek: true, Units: 16})
	if err != nil {
		t.Fatal(err)
	}
	if !tab.Sampled || len(tab.Groups) != 3 {
		t.Fatalf("sampled %v, %d groups", tab.Sampled, len(tab.Groups))
	}
	for _, g := range tab.Groups {
		if g.Len() != 100 || math.Abs(float64(g.Rows)-6500.0/3) > 4*g.RowsStdErr+1 || len(g.Units) != 100 {
			t.Errorf("group %q: %d kept, rows %d ± %.1f", g.Key, g.Len(), g.Rows, g.RowsStdErr)
		}
	}

	parts := openSeek(t, pqPath("parts"))
	tab, err = parts.Sample(ctx, Query{Columns: []string{"x"}, Group: "part"}, Sampling{Size: 50, Seek: true, Units: 8})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range tab.Groups {
		if g.Rows != 1625 || g.RowsStdErr != 0 || g.Len() != 50 {
			t.Errorf("partition %q: %d kept, rows %d ± %.1f", g.Key, g.Len(), g.Rows, g.RowsStdErr)
		}
	}

	// Few units: every row is read, without a note.
	few := openPQ(t, "snappy.parquet")
	tab, err = few.Sample(ctx, Query{Columns: []string{"x"}}, Sampling{Size: 100, Seek: true})
	if err != nil || tab.Sampled || tab.Fallback != "" || tab.Groups[0].Rows != 6500 {
		t.Errorf("few units: %v, sampled %v, fallback %q", err, tab.Sampled, tab.Fallback)
	}
	// A group not in the units drawn: every row is read, with a note.
	tab, err = p.Sample(ctx, Query{Columns: []string{"x"}, Group: "grp", Groups: []string{"a", "zz"}}, Sampling{Size: 10, Seek: true, Units: 4})
	if err != nil || tab.Sampled || !strings.Contains(tab.Fallback, `group "zz" was not met`) {
		t.Errorf("missing group: %v, fallback %q", err, tab.Fallback)
	}
	// A group too rare for the units drawn.
	tab, err = p.Sample(ctx, Query{Columns: []string{"x"}, Group: "grp"}, Sampling{Size: 3000, Seek: true, Units: 4})
	if err != nil || tab.Sampled || !strings.Contains(tab.Fallback, "fewer than 3000") {
		t.Errorf("rare group: %v, fallback %q", err, tab.Fallback)
	}
}

// TestParquetCancel checks that a cancelled context stops a read.
func TestParquetCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := openPQ(t, "zstd.parquet")
	if _, err := src.Scan(ctx, Query{Columns: []string{"x"}}, func(string, int, []float64) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("scan: %v", err)
	}
	p := openSeek(t, pqPath("sorted.parquet"))
	if _, err := p.Sample(ctx, Query{}, Sampling{Size: 10, Seek: true, Units: 4}); !errors.Is(err, context.Canceled) {
		t.Errorf("sample: %v", err)
	}
}

// BenchmarkParquetSample times a two-stage sample of 32 800 rows per group
// of a Parquet file of columns group and x, as `pearson divergence --group
// group` draws it, at rows=1e6, 1e7 and 1e8: the files data-N.parquet that
// scripts/e2e-bench.sh writes with DuckDB, kept in testtier.FixtureDir
// (DIR=/tmp/pearson-bench KEEP=1 scripts/e2e-bench.sh 1000000 10000000
// 100000000). A size whose file is not there is skipped.
func BenchmarkParquetSample(b *testing.B) {
	for _, n := range []int{1000000, 10000000, 100000000} {
		b.Run("rows="+testtier.Count(n), func(b *testing.B) {
			path := filepath.Join(testtier.FixtureDir(b), fmt.Sprintf("data-%d.parquet", n))
			if _, err := os.Stat(path); err != nil {
				b.Skipf("no %s: DIR=%s KEEP=1 scripts/e2e-bench.sh %d writes it", path, filepath.Dir(path), n)
			}
			p, err := OpenParquet(path, Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			for b.Loop() {
				tab, err := p.Sample(context.Background(), Query{Columns: []string{"x"}, Group: "group"}, Sampling{Size: 32_800, Seek: true})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(tab.RowsRead), "rows/op")
			}
		})
	}
}

// TestParquetSampleProcs checks that a two-stage sample, whose units are
// read ahead on GOMAXPROCS goroutines, keeps the same rows in the same
// order, with the same counts, on one core as on four: with a group column
// (dictionary pages, counted ahead too), with a partition key across
// shards, in a mixed table, and through an offset index of many pages; and
// so does a full read, whose row groups are read ahead alike.
func TestParquetSampleProcs(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		path string
		q    Query
		s    Sampling
	}{
		{"group", pqPath("snappy.parquet"), Query{Columns: []string{"x"}, Group: "grp"}, Sampling{Size: 100, Seek: true, Units: 16}},
		{"partitions", pqPath("parts"), Query{Columns: []string{"x"}, Group: "part"}, Sampling{Size: 50, Seek: true, Units: 8}},
		{"shards", pqPath("parts"), Query{Columns: []string{"x"}}, Sampling{Size: 200, Seek: true, Units: 12}},
		{"sorted", pqPath("sorted.parquet"), Query{}, Sampling{Size: 300, Seek: true, Units: 10}},
		{"mixed", pqPath("mixed.parquet"), Query{Mixed: true}, Sampling{Size: 20, Seek: true, Units: 6}},
		{"pages", writeX(t, []int{3000, 2500, 4000}, 2048), Query{}, Sampling{Size: 400, Seek: true, Units: 20}},
		// Without Seek: every row group read, ahead, into a reservoir.
		{"scan", pqPath("parts"), Query{Columns: []string{"x"}, Group: "part"}, Sampling{Size: 300}},
		{"scan pages", writeX(t, []int{3000, 2500, 4000}, 2048), Query{}, Sampling{Size: 400}},
	}
	for _, c := range cases {
		var tabs [2]*Table
		for i, procs := range []int{1, 4} {
			old := runtime.GOMAXPROCS(procs)
			p := openSeek(t, c.path)
			s := c.s
			s.Src = rand.NewPCG(3, 4)
			tab, err := p.Sample(ctx, c.q, s)
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatalf("%s, GOMAXPROCS %d: %v", c.name, procs, err)
			}
			if tab.Sampled != c.s.Seek {
				t.Fatalf("%s: sampled %v", c.name, tab.Sampled)
			}
			tabs[i] = tab
		}
		// Printed, so that NaNs (missing values) compare equal.
		if a, b := fmt.Sprintf("%+v", tabs[0]), fmt.Sprintf("%+v", tabs[1]); a != b {
			t.Errorf("%s: the tables differ on 1 and 4 cores:\n%s\n%s", c.name, a, b)
		}
	}
}

// pqNullRow is a row of a file with nulls.
type pqNullRow struct {
	X *float64 `parquet:"x,optional"`
}

// TestParquetReadAheadErrors checks that a full read whose row groups are
// decoded ahead reports the first bad row in file order, on one core as on
// four, although the row groups after it are decoded before it is met.
func TestParquetReadAheadErrors(t *testing.T) {
	var groups [][]pqNullRow
	for g := range 12 {
		rows := make([]pqNullRow, 100)
		for i := range rows {
			if (g == 5 && i == 40) || (g >= 7 && i == 3) {
				continue // a null
			}
			x := float64(g*100 + i)
			rows[i].X = &x
		}
		groups = append(groups, rows)
	}
	path := datasettest.WriteParquet(t, "nulls.parquet", groups)
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		p := openSeek(t, path)
		_, err := p.Scan(context.Background(), Query{}, func(string, int, []float64) error { return nil })
		runtime.GOMAXPROCS(old)
		if !errors.Is(err, ErrEmptyCell) || !strings.Contains(err.Error(), "row 541 (row group 5, its row 41)") {
			t.Errorf("GOMAXPROCS %d: %v", procs, err)
		}
	}
}
