// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sublinear/pearson/internal/testtier"
)

// bigFile writes a CSV of n rows of two columns, shifted by shift.
func bigFile(t *testing.T, name string, n int, shift float64) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := range n {
		fmt.Fprintf(&b, "%g,%g\n", shift+float64(i%101)/50, float64(i%37)/20)
	}
	return writeFile(t, name, b.String())
}

// oldOutput writes an earlier output file, which an interrupted or failed
// run must leave byte-identical.
func oldOutput(t *testing.T, dir, name string) (path string, check func()) {
	t.Helper()
	path = filepath.Join(dir, name)
	const old = "an earlier output\n"
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, func() {
		t.Helper()
		got, err := os.ReadFile(path)
		if err != nil || string(got) != old {
			t.Errorf("%s: %q, %v: the earlier output was changed", name, got, err)
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				t.Errorf("temporary file %s left behind", e.Name())
			}
		}
	}
}

// interrupt runs the command line, cancels its context when cancelAt
// returns true (polled every millisecond), and returns the exit code,
// stderr and the time from the cancellation to the return.
func interrupt(t *testing.T, stdin any, cancelAt func() bool, args ...string) (int, string, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb bytes.Buffer
	var cancelled time.Time
	done := make(chan int)
	in, _ := stdin.(interface{ Read([]byte) (int, error) })
	if in == nil {
		in = strings.NewReader("")
	}
	go func() { done <- Run(ctx, append([]string{"pearson"}, args...), in, &out, &errb) }()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case code := <-done:
			if cancelled.IsZero() {
				t.Fatalf("the run ended before the interruption: code %d, stderr %q", code, errb.String())
			}
			if out.Len() != 0 {
				t.Errorf("output after an interruption: %q", out.String())
			}
			return code, errb.String(), time.Since(cancelled)
		case <-tick.C:
			if cancelled.IsZero() && cancelAt() {
				cancelled = time.Now()
				cancel()
			}
		}
	}
}

// after returns a cancelAt that fires d after its first call.
func after(d time.Duration) func() bool {
	var start time.Time
	return func() bool {
		if start.IsZero() {
			start = time.Now()
		}
		return time.Since(start) > d
	}
}

// stopWithin is how soon an interrupted run must end. A run stops about
// 100 ms after the interruption (logged), but a pass/fail test cannot assert
// that on a shared machine: at a load average of 25 on two cores, with the
// package's parallel tests, it measured 1.05 s. The bound only separates
// stopping at the next check from running on (the million draws of
// TestInterruptMidDraws take minutes), with the race detector too.
const stopWithin = 10 * time.Second

// checkInterrupted asserts exit code 130, the message and the time to stop.
func checkInterrupted(t *testing.T, code int, stderr string, took time.Duration) {
	t.Helper()
	t.Logf("stopped %v after the interruption", took)
	if code != exitInterrupt || !strings.Contains(stderr, "pearson: interrupted") {
		t.Errorf("code %d, stderr %q; want %d and \"interrupted\"", code, stderr, exitInterrupt)
	}
	if took > stopWithin {
		t.Errorf("took %v to stop, want well under %v", took, stopWithin)
	}
}

func TestInterruptMidDraws(t *testing.T) {
	t.Parallel()
	p, q := bigFile(t, "p.csv", 300, 0), bigFile(t, "q.csv", 300, 0.5)
	dir := t.TempDir()
	ratio, check := oldOutput(t, dir, "ratio.csv")
	code, stderr, took := interrupt(t, nil, after(300*time.Millisecond), "pe", "--draws", "1000000", "--k", "5", "--m", "20", "--sigma", "1", "--lambda", "0.1", "--ratio-out", ratio, p, q)
	checkInterrupted(t, code, stderr, took)
	check()
}

func TestInterruptMidPermutations(t *testing.T) {
	t.Parallel()
	p, q := bigFile(t, "p.csv", 300, 0), bigFile(t, "q.csv", 300, 0.5)
	dir := t.TempDir()
	plot, check := oldOutput(t, dir, "null.svg")
	code, stderr, took := interrupt(t, nil, after(300*time.Millisecond), "test", "--permutations", "1000000", "--k", "10", "--m", "40", "--plot", plot, p, q)
	checkInterrupted(t, code, stderr, took)
	check()
}

// endless is an input that never ends: a header, then rows forever.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	e.n++
	if e.n == 1 {
		return copy(p, "x\n"), nil
	}
	return copy(p, "1.5\n2.5\n"), nil
}

// blocked is an input whose reads never return, as a terminal nobody
// types in.
type blocked struct{}

func (blocked) Read([]byte) (int, error) { select {} }

func TestInterruptMidRead(t *testing.T) {
	t.Parallel()
	q := bigFile(t, "q.csv", 50, 0)
	for _, tc := range []struct {
		name string
		in   any
	}{{"endless", &endless{}}, {"blocked", blocked{}}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			plot, check := oldOutput(t, dir, "r.svg")
			code, stderr, took := interrupt(t, tc.in, after(200*time.Millisecond), "pe", "--reservoir", "100", "--plot", plot, "-", q)
			checkInterrupted(t, code, stderr, took)
			check()
		})
	}
}

func TestInterruptMidSecondPass(t *testing.T) {
	t.Parallel()
	p, q := bigFile(t, "p.csv", 400_000, 0), bigFile(t, "q.csv", 400_000, 0.5)
	dir := t.TempDir()
	ratio, check := oldOutput(t, dir, "ratio.csv")
	// Cancel once the temporary file of --ratio-out has rows: the second
	// pass is under way.
	writing := func() bool {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if fi, err := e.Info(); err == nil && strings.HasPrefix(e.Name(), ".ratio") && fi.Size() > 0 {
				return true
			}
		}
		return false
	}
	code, stderr, took := interrupt(t, nil, writing, "pe", "--sigma", "1", "--lambda", "0.1", "--ratio-out", ratio, p, q)
	checkInterrupted(t, code, stderr, took)
	check()
}

func TestMemoryBudget(t *testing.T) {
	t.Parallel()
	p, q := bigFile(t, "p.csv", 100, 0), bigFile(t, "q.csv", 100, 0.5)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"pe", "--k", "10000", "-", q}, []string{"would need about", "GiB", "lower --k", "--max-memory"}},
		{[]string{"pe", "--draws", "1000000", "-", q}, []string{"lower --draws"}},
		{[]string{"test", "--permutations", "10000000", "--max-memory", "100M", "-", q}, []string{"lower --permutations", "100 MiB"}},
		{[]string{"pe", "--max-memory", "10M", "-", q}, []string{"more than the budget of 10 MiB"}},
		{[]string{"pe", "--max-memory", "lots", p, q}, []string{`--max-memory "lots"`, "positive size"}},
	} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), append([]string{"pearson"}, tc.args...), unread{}, &out, &errb)
		if code != exitUsage {
			t.Errorf("%q: code %d, want %d; stderr %q", tc.args, code, exitUsage, errb.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(errb.String(), w) {
				t.Errorf("%q: stderr %q lacks %q", tc.args, errb.String(), w)
			}
		}
	}
	// Raised, the budget lets the run go.
	if code, _, stderr := run(t, "pe", "--max-memory", "64G", "--k", "20", p, q); code != exitOK {
		t.Errorf("--max-memory 64G: code %d, stderr %q", code, stderr)
	}
}

func TestParseSize(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]float64{"1000": 1000, "4K": 4096, "512M": 512 << 20, "2G": 2 << 30, "1.5GiB": 1.5 * (1 << 30), "1t": 1 << 40, "3kb": 3072} {
		if got, err := parseSize(s); err != nil || got != want {
			t.Errorf("parseSize(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "-1G", "0", "G", "1X", "NaN", "1e400"} {
		if _, err := parseSize(s); err == nil {
			t.Errorf("parseSize(%q) accepted", s)
		}
	}
}

func TestExactRefusedBeforeReading(t *testing.T) {
	t.Parallel()
	p := bigFile(t, "p.csv", 20_000, 0)
	start := time.Now()
	code, _, stderr := run(t, "pe", "--exact", p, p)
	if code != exitUsage || !strings.Contains(stderr, "--exact") || !strings.Contains(stderr, "about") || !strings.Contains(stderr, "5000") {
		t.Errorf("code %d, stderr %q", code, stderr)
	}
	t.Logf("refused in %v", time.Since(start))
}

// stdoutFile returns a file to use as standard output.
func stdoutFile(t *testing.T, dir, name string) *os.File {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestOutputIsStandardOutput(t *testing.T) {
	t.Parallel()
	p, q := bigFile(t, "p.csv", 100, 0), bigFile(t, "q.csv", 100, 0.5)
	dir := t.TempDir()
	res := stdoutFile(t, dir, "res.txt")
	svg := stdoutFile(t, dir, "r.svg")
	for _, tc := range []struct {
		stdout *os.File
		args   []string
	}{
		{res, []string{"pe", "--ratio-out", res.Name(), p, q}},
		{svg, []string{"pe", "--plot", svg.Name(), p, q}},
	} {
		var errb bytes.Buffer
		code := Run(context.Background(), append([]string{"pearson"}, tc.args...), strings.NewReader(""), tc.stdout, &errb)
		if code != exitUsage || !strings.Contains(errb.String(), "standard output") {
			t.Errorf("%q: code %d, stderr %q", tc.args, code, errb.String())
		}
	}
	// The same through a link, or as the input read from "-".
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(res.Name(), link); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var errb bytes.Buffer
	if code := Run(context.Background(), []string{"pearson", "pe", "--plot", filepath.Join(dir, "x.svg"), "--ratio-out", link, "-", q}, in, res, &errb); code != exitUsage {
		t.Errorf("--ratio-out a link to stdout's file: code %d, stderr %q", code, errb.String())
	}
}

func TestOutputPipeAndDevice(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("mkfifo and /dev/full")
	}
	p, q := bigFile(t, "p.csv", 100, 0), bigFile(t, "q.csv", 100, 0.5)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	start := time.Now()
	code, out, stderr := run(t, "pe", "--ratio-out", fifo, p, q)
	if code != exitData || out != "" || !strings.Contains(stderr, "no reader") || time.Since(start) > 10*time.Second {
		t.Errorf("FIFO without a reader: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left in %s: %v", dir, entries)
	}
	// With a reader, the ratios go through the pipe.
	got := make(chan []byte)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		var b bytes.Buffer
		b.ReadFrom(f)
		got <- b.Bytes()
	}()
	for {
		if code, _, stderr = run(t, "pe", "--ratio-out", fifo, p, q); !strings.Contains(stderr, "no reader") {
			break
		}
		time.Sleep(10 * time.Millisecond) // the reader is not there yet
	}
	if b := <-got; code != exitOK || !bytes.HasPrefix(b, []byte("file,line,x,y,ratio\n")) {
		t.Errorf("FIFO with a reader: code %d, stderr %q, read %.40q", code, stderr, b)
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		return
	}
	code, out, stderr = run(t, "pe", "--ratio-out", "/dev/full", p, q)
	if code != exitData || out != "" || !strings.Contains(stderr, "no space") {
		t.Errorf("/dev/full: code %d, stdout %q, stderr %q: the error must come before the result", code, out, stderr)
	}
}

func TestNumbersThatFit(t *testing.T) {
	t.Parallel()
	var a, b strings.Builder
	a.WriteString("x,y\n")
	b.WriteString("x,y\n")
	for i := range 60 {
		fmt.Fprintf(&a, "%g,%g\n", 1.5e308*(float64(i%7-3)/3), -1.4e308*(float64(i%5-2)/2))
		fmt.Fprintf(&b, "%g,%g\n", 1.2e308*(float64(i%9-4)/4), 1.1e308*float64(i%3-1))
	}
	p, q := writeFile(t, "p.csv", a.String()), writeFile(t, "q.csv", b.String())
	code, out, stderr := run(t, "pe", "--standardize=false", "--format", "json", p, q)
	if code != exitData || out != "" || !strings.Contains(stderr, "--standardize") {
		t.Errorf("huge values: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	for _, opt := range []string{"--standardize", "--seed=1"} { // the default for two columns, and said
		code, out, stderr = run(t, "pe", opt, "--format", "json", p, q)
		if code != exitOK || strings.Contains(out, "null") || strings.Contains(stderr, "NaN") {
			t.Errorf("huge values, %s: code %d, stdout %q, stderr %q", opt, code, out, stderr)
		}
	}
	code, _, stderr = run(t, "pe", "--sigma", "1e-310", p, q)
	if code != exitUsage || !strings.Contains(stderr, "--sigma 1e-310") || !strings.Contains(stderr, "2.2250738585072014e-308") {
		t.Errorf("subnormal σ: code %d, stderr %q", code, stderr)
	}
}

func TestOneDrawNoStdErr(t *testing.T) {
	t.Parallel()
	p, q := bigFile(t, "p.csv", 200, 0), bigFile(t, "q.csv", 200, 0.5)
	code, out, _ := run(t, "pe", "--draws", "1", "--format", "json", p, q)
	if code != exitOK || !strings.Contains(out, `"stderr":null`) || !strings.Contains(out, `"draw_stderr":null`) || !strings.Contains(out, oneDrawWarning) {
		t.Errorf("json: code %d, stdout %q", code, out)
	}
	code, out, _ = run(t, "pe", "--draws", "1", p, q)
	if code != exitOK || !strings.Contains(out, "stderr       n/a\n") || !strings.Contains(out, "draw_stderr  n/a\n") {
		t.Errorf("text: code %d, stdout %q", code, out)
	}
	code, out, _ = run(t, "mi", "--x", "x", "--y", "y", "--draws", "1", "--format", "json", p)
	if code != exitOK || !strings.Contains(out, `"stderr":null`) || !strings.Contains(out, `"draw_stderr":null`) || !strings.Contains(out, oneDrawWarning) {
		t.Errorf("mi json: code %d, stdout %q", code, out)
	}
}

func TestSmallerFindings(t *testing.T) {
	t.Parallel()
	p, q := bigFile(t, "p.csv", 100, 0), bigFile(t, "q.csv", 100, 0.5)
	if code, _, stderr := run(t, "pe", "--reservoir", "1", p, q); code != exitUsage || !strings.Contains(stderr, "--reservoir 1") {
		t.Errorf("--reservoir 1: code %d, stderr %q", code, stderr)
	}
	cr := writeFile(t, "cr.csv", "x,y\r1,2\r3,4\r5,6\r")
	if code, _, stderr := run(t, "pe", cr, q); code != exitData || !strings.Contains(stderr, "carriage return alone") {
		t.Errorf("CR line ends: code %d, stderr %q", code, stderr)
	}
	var b strings.Builder
	b.WriteString("ratio,\"li\nne\",file\n")
	for i := range 60 {
		fmt.Fprintf(&b, "%d,%d,%d\n", i%7, i%5, i%3)
	}
	odd := writeFile(t, "odd.csv", b.String())
	out := filepath.Join(t.TempDir(), "r.csv")
	code, stdout, stderr := run(t, "pe", "--ratio-out", out, odd, odd)
	if code != exitOK || !strings.Contains(stdout, `"li\nne"`) || strings.Contains(stdout, "li\nne") {
		t.Errorf("names with a newline or of the output's columns: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	got, _ := os.ReadFile(out)
	if !bytes.HasPrefix(got, []byte("_file,line,ratio,\"li\nne\",file,_ratio\n")) {
		t.Errorf("--ratio-out header: %.60q", got)
	}
}

func TestSecondPassRows(t *testing.T) {
	t.Parallel()
	in := &twoSamples{paths: []string{"p.csv", "q.csv"}, p: sample{rows: 10}, q: sample{rows: 20}}
	if err := checkSecondPass(in, 1, 20); err != nil {
		t.Error(err)
	}
	if err := checkSecondPass(in, 1, 19); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Errorf("a file shorter on the second pass: %v", err)
	}
}

// TestSecondPassSeesTruncatedInput cuts the numerator file to half its
// rows (at a line boundary) while --ratio-out's second pass reads it: the
// run must fail, naming the file and both counts, and leave the earlier
// output as it was, rather than write ratios for fewer rows than were
// estimated from. The file must be long enough for the test to see the
// second pass under way (a 1 ms ticker) before it ends; under the race
// detector, which reads five to ten times slower, a quarter of the rows
// leaves it as long (400 000 rows under it cost 280 s at load 20).
func TestSecondPassSeesTruncatedInput(t *testing.T) {
	t.Parallel()
	rows := 400_000
	if testtier.Race {
		rows = 100_000
	}
	p, q := bigFile(t, "p.csv", rows, 0), bigFile(t, "q.csv", rows, 0.5)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	half := 0 // the offset just past line rows/2 + 1 (the header, then rows/2 rows)
	for n := 0; n <= rows/2; n++ {
		half += bytes.IndexByte(data[half:], '\n') + 1
	}
	dir := t.TempDir()
	ratio, check := oldOutput(t, dir, "ratio.csv")
	var out, errb bytes.Buffer
	done := make(chan int)
	go func() {
		done <- Run(context.Background(), []string{"pearson", "pe", "--scan", "--sigma", "1", "--lambda", "0.1", "--ratio-out", ratio, p, q}, unread{}, &out, &errb)
	}()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	cut := false
	for {
		select {
		case code := <-done:
			if !cut {
				t.Fatalf("the run ended before the second pass was seen: code %d, stderr %q", code, errb.String())
			}
			want := fmt.Sprintf("the second pass read %d rows, the first %d", rows/2, rows)
			if code != exitData || !strings.Contains(errb.String(), want) || out.Len() != 0 {
				t.Errorf("code %d, stdout %q, stderr %q; want %d and %q", code, out.String(), errb.String(), exitData, want)
			}
			check()
			return
		case <-tick.C:
			if cut {
				continue
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if fi, err := e.Info(); err == nil && strings.HasPrefix(e.Name(), ".ratio") && fi.Size() > 0 {
					// The second pass is under way, a block or so into p.csv.
					if err := os.Truncate(p, int64(half)); err != nil {
						t.Fatal(err)
					}
					cut = true
				}
			}
		}
	}
}
