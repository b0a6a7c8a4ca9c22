// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sublinear/pearson/internal/testtier"
)

// seriesCSV is a CSV series "t,x,y" of rows rows: t = 1000 + 2·row, x
// jumps by 3 standard deviations at row change, y is noise.
func seriesCSV(rows, change int) string {
	var b strings.Builder
	b.WriteString("t,x,y\n")
	rnd := rand.New(rand.NewPCG(16, 16))
	for i := range rows {
		x := rnd.NormFloat64()
		if i >= change {
			x += 3
		}
		fmt.Fprintf(&b, "%d,%.4f,%.4f\n", 1000+2*i, x, rnd.NormFloat64())
	}
	return b.String()
}

func TestChangepointFormats(t *testing.T) {
	t.Parallel()
	path := writeFile(t, "series.csv", seriesCSV(600, 300))
	args := []string{"changepoint", "--columns", "x", "--time", "t", "--step", "5", path}
	outputs := map[string]string{}
	for _, f := range changepointFormats {
		code, out, errs := run(t, append(args, "--format", f)...)
		if code != 0 || errs != "" {
			t.Fatalf("%s: code %d, stderr %q", f, code, errs)
		}
		outputs[f] = out
	}

	// CSV: a score every 5 rows, from the first complete windows, and the
	// change at row 300 (t = 1600) found within 5 rows.
	recs, err := csv.NewReader(strings.NewReader(outputs["csv"])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != "kind,time,score,before,after" {
		t.Fatalf("CSV header %v", recs[0])
	}
	var scores int
	var points []float64
	for _, r := range recs[1:] {
		tm, _ := strconv.ParseFloat(r[1], 64)
		switch r[0] {
		case "score":
			if want := 1000 + 2*(50+10/2+5*scores); scores < 3 && tm != float64(want) {
				t.Errorf("score %d at time %v, want %d", scores, tm, want)
			}
			scores++
		case "change_point":
			points = append(points, tm)
		default:
			t.Errorf("kind %q", r[0])
		}
	}
	// Rows 50 … 540 (the last after window starts at 600 − 50 − 9), every
	// 5th: 99 scores.
	if scores != 99 {
		t.Errorf("%d scores, want 99", scores)
	}
	found := false
	for _, p := range points {
		found = found || (p >= 1590 && p <= 1610)
	}
	if !found {
		t.Errorf("change points at %v, want one within 5 rows of t = 1600", points)
	}

	// JSON: one object with the same scores and change points.
	var obj struct {
		Scores       []map[string]float64 `json:"scores"`
		ChangePoints []map[string]float64 `json:"change_points"`
		Rows         int                  `json:"rows"`
		Time         string               `json:"time"`
		Columns      []string             `json:"columns"`
		Detected     int                  `json:"detected"`
	}
	if err := json.Unmarshal([]byte(outputs["json"]), &obj); err != nil {
		t.Fatalf("JSON: %v\n%s", err, outputs["json"])
	}
	if len(obj.Scores) != scores || len(obj.ChangePoints) != len(points) || obj.Detected != len(points) ||
		obj.Rows != 600 || obj.Time != "t" || strings.Join(obj.Columns, ",") != "x" {
		t.Errorf("JSON: %d scores, %d change points (detected %d), rows %d, time %q, columns %v",
			len(obj.Scores), len(obj.ChangePoints), obj.Detected, obj.Rows, obj.Time, obj.Columns)
	}

	// JSON Lines: a line per score and change point, then the summary.
	lines := strings.Split(strings.TrimSuffix(outputs["jsonl"], "\n"), "\n")
	if len(lines) != scores+len(points)+1 {
		t.Errorf("%d JSON lines, want %d", len(lines), scores+len(points)+1)
	}
	for i, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, l)
		}
		if last := i == len(lines)-1; last != (v["kind"] == "summary") {
			t.Errorf("line %d of %d has kind %v", i+1, len(lines), v["kind"])
		}
	}

	// Text: the details and a table of the change points.
	if !strings.Contains(outputs["text"], fmt.Sprintf("detected      %d\n", len(points))) ||
		!strings.Contains(outputs["text"], "time  score") {
		t.Errorf("text output:\n%s", outputs["text"])
	}

	// The same seed, the same bytes.
	if _, again, _ := run(t, append(args, "--format", "csv")...); again != outputs["csv"] {
		t.Error("two runs with the same seed differ")
	}
}

func TestChangepointBadInput(t *testing.T) {
	t.Parallel()
	good := writeFile(t, "good.csv", seriesCSV(200, 100))
	for _, c := range []struct {
		name string
		in   string // file content; "" for good
		args []string
		code int
		want []string
	}{
		{"non-monotone time", "t,x\n1,0.5\n3,0.1\n2,0.7\n", []string{"--time", "t", "--columns", "x"}, 1, []string{"line 4", "row 2 (2) is not after that of row 1 (3)"}},
		{"too few rows", seriesCSV(108, 50), []string{"--stream", "--columns", "x"}, 1, []string{"108 rows", "at least 109"}},
		{"too few rows, small window", seriesCSV(40, 20), []string{"--stream", "--columns", "x", "--window", "20", "--embed", "2"}, 1, []string{"40 rows", "at least 41"}},
		{"too few rows to segment", "x\n1\n2\n3\n4\n5\n", nil, 1, []string{"5 rows", "at least 8"}},
		{"empty line", "x\n1\n2\n\n4\n5\n", nil, 1, []string{"line 4", "row 2 is missing", "--drop-missing"}},
		{"empty cell", "x,y\n1,2\n2,\n", nil, 1, []string{"line 3", `column "y"`}},
		{"segment window", "", []string{"--window", "2"}, 2, []string{"--window 2: need 3 to"}},
		{"changes", "", []string{"--changes", "-1"}, 2, []string{"--changes -1"}},
		{"penalty", "", []string{"--penalty", "-1"}, 2, []string{"--penalty -1"}},
		{"penalty and threshold", "", []string{"--penalty", "3", "--threshold", "2"}, 2, []string{"--penalty and --threshold"}},
		{"rows over the budget", "", []string{"--max-memory", "30724K"}, 1, []string{"good.csv: line ", "rows of 3 columns", "--max-memory", "--stream"}},
		{"huge stream window", "", []string{"--stream", "--window", "10000000", "--embed", "100", "--max-memory", "100M"}, 2, []string{"--window 10000000", "raise --max-memory"}},
		{"huge embed", "", []string{"--embed", "1000000000"}, 2, []string{"--embed 1000000000"}},
		{"NaN", "x,y\n1,2\n3,NaN\n", nil, 1, []string{"line 3", `column "y"`, `"NaN" is a missing value`, "--drop-missing"}},
		{"Inf", "x,y\n1,2\n3,Inf\n", nil, 1, []string{"line 3", `column "y"`, "not a finite number"}},
		{"non-numeric column", "t,x\n1,0.5\n2,a\n", []string{"--columns", "x"}, 1, []string{"line 3", `column "x"`, `"a"`}},
		{"unknown column", "", []string{"--columns", "z"}, 1, []string{`"z"`}},
		{"window", "", []string{"--stream", "--window", "5"}, 2, []string{"--window 5: need 10 to"}},
		{"alpha", "", []string{"--alpha", "1"}, 2, []string{"--alpha 1: α must lie in [0, 1)"}},
		{"step", "", []string{"--step", "-1"}, 2, []string{"--step -1"}},
		{"k", "", []string{"--k", "-3"}, 2, []string{"--k -3"}},
		{"min distance", "", []string{"--stream", "--min-distance", "-1"}, 2, []string{"--min-distance -1", "(0: the window)"}},
		{"exact window", "", []string{"--exact", "--window", "6000"}, 2, []string{"--window 6000"}},
		{"exact and k", "", []string{"--exact", "--k", "20"}, 2, []string{"--k and --exact"}},
		{"time not numeric", "t,x\na,0.5\nb,0.1\n", []string{"--time", "t"}, 1, []string{"line 2", `column "t"`, `"a": neither a number nor an ISO 8601 date`}},
		{"time alone", "t,x\n1,a\n2,b\n", []string{"--time", "t"}, 1, []string{"--time t is the only numeric column"}},
		{"time in columns", "", []string{"--time", "t", "--columns", "t,x"}, 2, []string{"also in --columns"}},
		{"format", "", []string{"--format", "xml"}, 2, []string{`unknown --format "xml"`, "jsonl"}},
		{"plot", "", []string{"--plot", "a.jpg"}, 2, []string{"--plot", ".png or .svg"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			path := good
			if c.in != "" {
				path = writeFile(t, "in.csv", c.in)
			}
			code, out, errs := run(t, append(append([]string{"changepoint"}, c.args...), path)...)
			if code != c.code {
				t.Fatalf("code %d, want %d; stderr %q", code, c.code, errs)
			}
			if c.code == 2 && out != "" {
				t.Errorf("a usage error wrote output: %q", out)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q lacks %q", errs, w)
				}
			}
		})
	}
}

// --time without --columns takes every other numeric column as the series,
// from a file (whose columns are read first) and from standard input (whose
// start is recorded until the first row), wherever the time column stands.
func TestChangepointTimeDefaultColumns(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("label,x,t,y\n")
	for i, line := range strings.Split(strings.TrimSpace(seriesCSV(200, 100)), "\n")[1:] {
		f := strings.Split(line, ",") // t, x, y
		fmt.Fprintf(&b, "r%d,%s,%s,%s\n", i, f[1], f[0], f[2])
	}
	path := writeFile(t, "series.csv", b.String())
	opts := []string{"--window", "20", "--embed", "3", "--step", "5", "--format", "json"}
	code, want, errs := run(t, append(append([]string{"changepoint", "--time", "t", "--columns", "x,y"}, opts...), path)...)
	if code != 0 {
		t.Fatalf("with --columns: code %d: %s", code, errs)
	}
	if !strings.Contains(want, `"columns":["x","y"]`) || !strings.Contains(want, `"time":"t"`) {
		t.Fatalf("with --columns: %s", want)
	}
	code, got, errs := run(t, append(append([]string{"changepoint", "--time", "t"}, opts...), path)...)
	if code != 0 || got != want {
		t.Errorf("a file without --columns: code %d, stderr %q; output differs:\n%s\nwant\n%s", code, errs, got, want)
	}
	if !strings.Contains(errs, "label") {
		t.Errorf("the column left out is not named on standard error: %q", errs)
	}
	code, got, errs = runStdin(t, b.String(), append(append([]string{"changepoint", "--time", "t"}, opts...), "-")...)
	want = strings.Replace(want, `"input":"`+path+`"`, `"input":"\u003cstdin\u003e"`, 1) // as encoding/json writes "<stdin>"
	if code != 0 || got != want {
		t.Errorf("standard input without --columns: code %d, stderr %q; output differs:\n%s\nwant\n%s", code, errs, got, want)
	}
}

// signalWriter passes writes to w and closes first when the output holds a
// line of a score.
type signalWriter struct {
	w     io.Writer
	buf   bytes.Buffer
	first chan struct{}
	seen  bool
}

func (s *signalWriter) Write(p []byte) (int, error) {
	s.buf.Write(p)
	if !s.seen && strings.Contains(s.buf.String(), "score,") {
		s.seen = true
		close(s.first)
	}
	return s.w.Write(p)
}

// The scores of a stream come as its rows arrive: the first is written
// before the input ends. The writer of the input waits for it, so that a
// command waiting for the end of the input would never write it.
func TestChangepointStreams(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	var out bytes.Buffer
	sw := &signalWriter{w: &out, first: make(chan struct{})}
	series := seriesCSV(400, 200)
	firstPart := strings.Join(strings.SplitAfter(series, "\n")[:150], "") // header and 149 rows: enough for windows of 20
	fed := make(chan error, 1)
	go func() {
		if _, err := io.WriteString(pw, firstPart); err != nil {
			fed <- err
			return
		}
		select {
		case <-sw.first:
		case <-time.After(60 * time.Second):
			pw.CloseWithError(fmt.Errorf("no score after 149 rows"))
			fed <- fmt.Errorf("no score was written before the input ended")
			return
		}
		_, err := io.WriteString(pw, series[len(firstPart):])
		pw.Close()
		fed <- err
	}()
	var errb bytes.Buffer
	code := Run(context.Background(), []string{"pearson", "changepoint", "--stream", "--columns", "x,y", "--window", "20", "--embed", "3", "--format", "csv", "-"}, pr, sw, &errb)
	if err := <-fed; err != nil {
		t.Fatal(err)
	}
	if code != 0 {
		t.Fatalf("code %d: %s", code, errb.String())
	}
	if n := strings.Count(out.String(), "\nscore,"); n != 400-2*20-3+2 {
		t.Errorf("%d scores, want %d", n, 400-2*20-3+2)
	}
}

// seriesStream generates a CSV series "x" of rows rows, row by row,
// without holding it.
type seriesStream struct {
	rows, done int
	rnd        *rand.Rand
	buf        bytes.Buffer
}

func (s *seriesStream) Read(p []byte) (int, error) {
	for s.buf.Len() < len(p) && s.done <= s.rows {
		if s.done == 0 {
			s.buf.WriteString("x\n")
		} else {
			level := float64(s.done / 50_000 % 2) // a change every 50 000 rows
			fmt.Fprintf(&s.buf, "%.4f\n", level+s.rnd.NormFloat64())
		}
		s.done++
	}
	if s.buf.Len() == 0 {
		return 0, io.EOF
	}
	return s.buf.Read(p)
}

// peakHeap runs fn and returns the heap in use before, after a garbage
// collection, and its peak while fn ran, sampled every 10 ms.
func peakHeap(fn func()) (before, peak uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before = ms.HeapInuse
	var top atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			for p := top.Load(); ms.HeapInuse > p && !top.CompareAndSwap(p, ms.HeapInuse); p = top.Load() {
			}
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	fn()
	close(stop)
	<-done
	return before, top.Load()
}

// kindCounter counts the lines of JSON Lines output by kind, without
// keeping them; each Write is one line.
type kindCounter struct{ kinds map[string]int }

func (k *kindCounter) Write(p []byte) (int, error) {
	var v struct{ Kind string }
	if err := json.Unmarshal(p, &v); err != nil {
		return 0, err
	}
	if k.kinds == nil {
		k.kinds = map[string]int{}
	}
	k.kinds[v.Kind]++
	return len(p), nil
}

func TestChangepointMemoryBounded(t *testing.T) {
	// 5·10⁶ rows through standard input, scored at every 1000th row, with
	// a picture: the heap must stay bounded by the windows and the thinned
	// copy the picture keeps (2·5000 points), not grow with the rows
	// (keeping them would take 40 MB, twice that while the slice grows).
	// Not parallel: other tests would share the heap measured.
	testtier.Long(t, "streams 5·10⁶ rows")
	testtier.SkipUnderRace(t)
	// The heap in use counts garbage not yet collected; on a busy machine
	// the collector falls behind (27 MB measured under a load of 20, 19 MB
	// idle). A tighter GC target makes the measure the live data's.
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	plot := filepath.Join(t.TempDir(), "long.png")
	var out kindCounter
	var errb bytes.Buffer
	in := &seriesStream{rows: 5_000_000, rnd: rand.New(rand.NewPCG(4, 4))}
	var code int
	// Fixed σ and λ and a small budget keep the 5000 scores quick: the
	// reading is what is measured. The default threshold is calibrated
	// for the default window of 50; with 1000 subsequences a window
	// without a change scores far lower, and so do the changes.
	before, peak := peakHeap(func() {
		code = Run(context.Background(), []string{"pearson", "changepoint", "--step", "1000", "--embed", "1", "--window", "1000",
			"--sigma", "1", "--lambda", "0.1", "--k", "20", "--m", "50", "--draws", "1", "--threshold", "1", "--format", "jsonl", "--plot", plot, "-"}, in, &out, &errb)
	})
	if code != 0 {
		t.Fatalf("code %d: %s", code, errb.String())
	}
	scores, points := out.kinds["score"], out.kinds["change_point"]
	mb := float64(peak) / (1 << 20)
	t.Logf("5·10⁶ rows: %d scores, %d change points, heap in use %.1f MB before, %.1f MB at the peak", scores, points, float64(before)/(1<<20), mb)
	if scores != 4999 {
		t.Errorf("%d scores, want 4999", scores)
	}
	if points < 50 {
		t.Errorf("%d change points of the 99 changes", points)
	}
	if mb > 24 {
		t.Errorf("peak heap %.1f MB: it grows with the rows", mb)
	}
	if fi, err := os.Stat(plot); err != nil || fi.Size() == 0 {
		t.Errorf("no picture: %v", err)
	}
}

func TestChangepointPlot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeFile(t, "series.csv", seriesCSV(600, 300))
	for _, args := range [][]string{{"--columns", "x", "--time", "t"}, {"--columns", "x,y"}} {
		plot := filepath.Join(dir, "cp.png")
		code, _, errs := run(t, append(append([]string{"changepoint", "--step", "10", "--plot", plot}, args...), path)...)
		if code != 0 {
			t.Fatalf("%v: code %d: %s", args, code, errs)
		}
		b, err := os.ReadFile(plot)
		if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
			t.Errorf("%v: not a PNG: %v", args, err)
		}
	}
}

// BenchmarkChangepointMillionRows runs the command end to end on a file of
// 10⁶ rows (the scaling-variance recipe of the changepoint tests: an AR(2)
// series whose noise changes its spread every 100 rows), scored every
// 100th row with windows of 1000 subsequences, with σ and λ re-tuned at
// every scored time (the default) and chosen once. Run it once
// (-benchtime=1x); the file is written to a temporary directory.
func BenchmarkChangepointMillionRows(b *testing.B) {
	const rows = 1_000_000
	path := filepath.Join(b.TempDir(), "million.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("x\n")
	rnd := rand.New(rand.NewPCG(1, 2))
	var y1, y2 float64
	for t := range rows {
		sd := 1.0
		if seg := t/100 + 1; seg%2 == 0 {
			sd = math.Log(math.E + float64(seg)/4)
		}
		y := 0.6*y1 - 0.5*y2 + sd*rnd.NormFloat64()
		y1, y2 = y, y1
		fmt.Fprintf(w, "%.6g\n", y)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	for _, retune := range []string{"0", "-1"} {
		b.Run("retune="+retune, func(b *testing.B) {
			for b.Loop() {
				var out, errb bytes.Buffer
				code := Run(context.Background(), []string{"pearson", "changepoint", "--window", "1000", "--step", "100", "--retune", retune, "--format", "csv", path}, nil, &out, &errb)
				if code != 0 {
					b.Fatalf("code %d: %s", code, errb.String())
				}
				b.ReportMetric(float64(strings.Count(out.String(), "\nscore,")), "scores")
			}
		})
	}
}

// The default segmentation: the change of seriesCSV at row 300 found
// within 2 rows, with what changed and the segments, in every format; an
// empty line is an error naming its row, and with --drop-missing the rows
// after it keep their numbers; --changes asks for exactly K.
func TestChangepointSegment(t *testing.T) {
	t.Parallel()
	csvText := seriesCSV(600, 300)
	lines := strings.Split(csvText, "\n")
	// Row 100 (line 102) becomes an empty line.
	lines[101] = ""
	gappy := writeFile(t, "gappy.csv", strings.Join(lines, "\n"))
	path := writeFile(t, "series.csv", csvText)

	code, _, errs := run(t, "changepoint", "--columns", "x", gappy)
	if code != 1 || !strings.Contains(errs, "line 102: row 100 is missing") {
		t.Errorf("empty line: code %d, stderr %q", code, errs)
	}
	for _, in := range []string{path, gappy} {
		args := []string{"changepoint", "--columns", "x", "--format", "json", in}
		if in == gappy {
			args = append(args[:1], append([]string{"--drop-missing"}, args[1:]...)...)
		}
		code, out, errs := run(t, args...)
		if code != 0 || errs != "" {
			t.Fatalf("%v: code %d, stderr %q", args, code, errs)
		}
		var obj struct {
			Scores       []map[string]any `json:"scores"`
			ChangePoints []map[string]any `json:"change_points"`
			Segments     []map[string]any `json:"segments"`
			RowsUsed     int              `json:"rows_used"`
			Method       string           `json:"method"`
		}
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		want := 600
		if in == gappy {
			want = 599
		}
		if obj.Method != "segmentation" || obj.RowsUsed != want || len(obj.ChangePoints) != 1 || len(obj.Segments) != 2 {
			t.Fatalf("%s: method %q, rows used %d, change points %v, segments %v", in, obj.Method, obj.RowsUsed, obj.ChangePoints, obj.Segments)
		}
		if tm := obj.ChangePoints[0]["time"].(float64); math.Abs(tm-300) > 2 || obj.ChangePoints[0]["what"] != "level" {
			t.Errorf("%s: change point %v, want a change of level within 2 rows of 300", in, obj.ChangePoints[0])
		}
		if s := obj.Segments[1]; s["end"].(float64) != 599 {
			t.Errorf("%s: last segment %v, want it to end at row 599", in, s)
		}
	}
	for _, f := range []string{"text", "csv", "jsonl"} {
		code, out, errs := run(t, "changepoint", "--columns", "x", "--changes", "2", "--format", f, path)
		if code != 0 || errs != "" {
			t.Fatalf("%s: code %d, stderr %q", f, code, errs)
		}
		if n := strings.Count(out, "change_point"); f != "text" && n != 2 {
			t.Errorf("%s: %d change points with --changes 2\n%s", f, n, out)
		}
		if f == "text" && (!regexp.MustCompile(`(?m)^detected +2$`).MatchString(out) || !strings.Contains(out, "start") || !strings.Contains(out, "what")) {
			t.Errorf("text:\n%s", out)
		}
		if f == "csv" && !strings.HasPrefix(out, "kind,time,end,score,before,after,calibrated,what,strength,rule\n") {
			t.Errorf("csv header: %q", out[:80])
		}
	}
	// Streaming with --drop-missing: the rows after the empty line keep
	// their numbers too.
	code, out, errs := run(t, "changepoint", "--stream", "--drop-missing", "--columns", "x", "--window", "30", "--embed", "1", "--format", "jsonl", gappy)
	if code != 0 {
		t.Fatalf("stream: code %d, stderr %q", code, errs)
	}
	near300 := false
	for _, l := range strings.Split(out, "\n") {
		var v map[string]any
		if json.Unmarshal([]byte(l), &v) == nil && v["kind"] == "change_point" {
			near300 = near300 || math.Abs(v["time"].(float64)-300) <= 2
		}
	}
	if !near300 {
		t.Errorf("stream with --drop-missing: no change point within 2 rows of 300:\n%s", out)
	}
	// The same seed, the same bytes.
	_, a, _ := run(t, "changepoint", "--columns", "x", "--format", "csv", path)
	_, b, _ := run(t, "changepoint", "--columns", "x", "--format", "csv", path)
	if a != b {
		t.Error("two runs with the same seed differ")
	}
}

// TestChangepointScaleFree: the columns of a series are weighed alike
// whatever their units, since each coordinate is standardised over the two
// windows of every time: a column multiplied by 10⁵ (or 10⁻³) gives the
// same change points and the same scores to rounding, in both modes, and
// the output says how the columns were scaled.
func TestChangepointScaleFree(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t) // statistical arithmetic through the command, checked by the run without the detector
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(11, 12))
	var rows [][2]float64
	for i := range 400 {
		m := 0.0
		if i >= 200 {
			m = 3 // a change in the column a
		}
		rows = append(rows, [2]float64{m + rnd.NormFloat64(), rnd.NormFloat64()})
	}
	write := func(name string, fa, fb float64) string {
		var b strings.Builder
		b.WriteString("a,b\n")
		for _, r := range rows {
			fmt.Fprintf(&b, "%s,%s\n", strconv.FormatFloat(r[0]*fa, 'g', -1, 64), strconv.FormatFloat(r[1]*fb, 'g', -1, 64))
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	type out struct {
		Scaled string `json:"scaled"`
		Points []struct {
			Time  float64 `json:"time"`
			Score float64 `json:"score"`
		} `json:"change_points"`
	}
	for _, mode := range [][]string{{"changepoint", "--format", "json"}, {"changepoint", "--format", "json", "--stream", "--window", "30", "--step", "4"}} {
		var ref *out
		for _, f := range [][3]any{{"unit.csv", 1.0, 1.0}, {"b1e5.csv", 1.0, 1e5}, {"a1e-3.csv", 1e-3, 1e5}} {
			code, stdout, stderr := run(t, append(mode, write(f[0].(string), f[1].(float64), f[2].(float64)))...)
			if code != 0 {
				t.Fatalf("%v %s: %s", mode, f[0], stderr)
			}
			var o out
			if err := json.Unmarshal([]byte(stdout), &o); err != nil {
				t.Fatal(err)
			}
			if o.Scaled != windowScale || len(o.Points) == 0 {
				t.Fatalf("%v %s: scaled %q, %d change points: %s", mode, f[0], o.Scaled, len(o.Points), stdout[len(stdout)-400:])
			}
			if ref == nil {
				ref = &o
				continue
			}
			if len(o.Points) != len(ref.Points) {
				t.Fatalf("%v %s: %d change points, %d in units", mode, f[0], len(o.Points), len(ref.Points))
			}
			for i, p := range o.Points {
				if q := ref.Points[i]; p.Time != q.Time || math.Abs(p.Score-q.Score) > 1e-9*math.Abs(q.Score) {
					t.Errorf("%v %s: change point %d at %v score %v; in units at %v score %v", mode, f[0], i, p.Time, p.Score, q.Time, q.Score)
				}
			}
		}
	}
}

// TestChangepointEpochTimes: integer time labels such as epoch seconds are
// printed in full by every format (as numbers of six significant digits
// the text format printed 1.70001e+09 for 1700007200), and a change is
// reported at its label.
func TestChangepointEpochTimes(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 36))
	var b strings.Builder
	b.WriteString("ts,x\n")
	for i := range 200 {
		v := rnd.NormFloat64()
		if i >= 120 {
			v += 4
		}
		fmt.Fprintf(&b, "%d,%g\n", 1700000000+60*i, v)
	}
	path := writeFile(t, "epoch.csv", b.String())
	for _, format := range []string{"text", "csv", "json"} {
		code, out, errs := run(t, "changepoint", "--time", "ts", "--format", format, path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errs)
		}
		if strings.Contains(out, "e+09") || !strings.Contains(out, "1700007200") || !strings.Contains(out, "1700011940") {
			t.Errorf("%s: epoch times not printed in full, or the change at row 120 (1700007200) not reported:\n%s", format, out)
		}
	}
}

// TestChangepointExactMemory: the streaming all-centre fit (--exact) holds
// O(window²) words (about 1.2 GiB at a window of 5000), which the memory
// check counts before the first row: refused under a budget of 500M,
// naming the window and --exact, where the constant-time fit runs.
func TestChangepointExactMemory(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("x\n")
	for i := range 60 {
		fmt.Fprintf(&b, "%d\n", i%7)
	}
	path := writeFile(t, "s.csv", b.String())
	code, _, errs := run(t, "changepoint", "--stream", "--exact", "--window", "5000", "--embed", "1", "--max-memory", "500M", path)
	if code != 2 || !strings.Contains(errs, "--exact with --window 5000") || !strings.Contains(errs, "GiB") || !strings.Contains(errs, "leave --exact out") {
		t.Errorf("exit %d, want 2 and a refusal naming --exact and the window:\n%s", code, errs)
	}
	if code, _, errs := run(t, "changepoint", "--stream", "--window", "10", "--embed", "1", "--max-memory", "500M", path); code != 0 {
		t.Errorf("the constant-time fit: exit %d:\n%s", code, errs)
	}
}

// TestChangepointMissingWords: NA, NaN, nan, null and empty cells are
// missing values (dataset.MissingWords): without --drop-missing an error
// names the file, the line, the column and the cell and suggests the flag;
// with it the rows are dropped, counted in rows_dropped, and the times of
// the others keep their row numbers, so the change at row 100 is reported
// at 100, segmenting and streaming. A column whose first cell is NA is
// still numeric in the default selection.
func TestChangepointMissingWords(t *testing.T) {
	t.Parallel()
	words := []string{"NA", "NaN", "nan", "null", ""}
	for _, w := range words {
		path := writeFile(t, "missing.csv", "x,y\n1,2\n3,"+w+"\n4,5\n")
		code, _, errs := run(t, "changepoint", path)
		if code != 1 || !strings.Contains(errs, "missing.csv: line 3") || !strings.Contains(errs, `column "y"`) || !strings.Contains(errs, "--drop-missing") ||
			(w != "" && !strings.Contains(errs, strconv.Quote(w)+" is a missing value")) {
			t.Errorf("%q without --drop-missing: code %d, stderr %q", w, code, errs)
		}
	}
	// Row 0 may be missing when segmenting (streaming, its times are
	// written before the header's line is known).
	for _, mode := range [][]string{nil, {"--stream", "--window", "30", "--embed", "1"}} {
		lines := strings.Split(seriesCSV(200, 100), "\n")
		for i, w := range words { // rows 0 (1 streaming), 30, 60, 140, 170; line = row + 2
			row := []int{len(mode) / 5, 30, 60, 140, 170}[i]
			f := strings.Split(lines[row+1], ",")
			f[2] = w
			lines[row+1] = strings.Join(f, ",")
		}
		path := writeFile(t, "words.csv", strings.Join(lines, "\n"))
		args := append(append([]string{"changepoint", "--drop-missing", "--exclude", "t", "--format", "json"}, mode...), path)
		code, out, errs := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: code %d, stderr %q", mode, code, errs)
		}
		var obj struct {
			Columns      []string         `json:"columns"`
			Rows         int              `json:"rows"`
			Dropped      int              `json:"rows_dropped"`
			ChangePoints []map[string]any `json:"change_points"`
		}
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			// The stream's JSON is the records, then the summary.
			t.Fatalf("%v: %v\n%s", mode, err, out)
		}
		if obj.Rows != 195 || obj.Dropped != 5 || len(obj.Columns) != 2 {
			t.Errorf("%v: rows %d, rows_dropped %d, columns %v; want 195, 5, [x y]", mode, obj.Rows, obj.Dropped, obj.Columns)
		}
		near := false
		for _, p := range obj.ChangePoints {
			near = near || math.Abs(p["time"].(float64)-100) <= 2
		}
		if !near {
			t.Errorf("%v: no change point within 2 rows of 100: %v", mode, obj.ChangePoints)
		}
	}
}

// TestChangepointISOTimes: a --time column of ISO 8601 dates or timestamps
// (with T or a space, Z, an offset or none, a fraction of a second) gives
// the change times and the segments' bounds in the form of the input: the
// change at row 120, as the same series with epoch times finds it
// (TestChangepointEpochTimes), is reported at row 120's time, and the
// segments run from row 0's time to row 199's: the change found with times
// as rows (row 121: row 120 is x = 2.2, between the two levels) is reported
// at that row's time, segmenting and streaming. Times out of order, a cell
// that is not a time, and numbers among dates fail naming the line.
func TestChangepointISOTimes(t *testing.T) {
	t.Parallel()
	start := time.Date(2024, 1, 31, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		layout string
		step   time.Duration
		zone   *time.Location
		stream bool
	}{
		{time.DateOnly, 24 * time.Hour, time.UTC, false},
		{"2006-01-02T15:04:05Z07:00", time.Minute, time.UTC, false},
		{"2006-01-02 15:04:05", time.Hour, time.UTC, false},
		{"2006-01-02T15:04:05.000-07:00", 1500 * time.Millisecond, time.FixedZone("", 2*3600), true},
		{"2006-01-02T15:04Z0700", time.Minute, time.FixedZone("", -5*3600), false},
	} {
		rnd := rand.New(rand.NewPCG(1, 36))
		var b strings.Builder
		b.WriteString("when,x\n")
		at := func(i int) string { return start.Add(time.Duration(i) * c.step).In(c.zone).Format(c.layout) }
		for i := range 200 {
			v := rnd.NormFloat64()
			if i >= 120 {
				v += 4
			}
			fmt.Fprintf(&b, "%s,%g\n", at(i), v)
		}
		path := writeFile(t, "iso.csv", b.String())
		change := func(args ...string) int { // the change's row with times as rows
			_, out, _ := run(t, append(append([]string{"changepoint", "--columns", "x", "--format", "jsonl"}, args...), path)...)
			for _, l := range strings.Split(out, "\n") {
				var v map[string]any
				if json.Unmarshal([]byte(l), &v) == nil && v["kind"] == "change_point" {
					return int(v["time"].(float64))
				}
			}
			return -1
		}
		row := change()
		if row < 118 || row > 122 {
			t.Fatalf("%s: change at row %d, want 120 ± 2", c.layout, row)
		}
		code, out, errs := run(t, "changepoint", "--time", "when", "--format", "json", path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.layout, code, errs)
		}
		var obj struct {
			ChangePoints []map[string]any `json:"change_points"`
			Segments     []map[string]any `json:"segments"`
		}
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			t.Fatalf("%s: %v\n%s", c.layout, err, out)
		}
		if len(obj.ChangePoints) != 1 || obj.ChangePoints[0]["time"] != at(row) || len(obj.Segments) != 2 ||
			obj.Segments[0]["start"] != at(0) || obj.Segments[0]["end"] != at(row-1) || obj.Segments[1]["end"] != at(199) {
			t.Errorf("%s: want one change at %s, segments %s–%s, %s–%s; got %v, %v", c.layout, at(row), at(0), at(row-1), at(row), at(199), obj.ChangePoints, obj.Segments)
		}
		if !c.stream { // a second of CPU
			continue
		}
		stream := []string{"--stream", "--window", "30", "--embed", "1"}
		row = change(stream...)
		if code, out, _ := run(t, append(append([]string{"changepoint", "--time", "when"}, stream...), path)...); row < 0 || code != 0 || !strings.Contains(out, "\n"+at(row)+" ") {
			t.Errorf("%s, streaming: code %d, change at %s (row %d) not reported:\n%s", c.layout, code, at(row), row, out)
		}
	}
	for _, c := range []struct{ name, in, want string }{
		{"out of order", "d,x\n2024-01-01,1\n2024-01-03,2\n2024-01-02,3\n", "line 4: times not increasing: the time of row 2 (2024-01-02) is not after that of the row before (2024-01-03)"},
		{"same time", "d,x\n2024-01-01T10:00:00Z,1\n2024-01-01T12:00:00+02:00,2\n", "line 3: times not increasing"},
		{"not a time", "d,x\n2024-01-01,1\n2024-01-3,2\n", `line 3, column "d" (field 1): "2024-01-3": neither a number nor an ISO 8601 date`},
		{"number among dates", "d,x\n2024-01-01,1\n5,2\n", `line 3, column "d" (field 1): "5": a number, where the first time is an ISO 8601 date`},
		{"date among numbers", "d,x\n1,1\n2024-01-01,2\n", `line 3, column "d" (field 1): "2024-01-01": not a number`},
	} {
		for _, cols := range [][]string{nil, {"--columns", "x"}} {
			path := writeFile(t, "bad.csv", c.in)
			code, _, errs := run(t, append(append([]string{"changepoint", "--time", "d"}, cols...), path)...)
			if code != 1 || !strings.Contains(errs, "bad.csv") || !strings.Contains(errs, c.want) {
				t.Errorf("%s %v: code %d, stderr %q, want %q", c.name, cols, code, errs, c.want)
			}
		}
	}
}
