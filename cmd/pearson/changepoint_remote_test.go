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
	"strings"
	"testing"

	"github.com/sublinear/pearson/objstore/s3test"
)

// writeSeries writes a CSV series of n rows of two columns whose level
// changes at row n/2, and returns its path.
func writeSeries(t *testing.T, dir, name string, n int) string {
	t.Helper()
	r := rand.New(rand.NewPCG(5, 6))
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := range n {
		m := 0.0
		if i >= n/2 {
			m = 2
		}
		fmt.Fprintf(&b, "%.6f,%.6f\n", m+r.NormFloat64(), r.NormFloat64())
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestChangepointRemote runs changepoint on a CSV series and a Parquet
// file on disk, in a real S3-compatible server (versitygw) and behind an
// HTTP server: the series is read whole, by a stream of ranged requests in
// order, and the output is the same as the local file's, in both modes
// (segmentation, streaming). An object larger than the memory budget
// leaves for the data is refused before its data is fetched.
func TestChangepointRemote(t *testing.T) {
	srv := s3test.Start(t)
	dir := t.TempDir()
	// A few hundred rows: what is checked is the reading (the same bytes
	// as the local file, the object fetched whole), not the segmentation,
	// and the command runs nine times, under the race detector too.
	csvPath := writeSeries(t, dir, "series.csv", 400)
	pqPath := writeXY(t, dir, "series.parquet", 400, 0, 3)
	srv.Put(t, "series", "s/series.csv", csvPath)
	srv.Put(t, "series", "s/series.parquet", pqPath)
	hs := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer hs.Close()
	fetched := regexp.MustCompile(`: \d+ requests, (\d+) bytes fetched from 1 objects`)
	for _, tc := range []struct {
		file string
		args []string
	}{
		{"series.csv", []string{"changepoint"}},
		{"series.csv", []string{"changepoint", "--stream", "--format", "csv", "--step", "10"}},
		{"series.parquet", []string{"changepoint", "--columns", "x", "--format", "json"}},
	} {
		local := filepath.Join(dir, tc.file)
		code, want, stderr := run(t, append(tc.args, local)...)
		if code != 0 {
			t.Fatalf("%v: %s", tc.args, stderr)
		}
		want = strings.ReplaceAll(want, local, "IN")
		size, _ := os.Stat(local)
		for _, url := range []string{"s3://series/s/" + tc.file, hs.URL + "/" + tc.file} {
			code, got, stderr := run(t, append(tc.args, url)...)
			if code != 0 {
				t.Fatalf("%v on %s: %s", tc.args, url, stderr)
			}
			if got = strings.ReplaceAll(got, url, "IN"); got != want {
				t.Errorf("%v on %s differs from the local file:\n%s\nlocal:\n%s", tc.args, url, got, want)
			}
			m := fetched.FindStringSubmatch(stderr)
			if m == nil || m[1] != fmt.Sprint(size.Size()) {
				t.Errorf("%v on %s: standard error does not say that the %d bytes of the object were fetched:\n%s", tc.args, url, size.Size(), stderr)
			}
		}
	}

	// 3·10⁴ rows are about 600 KB: more than the 64 MiB + 0.5 MiB budget
	// leaves beside the run's base.
	big := writeSeries(t, dir, "big.csv", 30000)
	srv.Put(t, "series", "big.csv", big)
	for _, url := range []string{"s3://series/big.csv", hs.URL + "/big.csv"} {
		code, out, stderr := run(t, "changepoint", "--max-memory", "67633152", url)
		if code != 1 || out != "" || !strings.Contains(stderr, "to read whole (every row is read, not a sample), more than the 512 KiB the memory budget leaves for the data: raise --max-memory") {
			t.Errorf("%s beyond the budget: exit %d, stdout %q, stderr %q; want a refusal", url, code, out, stderr)
		}
		if strings.Contains(stderr, "bytes fetched") {
			t.Errorf("%s beyond the budget: data was fetched before the refusal:\n%s", url, stderr)
		}
	}
}
