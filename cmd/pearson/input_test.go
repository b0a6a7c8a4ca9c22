// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// rows is an input of a header and numbered rows that fails after max
// rows: a reader that nobody stops runs into the failure.
type rows struct{ n, max int }

func (r *rows) Read(p []byte) (int, error) {
	if r.n == r.max {
		return 0, errors.New("read to the end: the context did not stop the reading")
	}
	r.n++
	if r.n == 1 {
		return copy(p, "x\n"), nil
	}
	return copy(p, "1.5\n"), nil
}

// TestReadInterrupted checks that the command's context reaches the read
// loop: a cancelled context stops the reading of an input, which reports
// the interruption and nothing else.
func TestReadInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := Run(ctx, []string{"pearson", "divergence", "-", writeFile(t, "q.csv", "x\n1\n2\n")}, &rows{max: 1_000_000}, &out, &errb)
	if code != exitInterrupt || out.Len() != 0 || !strings.HasPrefix(errb.String(), "pearson: interrupted") {
		t.Errorf("code %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

// unread is an input that must not be read.
type unread struct{}

func (unread) Read([]byte) (int, error) {
	return 0, errors.New("the input was read before the settings were checked")
}

// TestSettingsBeforeReading checks that a setting the library refuses is a
// usage error before any input is read.
func TestSettingsBeforeReading(t *testing.T) {
	t.Parallel()
	q := writeFile(t, "q.csv", "x,y\n1,2\n2,3\n")
	for _, args := range [][]string{
		{"divergence", "--k", "-5", "-", q},
		{"test", "--alpha", "1", "-", q},
		{"mi", "--x", "x", "--y", "y", "--sigma-y", "-1", "-"},
		{"mi", "--x", "x", "--y", "y", "--permutations", "-1", "-"},
		{"rank", "--target", "y", "--folds", "1", "-"},
	} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), append([]string{"pearson"}, args...), unread{}, &out, &errb)
		if code != exitUsage || out.Len() != 0 || !strings.Contains(errb.String(), "usage: pearson "+args[0]) {
			t.Errorf("%v: code %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
}

// writeRows writes a CSV file of a header and n rows, row(i) giving the
// text of row i without its newline, and returns its path.
func writeRows(t *testing.T, name, header string, n int, row func(i int) string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(header + "\n")
	for i := range n {
		b.WriteString(row(i))
		b.WriteByte('\n')
	}
	return writeFile(t, name, b.String())
}

// runJSON runs the command with --format json and returns its output
// decoded, and its standard error; it fails the test unless the run
// succeeds.
func runJSON(t *testing.T, args ...string) (map[string]any, string) {
	t.Helper()
	code, out, errs := run(t, append(args, "--format", "json")...)
	if code != 0 {
		t.Fatalf("%v: code %d, stderr %q", args, code, errs)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %v in %q", args, err, out)
	}
	return v, errs
}

// TestSampledLengthBiased checks the sampled read on a file whose line
// lengths vary with the value: in P, a positive value is written with 20
// decimals (23 bytes a line), a negative one with one (5 bytes). A sampler
// that took the line around a random byte would see P's positive rows 4.6
// times as often as its negative ones, 82 rows in 100 positive instead of
// half. PE of the sampled run must match a scan
// of every row within the estimators' error; the scan of a file drawn as
// that biased sampler sees P must miss it by more than twice that.
//
// σ and λ are fixed, so that both runs estimate the same all-centre value
// and differ only by the rows drawn. The tolerance is 4·√2 standard errors
// of the difference: the draws' spread (stderr) does not include the
// sampling error of the kept rows themselves (--reservoir 3000 rows, which
// the 8 draws of k + m/2 = 550 rows of P share), which at most doubles the
// variance here: a uniform sample of R rows adds about the variance of an
// average over R rows, and the draws average over more rows than R.
func TestSampledLengthBiased(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(3, 4))
	line := func(v float64) string {
		if v > 0 {
			return strconv.FormatFloat(v, 'f', 20, 64)
		}
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	p := writeRows(t, "p.csv", "x", 200_000, func(int) string { return line(rnd.NormFloat64()) })
	q := writeRows(t, "q.csv", "x", 50_000, func(int) string { return strconv.FormatFloat(rnd.NormFloat64()-1, 'f', 3, 64) })
	biased := writeRows(t, "biased.csv", "x", 50_000, func(int) string {
		v := math.Abs(rnd.NormFloat64())
		if rnd.Float64() < 5.0/28 { // a line of 5 bytes against 23
			v = -v
		}
		return line(v)
	})
	args := []string{"pe", "--k", "50", "--m", "1000", "--draws", "8", "--reservoir", "3000", "--sigma", "1", "--lambda", "40"}
	sampled, errs := runJSON(t, append(args, p, q)...)
	if sampled["read_p"] != "sampled" || !strings.Contains(errs, "p.csv: sampled") {
		t.Fatalf("P was not sampled: read_p %v, stderr %q", sampled["read_p"], errs)
	}
	if n := sampled["rows_read_p"].(float64); n > 100_000 {
		t.Errorf("a sampled read read %v rows of P's 200000", n)
	}
	if n, se := sampled["n_p"].(float64), sampled["n_p_stderr"].(float64); se <= 0 || math.Abs(n-200_000) > 5*se {
		t.Errorf("n_p = %v ± %v, want 200000", n, se)
	}
	scan, _ := runJSON(t, append(args, "--scan", p, q)...)
	if scan["read_p"] != "scanned" || scan["rows_read_p"] != 200_000.0 || scan["n_p"] != 200_000.0 || scan["n_p_stderr"] != 0.0 {
		t.Fatalf("--scan: read_p %v, rows_read_p %v, n_p %v ± %v", scan["read_p"], scan["rows_read_p"], scan["n_p"], scan["n_p_stderr"])
	}
	wrong, _ := runJSON(t, append(args, "--scan", biased, q)...)
	pe := func(v map[string]any) (float64, float64) { return v["pe"].(float64), v["stderr"].(float64) }
	ps, ss := pe(sampled)
	pc, sc := pe(scan)
	pw, sw := pe(wrong)
	tol := 4 * math.Sqrt2 * math.Hypot(ss, sc)
	if math.Abs(ps-pc) > tol {
		t.Errorf("sampled PE %.4g ± %.2g, scanned %.4g ± %.2g: differ by more than %.2g", ps, ss, pc, sc, tol)
	}
	if math.Abs(pw-pc) < 2*4*math.Sqrt2*math.Hypot(sw, sc) {
		t.Errorf("a length-biased sample gives PE %.4g ± %.2g, scanned %.4g: the test cannot tell them apart", pw, sw, pc)
	}
	t.Logf("PE sampled %.4g ± %.2g, scanned %.4g ± %.2g, length-biased %.4g ± %.2g", ps, ss, pc, sc, pw, sw)
}

// smallBudget is a budget that makes files of some ten thousand rows worth
// sampling, so that the tests of sampled reads stay quick.
var smallBudget = []string{"--k", "20", "--m", "200", "--draws", "3", "--reservoir", "500"}

// TestSampledQuotedLines checks files whose quoted fields span lines,
// which defeats random access: the command says so on standard error and
// reads every row, keeping the rows --scan keeps, whether the rows read
// before drawing show it or a drawn block does (the seed's random stream is
// rewound to where the draws began).
func TestSampledQuotedLines(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(5, 6))
	q := writeRows(t, "q.csv", "x", 1000, func(int) string { return strconv.FormatFloat(rnd.NormFloat64()+1, 'f', 4, 64) })
	for _, tc := range []struct {
		name  string
		first int // the first row with a field spanning lines
	}{
		{"in the first rows", 100},
		{"in a drawn block", 10_000}, // past the first 64 KiB, read before drawing
	} {
		p := writeRows(t, "notes.csv", "note,x", 40_000, func(i int) string {
			note := ""
			if i >= tc.first && i%20 == 0 {
				note = "\"two\nlines\""
			}
			return note + "," + strconv.FormatFloat(rnd.NormFloat64(), 'f', 4, 64)
		})
		args := append([]string{"pe", "--columns", "x"}, smallBudget...)
		code, out, errs := run(t, append(args, p, q)...)
		if code != 0 || !strings.HasPrefix(errs, "pearson: "+p+": reading every row: ") || !strings.Contains(errs, "quote") {
			t.Fatalf("%s: code %d, stderr %q", tc.name, code, errs)
		}
		code, want, errs := run(t, append(args, "--scan", p, q)...)
		if code != 0 || errs != "" {
			t.Fatalf("%s: --scan: code %d, stderr %q", tc.name, code, errs)
		}
		if out != want {
			t.Errorf("%s: after the fallback:\n%s\nwith --scan:\n%s", tc.name, out, want)
		}
		for _, kv := range []string{"read_p       scanned", "rows_read_p  40000", "n_p          40000", "n_p_stderr   0"} {
			if !strings.Contains(out, kv+"\n") {
				t.Errorf("%s: no %q in\n%s", tc.name, kv, out)
			}
		}
	}
}

// TestSampledDataError checks that a bad cell met by a sampled read fails
// the run with the byte offset of its line.
func TestSampledDataError(t *testing.T) {
	t.Parallel()
	p := writeRows(t, "bad.csv", "x", 60_000, func(i int) string {
		if i > 25_000 && i%7 == 0 { // past the rows read before drawing
			return "abc"
		}
		return strconv.Itoa(i % 100)
	})
	q := writeRows(t, "q.csv", "x", 100, func(i int) string { return strconv.Itoa(i) })
	code, out, errs := run(t, append(append([]string{"pe"}, smallBudget...), p, q)...)
	if code != exitData || out != "" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errs)
	}
	_, rest, ok := strings.Cut(errs, p+": line at byte ")
	if !ok || !strings.Contains(errs, `cannot parse "abc"`) {
		t.Fatalf("stderr %q: no byte offset", errs)
	}
	off, err := strconv.Atoi(rest[:strings.IndexByte(rest, ',')])
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data[off:], []byte("abc\n")) || data[off-1] != '\n' {
		t.Errorf("byte %d starts %q, not the bad line", off, data[off:min(len(data), off+10)])
	}
}

// TestScanOfStreams checks the inputs that are always read in full:
// --scan on standard input is accepted and changes nothing, and the same
// data as CSV (with --scan), as .csv.gz and .csv.zst files and as gzip on
// standard input give the same output.
func TestScanOfStreams(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(7, 8))
	var csvText strings.Builder
	csvText.WriteString("g,x\n")
	for i := range 20_000 {
		g := "a"
		if i%2 == 1 {
			g = "b"
		}
		fmt.Fprintf(&csvText, "%s,%.4f\n", g, rnd.NormFloat64()+float64(i%2)/2)
	}
	plain := writeFile(t, "data.csv", csvText.String())
	var gz, zs bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write([]byte(csvText.String()))
	gw.Close()
	zw, err := zstd.NewWriter(&zs)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write([]byte(csvText.String()))
	zw.Close()
	gzFile := writeFile(t, "data.csv.gz", gz.String())
	zstFile := writeFile(t, "data.csv.zst", zs.String())

	args := append([]string{"pe", "--group", "g"}, smallBudget...)
	code, sampled, _ := run(t, append(args, plain)...)
	if code != 0 || !strings.Contains(sampled, "read_p       sampled") {
		t.Fatalf("the CSV file was not sampled: code %d, stdout %q", code, sampled)
	}
	code, want, errs := run(t, append(args, "--scan", plain)...)
	if code != 0 || errs != "" || !strings.Contains(want, "read_p       scanned") || !strings.Contains(want, "rows_read_p  20000") {
		t.Fatalf("--scan: code %d, stdout %q, stderr %q", code, want, errs)
	}
	for _, tc := range []struct {
		name, stdin string
		args        []string
	}{
		{"stdin", csvText.String(), []string{"-"}},
		{"stdin --scan", csvText.String(), []string{"--scan", "-"}},
		{".csv.gz", "", []string{gzFile}},
		{".csv.zst", "", []string{zstFile}},
		{"gzip on stdin", gz.String(), []string{"-"}},
		{"zstd on stdin --scan", zs.String(), []string{"--scan", "-"}},
	} {
		code, out, errs := runStdin(t, tc.stdin, append(slices.Clone(args), tc.args...)...)
		if code != 0 || errs != "" {
			t.Errorf("%s: code %d, stderr %q", tc.name, code, errs)
		} else if out != want {
			t.Errorf("%s:\n%s\nwith --scan on the CSV file:\n%s", tc.name, out, want)
		}
	}
}

// BenchmarkRunSampled times the divergence command end to end on two files
// of 10⁶ rows each, at the default settings: sampled (the rows the estimate
// uses drawn at random positions) and scanned (--scan: every row read).
func BenchmarkRunSampled(b *testing.B) {
	dir := b.TempDir()
	rnd := rand.New(rand.NewPCG(1, 2))
	var files []string
	for _, name := range []string{"p.csv", "q.csv"} {
		var buf bytes.Buffer
		buf.WriteString("x\n")
		shift := float64(len(files)) / 2
		for range 1_000_000 {
			buf.WriteString(strconv.FormatFloat(rnd.NormFloat64()+shift, 'f', 4, 64))
			buf.WriteByte('\n')
		}
		path := dir + "/" + name
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, path)
	}
	for _, mode := range []struct{ name, flag string }{{"sampled", ""}, {"scanned", "--scan"}} {
		b.Run(mode.name, func(b *testing.B) {
			args := []string{"pearson", "divergence", files[0], files[1]}
			if mode.flag != "" {
				args = append(args, mode.flag)
			}
			var out, errs bytes.Buffer
			for b.Loop() {
				out.Reset()
				errs.Reset()
				if code := Run(context.Background(), args, strings.NewReader(""), &out, &errs); code != 0 {
					b.Fatalf("code %d: %s", code, errs.String())
				}
			}
			if want := "read_p       " + mode.name; !strings.Contains(out.String(), want) {
				b.Fatalf("no %q in\n%s", want, out.String())
			}
		})
	}
}
