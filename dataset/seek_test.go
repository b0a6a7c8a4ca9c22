// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r     io.ReaderAt
	bytes atomic.Int64
	calls atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.bytes.Add(int64(n))
	c.calls.Add(1)
	return n, err
}

// seekCSV returns a source on data that samples by seeking whatever the
// size of the file.
func seekCSV(data []byte, opts Options) *CSV {
	c := NewCSVAt(bytes.NewReader(data), int64(len(data)), "s.csv", opts)
	c.alwaysSeek = true
	return c
}

// layout is a way to write a CSV file, for the uniformity tests.
type layout struct {
	name      string
	bom       bool
	crlf      bool
	longName  bool // a header of about 70 KB
	quoted    bool // quoted fields, with doubled quotes, no line breaks
	noLastEOL bool
	blank     bool // blank lines between rows
}

// write returns a file of n rows: column i holds the row's index, and the
// line lengths vary by about 10× with i.
func (l layout) write(n int) []byte {
	var b bytes.Buffer
	eol := "\n"
	if l.crlf {
		eol = "\r\n"
	}
	if l.bom {
		b.Write(utf8BOM)
	}
	b.WriteString("i,pad,note")
	if l.longName {
		b.WriteString(strings.Repeat("n", 70<<10))
	}
	b.WriteString(eol)
	for i := range n {
		pad := strings.Repeat("7", 1+(i*7)%40)
		note := "x"
		if l.quoted {
			pad = `"` + pad + `"`
			note = `"a ""quoted"", note"`
		}
		fmt.Fprintf(&b, "%d,%s,%s", i, pad, note)
		if i < n-1 || !l.noLastEOL {
			b.WriteString(eol)
		}
		if l.blank && i%5 == 0 && i < n-1 {
			b.WriteString(eol + "   " + eol)
		}
	}
	return b.Bytes()
}

// TestSeekUniform checks, on files whose line lengths vary by 10× with a
// BOM, CRLF, a long header, quoted fields, blank lines and a last line
// without its newline, that every row is kept equally often.
//
// Over S samples of R rows out of N, without replacement, row i's count
// C_i has mean S·R/N and variance S·(R/N)(1−R/N) ≤ S·R/N, and the counts
// sum to S·R: Σ(C_i − S·R/N)²/(S·R/N) is then at most a χ² with N − 1
// degrees of freedom. It must stay below that law's 1 − 1e-4 quantile. A
// length-biased draw fails it by far: its counts vary with the line
// length, by 10×.
func TestSeekUniform(t *testing.T) {
	const n, r, s = 200, 20, 300
	limit := distuv.ChiSquared{K: n - 1}.Quantile(1 - 1e-4)
	for _, l := range []layout{
		{name: "plain"},
		{name: "CRLF", crlf: true},
		{name: "BOM", bom: true},
		{name: "long header", longName: true},
		{name: "quoted", quoted: true},
		{name: "no final newline", noLastEOL: true},
		{name: "blank lines", blank: true},
		{name: "all", bom: true, crlf: true, longName: true, quoted: true, noLastEOL: true, blank: true},
	} {
		t.Run(l.name, func(t *testing.T) {
			data := l.write(n)
			counts := make([]float64, n)
			for rep := range s {
				src := seekCSV(data, Options{})
				tab, err := src.Sample(context.Background(), Query{Columns: []string{"i"}},
					Sampling{Size: r, Seek: true, Src: rand.NewPCG(uint64(rep), 7)})
				if err != nil {
					t.Fatal(err)
				}
				if !tab.Sampled || tab.Fallback != "" {
					t.Fatalf("sampled %v, fallback %q", tab.Sampled, tab.Fallback)
				}
				g := tab.Groups[0]
				if g.Len() != r || len(g.Offsets) != r {
					t.Fatalf("%d rows kept, %d offsets", g.Len(), len(g.Offsets))
				}
				seen := make(map[int]bool)
				for j, v := range g.Data {
					i := int(v)
					if seen[i] {
						t.Fatalf("row %d kept twice", i)
					}
					if j > 0 && g.Offsets[j] <= g.Offsets[j-1] {
						t.Fatalf("offsets %v not increasing", g.Offsets)
					}
					seen[i] = true
					counts[i]++
				}
			}
			want := float64(s*r) / n
			chi2 := 0.0
			for _, c := range counts {
				chi2 += (c - want) * (c - want) / want
			}
			if chi2 > limit {
				t.Errorf("χ² = %.1f over %d rows, limit %.1f", chi2, n, limit)
			}
		})
	}
}

// biasedFile returns a file of n rows whose column x, uniform on 1…10, sets
// the length of its line: a pad of 10·x bytes.
func biasedFile(n int) []byte {
	var b bytes.Buffer
	b.WriteString("x,pad\n")
	for i := range n {
		x := 1 + i%10
		fmt.Fprintf(&b, "%d,%s\n", x, strings.Repeat("5", 10*x))
	}
	return b.Bytes()
}

// TestSeekLengthBias samples a file whose line length grows with the value:
// the sampled mean must match the file's mean, 5.5, where a draw of the
// line around a random byte, without the correction, is biased towards
// long lines (mean about 7.1).
//
// The values have standard deviation 2.87; a sample of R = 2000 out of
// N = 20 000 rows, without replacement, has a mean with standard error
// 2.87/√2000·√(1 − R/N) = 0.061. The tolerance, 0.3, is about 5 standard
// errors.
func TestSeekLengthBias(t *testing.T) {
	const n, r, tol = 20000, 2000, 0.3
	data := biasedFile(n)
	src := seekCSV(data, Options{})
	tab, err := src.Sample(context.Background(), Query{Columns: []string{"x"}}, Sampling{Size: r, Seek: true, Src: rand.NewPCG(3, 4)})
	if err != nil {
		t.Fatal(err)
	}
	g := tab.Groups[0]
	if !tab.Sampled || g.Len() != r {
		t.Fatalf("sampled %v, %d rows", tab.Sampled, g.Len())
	}
	if m := mean(g.Data); math.Abs(m-5.5) > tol {
		t.Errorf("sampled mean %.3f, want 5.5 ± %v", m, tol)
	}
	if d := math.Abs(float64(g.Rows - n)); d > 5*g.RowsStdErr || g.RowsStdErr == 0 || g.RowsStdErr > 0.05*n {
		t.Errorf("estimated %d ± %.0f rows, have %d", g.Rows, g.RowsStdErr, n)
	}
	if tab.RowsRead < r || tab.Draws < r {
		t.Errorf("%d rows read, %d draws", tab.RowsRead, tab.Draws)
	}

	// The same draws without the rejection step: biased.
	sk := &seeker{rd: &reader{name: "s.csv", delim: ','}, ra: bytes.NewReader(data), size: int64(len(data)), h: 6, end: int64(len(data)), maxLine: DefaultMaxLine}
	rng := rand.New(rand.NewPCG(3, 4))
	var naive []float64
	for range r {
		_, _, text, err := sk.lineAt(sk.h + rng.Int64N(sk.end-sk.h))
		if err != nil {
			t.Fatal(err)
		}
		x, _ := strconv.ParseFloat(string(text[:bytes.IndexByte(text, ',')]), 64)
		naive = append(naive, x)
	}
	if m := mean(naive); math.Abs(m-5.5) < 3*tol {
		t.Errorf("the length-biased mean %.3f is not visibly wrong", m)
	}
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// genFile writes a file of n rows of genInput's shape to dir.
func genFile(t testing.TB, dir string, n int) string {
	path := filepath.Join(dir, fmt.Sprintf("rows%d.csv", n))
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	const chunk = 100_000
	for i := 0; i < n; i += chunk {
		b := genInput(min(chunk, n-i))
		if i > 0 {
			b = b[len("x,y\n"):]
		}
		if _, err := f.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSeekCost checks that the bytes a sample reads do not grow with the
// file: about the same at 10⁵ and 10⁶ rows.
func TestSeekCost(t *testing.T) {
	read := func(n int) (int64, int) {
		data := genInput(n)
		cr := &countingReaderAt{r: bytes.NewReader(data)}
		src := NewCSVAt(cr, int64(len(data)), "c.csv", Options{})
		tab, err := src.Sample(context.Background(), Query{}, Sampling{Size: 200, Seek: true, Src: rand.NewPCG(1, 1)})
		if err != nil {
			t.Fatal(err)
		}
		if !tab.Sampled {
			t.Fatalf("%d rows: not sampled (%q)", n, tab.Fallback)
		}
		if g := tab.Groups[0]; math.Abs(float64(g.Rows-n)) > 5*g.RowsStdErr {
			t.Errorf("%d rows estimated as %d ± %.0f", n, g.Rows, g.RowsStdErr)
		}
		return cr.bytes.Load(), len(data)
	}
	small, _ := read(100_000)
	large, size := read(1_000_000)
	if r := float64(large) / float64(small); r < 0.7 || r > 1.4 {
		t.Errorf("read %d bytes at 10⁵ rows, %d at 10⁶: ratio %.2f", small, large, r)
	}
	if large > int64(size)/4 {
		t.Errorf("read %d bytes of %d", large, size)
	}
}

// TestSeekGroups samples two groups, checks the estimates, the order of the
// groups, MaxGroups and Query.Groups.
func TestSeekGroups(t *testing.T) {
	const n = 30000
	var b bytes.Buffer
	b.WriteString("g,x\n")
	for i := range n {
		g := "A"
		switch {
		case i%3 == 1:
			g = "B"
		case i%3 == 2 && i > n/2:
			g = "C" // a third value, late in the file
		}
		fmt.Fprintf(&b, "%s,%d\n", g, i)
	}
	data := b.Bytes()
	rows := map[string]int{"A": n/3 + n/6, "B": n / 3, "C": n/3 - n/6}
	for _, tc := range []struct {
		name string
		q    Query
		keys []string
	}{
		{"all", Query{Group: "g"}, []string{"A", "B", "C"}},
		{"max groups", Query{Group: "g", MaxGroups: 2}, []string{"A", "B"}},
		{"listed", Query{Group: "g", Groups: []string{"C", "A"}}, []string{"A", "C"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := seekCSV(data, Options{}).Sample(context.Background(), tc.q, Sampling{Size: 300, Seek: true})
			if err != nil {
				t.Fatal(err)
			}
			if !tab.Sampled || len(tab.Groups) != len(tc.keys) {
				t.Fatalf("sampled %v (%q), %d groups", tab.Sampled, tab.Fallback, len(tab.Groups))
			}
			for i, g := range tab.Groups {
				if g.Key != tc.keys[i] || g.Len() != 300 {
					t.Errorf("group %d: %q with %d rows, want %q", i, g.Key, g.Len(), tc.keys[i])
				}
				if d := math.Abs(float64(g.Rows - rows[g.Key])); d > 5*g.RowsStdErr {
					t.Errorf("group %q: %d ± %.0f rows, have %d", g.Key, g.Rows, g.RowsStdErr, rows[g.Key])
				}
				for j := 0; j < g.Len(); j++ {
					i := int(g.Data[j])
					if k := map[bool]string{true: "A", false: "B"}[i%3 == 0]; i%3 != 2 && k != g.Key || i%3 == 2 && g.Key != map[bool]string{true: "C", false: "A"}[i > n/2] {
						t.Fatalf("row %d in group %q", i, g.Key)
					}
				}
			}
			if tc.name == "max groups" && (len(tab.Others) != 1 || tab.Others[0] != "C") {
				t.Errorf("others %v", tab.Others)
			}
		})
	}
}

// TestSeekFallback checks the inputs that are read in full although
// seeking was asked for, and that the result is then that of a full read.
func TestSeekFallback(t *testing.T) {
	many := func(n int, row func(i int) string) []byte {
		var b bytes.Buffer
		b.WriteString("g,x,note\n")
		for i := range n {
			b.WriteString(row(i))
		}
		return b.Bytes()
	}
	for _, tc := range []struct {
		name   string
		data   []byte
		q      Query
		reason string // in Fallback; "" for none
	}{
		{"multi-line field late", many(20000, func(i int) string {
			if i%50 == 49 && i > 10000 {
				return fmt.Sprintf("A,%d,\"two\nlines\"\n", i)
			}
			return fmt.Sprintf("A,%d,plain\n", i)
		}), Query{Columns: []string{"x"}}, "quote"},
		{"multi-line field early", many(20000, func(i int) string {
			if i == 10 {
				return fmt.Sprintf("A,%d,\"two\nlines\"\n", i)
			}
			return fmt.Sprintf("A,%d,plain\n", i)
		}), Query{Columns: []string{"x"}}, "line 12"},
		{"rare group", many(20000, func(i int) string {
			if i%200 == 199 {
				return fmt.Sprintf("B,%d,n\n", i)
			}
			return fmt.Sprintf("A,%d,n\n", i)
		}), Query{Group: "g", Columns: []string{"x"}}, `group "B" is too rare`},
		{"one group met of two", many(20000, func(i int) string {
			if i == 15000 {
				return fmt.Sprintf("B,%d,n\n", i)
			}
			return fmt.Sprintf("A,%d,n\n", i)
		}), Query{Group: "g", MaxGroups: 2, Columns: []string{"x"}}, `1 group values met`},
		{"missing group", many(20000, func(i int) string { return fmt.Sprintf("A,%d,n\n", i) }),
			Query{Group: "g", Groups: []string{"A", "Z"}, Columns: []string{"x"}}, `group "Z" was not met`},
		{"column empty in the first rows", many(20000, func(i int) string {
			if i < 10000 {
				return fmt.Sprintf("A,%d,\n", i)
			}
			return fmt.Sprintf("A,%d,%d\n", i, i)
		}), Query{Group: "g", DropMissing: true}, `column "note" is empty`},
		{"error in the first rows", many(20000, func(i int) string {
			if i == 5 {
				return "A,1,2,3\n"
			}
			return fmt.Sprintf("A,%d,n\n", i)
		}), Query{Columns: []string{"x"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Sampling{Size: 100, Seek: true, Src: rand.NewPCG(5, 6)}
			got, err := seekCSV(tc.data, Options{}).Sample(context.Background(), tc.q, s)
			s.Seek = false
			want, werr := NewCSV(bytes.NewReader(tc.data), "s.csv", Options{}).Sample(context.Background(), tc.q, s)
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
				t.Fatalf("error %v, full read %v", err, werr)
			}
			if err != nil {
				return
			}
			if got.Sampled || !strings.Contains(got.Fallback, tc.reason) || (tc.reason == "") != (got.Fallback == "") {
				t.Errorf("sampled %v, fallback %q, want %q", got.Sampled, got.Fallback, tc.reason)
			}
			if len(got.Groups) != len(want.Groups) {
				t.Fatalf("%d groups, full read %d", len(got.Groups), len(want.Groups))
			}
			for i := range got.Groups {
				if got.Groups[i].Rows != want.Groups[i].Rows {
					t.Errorf("group %d: %d rows, full read %d", i, got.Groups[i].Rows, want.Groups[i].Rows)
				}
			}
		})
	}
}

// TestSeekErrors checks the errors of rows drawn: the byte offset of the
// line, and a ragged row reported by the full read with its line.
func TestSeekErrors(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("x,y\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "%d,%d\n", i, i)
	}
	good := b.Len()
	b.WriteString(strings.Repeat("1,abc\n", 20000))
	_, err := seekCSV(b.Bytes(), Options{}).Sample(context.Background(), Query{}, Sampling{Size: 100, Seek: true})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Err != ErrNotNumber || pe.Offset < int64(good) || pe.Line != 0 ||
		!strings.HasPrefix(b.String()[pe.Offset:], "1,abc\n") || !strings.Contains(err.Error(), "s.csv: line at byte ") {
		t.Errorf("error %v", err)
	}

	b.Truncate(good)
	b.WriteString(strings.Repeat("1,2,3\n", 20000))
	_, err = seekCSV(b.Bytes(), Options{}).Sample(context.Background(), Query{}, Sampling{Size: 100, Seek: true})
	if !errors.Is(err, ErrRagged) || !strings.Contains(err.Error(), "line 20002") {
		t.Errorf("error %v", err)
	}
}

// TestSeekSmallFile checks that a small file is read in full, without a
// note, and that Open makes a regular file seekable.
func TestSeekSmallFile(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{100, 200_000} {
		src, err := Open(genFile(t, dir, n), Options{})
		if err != nil {
			t.Fatal(err)
		}
		tab, err := src.Sample(context.Background(), Query{}, Sampling{Size: 1000, Seek: true})
		src.Close()
		if err != nil {
			t.Fatal(err)
		}
		if tab.Sampled != (n > 100) || tab.Fallback != "" || tab.Groups[0].Len() != min(n, 1000) {
			t.Errorf("%d rows: sampled %v, fallback %q, %d kept", n, tab.Sampled, tab.Fallback, tab.Groups[0].Len())
		}
	}
}

// BenchmarkSeek samples 25 000 rows by seeking from files of 10⁶ and 10⁷
// rows.
func BenchmarkSeek(b *testing.B) {
	dir := b.TempDir()
	for _, n := range []int{1_000_000, 10_000_000} {
		path := genFile(b, dir, n)
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				src, err := Open(path, Options{})
				if err != nil {
					b.Fatal(err)
				}
				tab, err := src.Sample(context.Background(), Query{}, Sampling{Size: 25000, Seek: true})
				src.Close()
				if err != nil {
					b.Fatal(err)
				}
				if !tab.Sampled {
					b.Fatalf("not sampled: %q", tab.Fallback)
				}
			}
		})
	}
}

// opaqueSource hides the type of its source, which readAhead then cannot
// copy: the seeker draws the same numbers without reading ahead.
type opaqueSource struct{ rand.Source }

// TestSeekAhead checks that reading ahead changes nothing in the sample —
// the same rows in the same order, the same estimates — on files whose
// blank lines upset the prediction of the draws, with groups, and with a
// ChaCha8 source; and that it reads the blocks in fewer calls than draws.
func TestSeekAhead(t *testing.T) {
	var g bytes.Buffer
	g.WriteString("g,x\n")
	for i := range 30000 {
		fmt.Fprintf(&g, "%c,%d\n", "AAB"[i%3], i)
	}
	for _, tc := range []struct {
		name string
		data []byte
		q    Query
	}{
		{"plain", layout{name: "plain"}.write(20000), Query{Columns: []string{"i"}}},
		{"blank lines", layout{blank: true}.write(20000), Query{Columns: []string{"i"}}},
		{"all", layout{bom: true, crlf: true, longName: true, quoted: true, noLastEOL: true, blank: true}.write(20000), Query{Columns: []string{"i"}}},
		{"groups", g.Bytes(), Query{Group: "g"}},
	} {
		for seed := range uint64(3) {
			sources := []func() rand.Source{
				func() rand.Source { return rand.NewPCG(seed, 9) },
				func() rand.Source { return rand.NewChaCha8([32]byte{byte(seed)}) },
			}
			for i, src := range sources {
				sample := func(s rand.Source) (*Table, int64) {
					cr := &countingReaderAt{r: bytes.NewReader(tc.data)}
					c := NewCSVAt(cr, int64(len(tc.data)), "s.csv", Options{})
					c.alwaysSeek = true
					tab, err := c.Sample(context.Background(), tc.q, Sampling{Size: 500, Seek: true, Src: s})
					if err != nil {
						t.Fatal(err)
					}
					return tab, cr.calls.Load()
				}
				got, calls := sample(src())
				want, _ := sample(opaqueSource{src()})
				if !got.Sampled || !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, seed %d, source %d: read ahead, sampled %v (%q), not the same table", tc.name, seed, i, got.Sampled, got.Fallback)
				}
				if tc.name == "plain" && calls >= int64(got.Draws) {
					t.Errorf("%s: %d reads for %d draws", tc.name, calls, got.Draws)
				}
			}
		}
	}
}
