// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/internal/testtier"
	"github.com/sublinear/pearson/objstore/s3test"
)

// xyRow is a row of the Parquet files of the remote tests.
type xyRow struct {
	X float64 `parquet:"x"`
	Y float64 `parquet:"y"`
}

// writeXY writes n rows (x, y = x² + noise, x shifted by shift) to a
// Parquet file of small pages (two-stage sampling by pages), and returns
// its path.
func writeXY(t *testing.T, dir, name string, n int, shift float64, seed uint64) string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	rows := make([]xyRow, n)
	for i := range rows {
		x := r.NormFloat64() + shift
		rows[i] = xyRow{X: x, Y: x*x + r.NormFloat64()}
	}
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[xyRow](f, parquet.PageBufferSize(4096))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

// TestRemoteSameAsLocal runs divergence, test, mi, rank and drift (with a
// saved reference) on Parquet files on disk, in a real S3-compatible
// server (versitygw) and behind an HTTP server, and checks that the
// outputs are the same but for the names, and that standard error says
// what was fetched. Only divergence runs in the default tier.
func TestRemoteSameAsLocal(t *testing.T) {
	srv := s3test.Start(t)
	dir := t.TempDir()
	// 150 000 rows are sampled in two stages (300 pages), 40 000 read in
	// full, in a fifth of the time.
	n := testtier.Pick(40000, 150000)
	p := writeXY(t, dir, "p.parquet", n, 0, 1)
	q := writeXY(t, dir, "q.parquet", n, 0.3, 2)
	srv.Put(t, "data", "tables/p.parquet", p)
	srv.Put(t, "data", "tables/q.parquet", q)
	hs := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer hs.Close()
	ref := filepath.Join(t.TempDir(), "ref.json")
	cases := [][]string{
		tunedUnlessRace("divergence", "P", "Q"),
		{"test", "--permutations", "20", "P", "Q"},
		{"mi", "--x", "x", "--y", "y", "P"},
		{"rank", "--target", "y", "--permutations", "20", "P"},
		// A remote input is not read a second time (drift's every-row
		// tests), so drift is compared on its sample alone; the note that
		// says so is checked below.
		{"drift", "--permutations", "20", "--sample-only", "P", "Q"},
		{"drift", "--permutations", "20", "--sample-only", "--reference", ref, "Q"},
	}
	if !testtier.Enabled() {
		cases = cases[:1] // the others take about 40 s
	} else if code, _, stderr := run(t, "drift", "--save-reference", ref, p); code != 0 {
		t.Fatal(stderr)
	}
	if testtier.Enabled() {
		code, out, stderr := run(t, "drift", "--permutations", "20", "s3://data/tables/p.parquet", "s3://data/tables/q.parquet")
		if note := "a remote input is not read a second time"; code != 0 || !strings.Contains(out+stderr, note) {
			t.Errorf("drift on s3:// (exit %d) does not say %q:\n%s%s", code, note, out, stderr)
		}
	}
	fetched := regexp.MustCompile(`: \d+ requests, \d+ bytes fetched from 1 objects`)
	for _, c := range cases {
		args := func(pp, qq string) []string {
			out := make([]string, len(c))
			for i, a := range c {
				switch a {
				case "P":
					out[i] = pp
				case "Q":
					out[i] = qq
				default:
					out[i] = a
				}
			}
			return out
		}
		code, want, stderr := run(t, args(p, q)...)
		if code != 0 {
			t.Fatalf("%v: %s", c, stderr)
		}
		want = strings.NewReplacer(p, "P", q, "Q").Replace(want)
		for _, base := range []string{"s3://data/tables/", hs.URL + "/"} {
			code, got, stderr := run(t, args(base+"p.parquet", base+"q.parquet")...)
			if code != 0 {
				t.Fatalf("%v on %s: %s", c, base, stderr)
			}
			got = strings.NewReplacer(base+"p.parquet", "P", base+"q.parquet", "Q").Replace(got)
			if got != want {
				t.Errorf("%v on %s differs from the local files:\n%s\nlocal:\n%s", c, base, got, want)
			}
			if !fetched.MatchString(stderr) {
				t.Errorf("%v on %s: standard error does not say what was fetched:\n%s", c, base, stderr)
			}
		}
	}
}

// TestRemoteEndpointFlag reads s3:// paths from the server that --endpoint
// names, with AWS_ENDPOINT_URL unset, and checks that --progress always
// shows the requests in flight and the bytes fetched, and that an endpoint
// that is not an http(s) URL is refused up front.
func TestRemoteEndpointFlag(t *testing.T) {
	srv := s3test.Start(t)
	t.Setenv("AWS_ENDPOINT_URL", "")
	dir := t.TempDir()
	p := writeXY(t, dir, "p.parquet", 3000, 0, 1)
	q := writeXY(t, dir, "q.parquet", 3000, 0.3, 2)
	srv.Put(t, "flag", "p.parquet", p)
	srv.Put(t, "flag", "q.parquet", q)
	code, want, stderr := run(t, tunedUnlessRace("divergence", p, q)...)
	if code != 0 {
		t.Fatal(stderr)
	}
	code, got, stderr := run(t, tunedUnlessRace("divergence", "--endpoint", srv.Endpoint, "--progress", "always", "s3://flag/p.parquet", "s3://flag/q.parquet")...)
	if code != 0 {
		t.Fatal(stderr)
	}
	got = strings.NewReplacer("s3://flag/p.parquet", p, "s3://flag/q.parquet", q).Replace(got)
	if got != want {
		t.Errorf("--endpoint: the output differs from the local files':\n%s\nlocal:\n%s", got, want)
	}
	if !regexp.MustCompile(`reading s3://flag/p\.parquet: \d+ requests in flight, \d+ made`).MatchString(stderr) {
		t.Errorf("--progress always does not show the requests in flight:\n%s", stderr)
	}
	for _, bad := range []string{"127.0.0.1:7070", "ftp://host/", "http://"} {
		code, _, stderr := run(t, "divergence", "--endpoint", bad, "s3://flag/p.parquet", "s3://flag/q.parquet")
		if code != 2 || !strings.Contains(stderr, "--endpoint "+bad+": give the URL of an S3-compatible server") {
			t.Errorf("--endpoint %s: exit %d, stderr %q; want a usage error", bad, code, stderr)
		}
	}
}

// TestSampledNoteSaysWhatWasRead checks that the note of a CSV object
// sampled in blocks names the blocks, their size and the rows read, and
// that these agree with the requests made: a block sample reads a few
// blocks, not rows at random positions.
func TestSampledNoteSaysWhatWasRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i, shift := range []float64{0, 0.3} {
		var b strings.Builder
		b.WriteString("x,y\n")
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		for range 200000 {
			fmt.Fprintf(&b, "%.6f,%.6f\n", rng.NormFloat64()+shift, rng.NormFloat64())
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%c.csv", 'p'+i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hs := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer hs.Close()
	code, _, stderr := run(t, tunedUnlessRace("divergence", hs.URL+"/p.csv", hs.URL+"/q.csv")...)
	if code != 0 {
		t.Fatal(stderr)
	}
	m := regexp.MustCompile(`p\.csv: sampled: (\d+) blocks of about \d+ KiB drawn, (\d+) rows read and validated`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("the note of a block sample does not name the blocks:\n%s", stderr)
	}
	blocks, _ := strconv.Atoi(m[1])
	rows, _ := strconv.Atoi(m[2])
	if blocks != dataset.DefaultUnits || rows <= 0 || rows >= 200000 {
		t.Errorf("note: %d blocks, %d rows read of 200000; want %d blocks and part of the rows", blocks, rows, dataset.DefaultUnits)
	}
	if strings.Contains(stderr, "random positions") {
		t.Errorf("a block sample is said to read rows at random positions:\n%s", stderr)
	}
}
