// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strconv"
	"testing"

	"github.com/sublinear/pearson/internal/testtier"
)

// indexInput returns a one-column CSV whose row i (0-based, on line i+2)
// holds the number i.
func indexInput(n int) []byte {
	var b bytes.Buffer
	b.WriteString("i\n")
	for i := 0; i < n; i++ {
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// checkSample checks that g is a valid sample of at most k of n rows of
// indexInput: rows in file order, values matching lines.
func checkSample(t *testing.T, g *Group, n, k int) {
	t.Helper()
	if g.Rows != n {
		t.Fatalf("Rows = %d, want %d", g.Rows, n)
	}
	if want := min(n, k); g.Len() != want || len(g.Data) != want {
		t.Fatalf("kept %d rows (%d values), want %d", g.Len(), len(g.Data), want)
	}
	for i, line := range g.Lines {
		if i > 0 && line <= g.Lines[i-1] {
			t.Fatalf("lines not increasing: %v", g.Lines)
		}
		if line < 2 || line > n+1 || g.Data[i] != float64(line-2) {
			t.Fatalf("row %d: line %d holds %v", i, line, g.Data[i])
		}
	}
}

func TestReservoirBasics(t *testing.T) {
	in := indexInput(1000)
	for _, k := range []int{1, 2, 10, 999, 1000, 1001, 1 << 40} {
		tab, err := readCSV(bytes.NewReader(in), "d.csv", testOptions{Reservoir: k})
		if err != nil {
			t.Fatal(err)
		}
		checkSample(t, &tab.Groups[0], 1000, k)
	}
}

func TestReservoirReproducible(t *testing.T) {
	in := indexInput(5000)
	read := func(src rand.Source) *Table {
		tab, err := readCSV(bytes.NewReader(in), "d.csv", testOptions{Reservoir: 50, Src: src})
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
	a, b := read(nil), read(nil)
	if !reflect.DeepEqual(a, b) {
		t.Error("two reads with the default source differ")
	}
	c, d := read(rand.NewPCG(7, 8)), read(rand.NewPCG(7, 8))
	if !reflect.DeepEqual(c, d) {
		t.Error("two reads with the same seed differ")
	}
	if reflect.DeepEqual(a.Groups[0].Lines, c.Groups[0].Lines) {
		t.Error("different seeds give the same sample")
	}
}

func TestReservoirGroups(t *testing.T) {
	// Rows alternate between groups A and B; A has 3000 rows, B 1000.
	var b bytes.Buffer
	b.WriteString("g,x\n")
	for i := 0; i < 4000; i++ {
		key := "A"
		if i%4 == 3 {
			key = "B"
		}
		b.WriteString(key + "," + strconv.Itoa(i) + "\n")
	}
	tab, err := readCSV(&b, "d.csv", testOptions{Group: "g", Reservoir: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Groups) != 2 {
		t.Fatalf("%d groups", len(tab.Groups))
	}
	for i, want := range []struct {
		key  string
		rows int
	}{{"A", 3000}, {"B", 1000}} {
		g := &tab.Groups[i]
		if g.Key != want.key || g.Rows != want.rows || g.Len() != 100 {
			t.Errorf("group %d: key %q, %d rows, %d kept", i, g.Key, g.Rows, g.Len())
		}
		for j, line := range g.Lines {
			x := line - 2
			if g.Data[j] != float64(x) || (x%4 == 3) != (want.key == "B") {
				t.Errorf("group %s holds row %d (line %d, value %v)", g.Key, x, line, g.Data[j])
			}
		}
	}
}

// binomialBounds returns lo, hi such that a Binomial(n, p) variable X has
// P(X < lo) <= alpha/2 and P(X > hi) <= alpha/2.
func binomialBounds(n int, p, alpha float64) (lo, hi int) {
	pmf := make([]float64, n+1)
	for k := 0; k <= n; k++ {
		lg, _ := math.Lgamma(float64(n + 1))
		lk, _ := math.Lgamma(float64(k + 1))
		lnk, _ := math.Lgamma(float64(n - k + 1))
		pmf[k] = math.Exp(lg - lk - lnk + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
	}
	cum := 0.0
	for lo = 0; lo <= n && cum+pmf[lo] <= alpha/2; lo++ {
		cum += pmf[lo]
	}
	cum = 0
	for hi = n; hi >= 0 && cum+pmf[hi] <= alpha/2; hi-- {
		cum += pmf[hi]
	}
	return lo, hi
}

// TestReservoirUniform checks that every row of a 20 000-row file is kept
// with probability R/N = 100/20 000 = 0.005, over S independent seeds.
//
// Row i's inclusion count C_i is Binomial(S, R/N) if the sample is uniform.
// Three tests, each with a false-alarm probability of about 1e-6:
//
//   - every row: C_i within exact binomial bounds at level 1e-6/N each
//     (Bonferroni over the N rows). This catches rows that are never or
//     always taken (the first R rows, the row after them, the last row).
//   - 100 bins of 200 consecutive rows: the bin totals B_j have mean
//     S·R/100 = S and variance at most S (sums of S independent
//     hypergeometric counts of variance <= 200·p·(1-p) < 1), and they sum to
//     S·R exactly, so Σ(B_j-S)²/S is at most a χ² with 99 degrees of freedom;
//     it must stay below that law's 1-1e-6 quantile (Wilson–Hilferty). This
//     catches a drift of the inclusion rate along the file of a few percent.
//   - the mean row index of each sample, averaged over the S samples, against
//     its exact mean and variance under sampling without replacement (a z
//     test): the most sensitive test of a bias towards early or late rows.
func TestReservoirUniform(t *testing.T) {
	testtier.SkipUnderRace(t)
	t.Parallel()
	const (
		N    = 20000
		R    = 100
		bins = 100
	)
	S := testtier.Pick(400, 2000)
	in := indexInput(N)
	counts := make([]int, N)
	sumMean := 0.0 // sum over samples of the mean kept row index
	for s := 0; s < S; s++ {
		tab, err := readCSV(bytes.NewReader(in), "d.csv", testOptions{Reservoir: R, Src: rand.NewPCG(uint64(s), 12345)})
		if err != nil {
			t.Fatal(err)
		}
		g := &tab.Groups[0]
		if g.Len() != R || g.Rows != N {
			t.Fatalf("seed %d: kept %d of %d rows", s, g.Len(), g.Rows)
		}
		mean := 0.0
		for _, line := range g.Lines {
			counts[line-2]++
			mean += float64(line-2) / R
		}
		sumMean += mean
	}
	p := float64(R) / N
	lo, hi := binomialBounds(S, p, 1e-6/N)
	for i, c := range counts {
		if c < lo || c > hi {
			t.Errorf("row %d kept %d times in %d samples; expected %.1f, within [%d, %d]", i, c, S, float64(S)*p, lo, hi)
		}
	}
	const per = N / bins
	expect := float64(S) * R / bins
	chi2 := 0.0
	for j := 0; j < bins; j++ {
		total := 0
		for _, c := range counts[j*per : (j+1)*per] {
			total += c
		}
		chi2 += (float64(total) - expect) * (float64(total) - expect) / expect
	}
	// Wilson–Hilferty approximation of the 1-1e-6 quantile of χ²(k).
	k, z := float64(bins-1), 4.753
	limit := k * math.Pow(1-2/(9*k)+z*math.Sqrt(2/(9*k)), 3)
	if chi2 > limit {
		t.Errorf("bin totals: χ² = %.1f > %.1f (99 degrees of freedom)", chi2, limit)
	}
	// The mean index of a sample of R rows drawn without replacement from
	// 0..N-1 has mean (N-1)/2 and variance (N²-1)/12/R·(N-R)/(N-1); the
	// average over S samples is nearly normal.
	mu := float64(N-1) / 2
	sd := math.Sqrt((float64(N)*N - 1) / 12 / R * (N - R) / (N - 1) / float64(S))
	zMean := (sumMean/float64(S) - mu) / sd
	if math.Abs(zMean) > z+0.14 { // two-sided 1e-6
		t.Errorf("mean kept row index %.1f, expected %.1f ± %.1f (z = %.2f)", sumMean/float64(S), mu, sd, zMean)
	}
	t.Logf("S=%d samples: per-row bounds [%d, %d] around %.1f; χ² = %.1f (limit %.1f); mean index z = %.2f",
		S, lo, hi, float64(S)*p, chi2, limit, zMean)
}

// genReader generates a CSV of n rows of two numbers on the fly, and records
// the peak heap size every 100 000 rows.
type genReader struct {
	n, i int
	buf  []byte
	peak uint64
}

func (g *genReader) Read(p []byte) (int, error) {
	for len(g.buf) < len(p) && g.i <= g.n {
		if g.i == 0 {
			g.buf = append(g.buf, "x,y\n"...)
		} else {
			g.buf = strconv.AppendInt(g.buf, int64(g.i), 10)
			g.buf = append(g.buf, ',')
			g.buf = strconv.AppendFloat(g.buf, float64(g.i%1000)*0.25, 'g', -1, 64)
			g.buf = append(g.buf, '\n')
		}
		if g.i%100000 == 0 {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			g.peak = max(g.peak, ms.HeapAlloc)
		}
		g.i++
	}
	if len(g.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, g.buf)
	g.buf = g.buf[:copy(g.buf, g.buf[n:])]
	return n, nil
}

// TestReservoirMemory streams 2 000 000 rows through a reservoir of 1000
// rows: the heap must not grow with the number of rows. Keeping every row
// would hold 2e6 × (2 values + 1 line) × 8 bytes = 48 MB; the reservoir holds
// 24 kB, plus the garbage of the CSV reader between collections (the
// collector's minimum heap target is 4 MB).
func TestReservoirMemory(t *testing.T) {
	testtier.SkipUnderRace(t)
	const n, k = 2_000_000, 1000
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	gen := &genReader{n: n}
	tab, err := readCSV(gen, "gen.csv", testOptions{Reservoir: k})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if g := tab.Groups[0]; g.Rows != n || g.Len() != k {
		t.Fatalf("%d rows, %d kept", g.Rows, g.Len())
	}
	retained := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	peak := int64(gen.peak) - int64(before.HeapAlloc)
	t.Logf("heap: %d bytes before, peak growth %d, retained growth %d", before.HeapAlloc, peak, retained)
	if retained > 1<<20 {
		t.Errorf("the table retains %d bytes", retained)
	}
	if peak > 16<<20 {
		t.Errorf("the heap grew by %d bytes while reading", peak)
	}
	runtime.KeepAlive(tab)
}

// TestSamplingRows checks Sampling.Rows: a read of every row passes each
// valid row to it as Scan does (group, line, values, in file order), and
// draws the same sample as without it, from a file, a stream or a
// fallback from seeking; a read that draws its rows by seeking does not.
func TestSamplingRows(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("g,x,c\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "%c,%d,%c\n", 'A'+rune(i%3*i%2), i, 'p'+rune(i%5))
	}
	data := b.Bytes()
	q := Query{Group: "g", Mixed: true}
	type row struct {
		group string
		line  int
		vals  string
	}
	collect := func(rows *[]row) RowFunc {
		return func(group string, line int, r []float64) error {
			*rows = append(*rows, row{group, line, fmt.Sprint(r)})
			return nil
		}
	}
	var want []row
	if _, err := NewCSV(bytes.NewReader(data), "t.csv", Options{}).Scan(context.Background(), q, collect(&want)); err != nil {
		t.Fatal(err)
	}
	sampling := func() Sampling { return Sampling{Size: 200, Seek: true, Src: rand.NewPCG(3, 4)} }
	plain, err := NewCSV(bytes.NewReader(data), "t.csv", Options{}).Sample(context.Background(), q, sampling())
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []*CSV{
		NewCSVAt(bytes.NewReader(data), int64(len(data)), "t.csv", Options{}), // small: read in full
		NewCSV(struct{ io.Reader }{bytes.NewReader(data)}, "-", Options{}),
	} {
		var got []row
		s := sampling()
		s.Rows = collect(&got)
		tb, err := src.Sample(context.Background(), q, s)
		if err != nil {
			t.Fatal(err)
		}
		if tb.Sampled || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: sampled %v, %d rows passed on, want Scan's %d", src.Name(), tb.Sampled, len(got), len(want))
		}
		if !reflect.DeepEqual(tb.Groups, plain.Groups) {
			t.Errorf("%s: the sample differs from the one drawn without Rows", src.Name())
		}
	}
	seek := NewCSVAt(bytes.NewReader(data), int64(len(data)), "t.csv", Options{})
	seek.alwaysSeek = true
	var got []row
	s := sampling()
	s.Rows = collect(&got)
	tb, err := seek.Sample(context.Background(), q, s)
	if err != nil {
		t.Fatal(err)
	}
	if !tb.Sampled || len(got) != 0 {
		t.Errorf("seeking: sampled %v (%q), %d rows passed on; want a draw and none", tb.Sampled, tb.Fallback, len(got))
	}
}
