// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/sublinear/pearson/objstore/s3test"
)

// countingWriter counts the bytes of the answers written through it.
type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (w countingWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	w.n.Add(int64(n))
	return n, err
}

// benchFixture writes (once, cached in dir) a Parquet file of n rows of
// (x, y), row groups of 10⁶ rows, pages of about 8 KiB (1 024 rows, with
// an offset index), as parquet-go writes them.
func benchFixture(t *testing.T, dir string, n int) string {
	p := filepath.Join(dir, fmt.Sprintf("xy-%d.parquet", n))
	if _, err := os.Stat(p); err == nil {
		return p
	}
	tmp := p + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[xyRow](f, parquet.PageBufferSize(8192), parquet.Compression(&parquet.Uncompressed))
	r := rand.New(rand.NewPCG(uint64(n), 1))
	const rg = 1000000
	rows := make([]xyRow, 0, rg)
	for i := range n {
		x := r.NormFloat64()
		rows = append(rows, xyRow{X: x, Y: x*x + r.NormFloat64()})
		if len(rows) == rg || i == n-1 {
			if _, err := w.Write(rows); err != nil {
				t.Fatal(err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			rows = rows[:0]
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRemoteDelayBench measures pearson divergence on a dataset in a real
// S3-compatible server behind a proxy that delays each request by 20 ms:
// requests, bytes and wall time at 10⁶, 10⁸ and 10⁹ rows (ten objects of
// 10⁸, hard links of one file), beside the time of the same command on the
// same files on disk. It runs only with PEARSON_S3_BENCH set to a
// directory: the Parquet files of parquet-go (row groups of 10⁶ rows,
// pages of 1 024 rows with offset indexes) are written there once (the
// 10⁸-row file is 1.6 GB); when DIR/duckdb/xy-N.parquet and xy-N.csv
// written by DuckDB are there (node scripts/bench-data.mjs DIR), they are
// measured too, the CSV objects at 10⁶ and 10⁸ rows. With
// PEARSON_S3_BENCH_OBJECTS=k, each dataset is a prefix of k objects of
// n/k rows (part=0/ …), and pe --exact on it is measured too (refused from
// the footers). See docs/RESULTS.md.
func TestRemoteDelayBench(t *testing.T) {
	dir := os.Getenv("PEARSON_S3_BENCH")
	if dir == "" {
		t.Skip("set PEARSON_S3_BENCH to a directory for the fixtures")
	}
	sizes := []int{1000000, 100000000, 1000000000}
	if s := os.Getenv("PEARSON_S3_BENCH_ROWS"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, _ := strconv.Atoi(f)
			sizes = append(sizes, n)
		}
	}
	writers := []string{"parquet-go", "duckdb", "duckdb-csv"}
	if s := os.Getenv("PEARSON_S3_BENCH_WRITERS"); s != "" {
		writers = strings.Split(s, ",")
	}
	logRanges := os.Getenv("PEARSON_S3_BENCH_LOG") != ""
	reps := 3
	if s := os.Getenv("PEARSON_S3_BENCH_REPS"); s != "" {
		reps, _ = strconv.Atoi(s)
	}
	srv := s3test.Start(t)
	target, _ := url.Parse(srv.Endpoint)
	rp := httputil.NewSingleHostReverseProxy(target)
	var proxied, proxiedBytes atomic.Int64
	delay := 20 * time.Millisecond
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		if logRanges {
			t.Logf("request %s %s", r.URL.Path, r.Header.Get("Range"))
		}
		time.Sleep(delay)
		rp.ServeHTTP(countingWriter{w, &proxiedBytes}, r)
	}))
	defer proxy.Close()
	t.Setenv("AWS_ENDPOINT_URL", proxy.URL)
	fetched := regexp.MustCompile(`(\d+) requests, (\d+) bytes fetched`)
	for _, writer := range writers {
		for _, n := range sizes {
			// Beyond 10⁸ rows, a dataset of objects of 10⁸ rows (hard
			// links of one file), as a partitioned dataset of Parquet
			// files is.
			const most = 100000000
			objs := max(1, n/most)
			if k, _ := strconv.Atoi(os.Getenv("PEARSON_S3_BENCH_OBJECTS")); k > 1 {
				objs = k // a prefix of k objects of n/k rows
			}
			ext := "parquet"
			var p string
			switch writer {
			case "parquet-go":
				p = benchFixture(t, dir, n/objs)
			case "duckdb", "duckdb-csv":
				if writer == "duckdb-csv" {
					ext = "csv"
				}
				p = filepath.Join(dir, "duckdb", fmt.Sprintf("xy-%d.%s", n/objs, ext))
				if _, err := os.Stat(p); err != nil {
					t.Logf("%s: no %s (node scripts/bench-data.mjs %s %d)", writer, p, dir, n/objs)
					continue
				}
			default:
				t.Fatalf("PEARSON_S3_BENCH_WRITERS: %q: want parquet-go, duckdb or duckdb-csv", writer)
			}
			urls := make([]string, 2)
			local := make([]string, 2) // the same files on disk, for the time of the estimate itself
			for i, k := range []string{"p", "q"} {
				key := fmt.Sprintf("%s/%d/%s", writer, n, k)
				urls[i], local[i] = "s3://bench/"+key+"."+ext, p
				if objs > 1 {
					urls[i], local[i] = "s3://bench/"+key+"/", filepath.Join(srv.Dir, "bench", key)
					if ext == "csv" {
						local[i] = p // no local directory of CSV files: one of them
					}
				}
				for j := range objs {
					dst := filepath.Join(srv.Dir, "bench", key+"."+ext)
					if objs > 1 {
						dst = filepath.Join(srv.Dir, "bench", key, fmt.Sprintf("part=%d", j), "data."+ext)
					}
					os.MkdirAll(filepath.Dir(dst), 0o755)
					if err := os.Link(p, dst); err != nil {
						t.Fatal(err)
					}
				}
			}
			fi, _ := os.Stat(p)
			for rep := range reps {
				var lout, lerr bytes.Buffer
				start := time.Now()
				if code := Run(context.Background(), []string{"pearson", "divergence", local[0], local[1]}, nil, &lout, &lerr); code != 0 {
					t.Fatal(lerr.String())
				}
				localWall := time.Since(start)
				proxied.Store(0)
				var out, errb bytes.Buffer
				start = time.Now()
				code := Run(context.Background(), []string{"pearson", "divergence", urls[0], urls[1]}, nil, &out, &errb)
				wall := time.Since(start)
				if code != 0 {
					t.Fatal(errb.String())
				}
				var req, byt int64
				for _, m := range fetched.FindAllStringSubmatch(errb.String(), -1) {
					a, _ := strconv.ParseInt(m[1], 10, 64)
					b, _ := strconv.ParseInt(m[2], 10, 64)
					req, byt = req+a, byt+b
				}
				if rep == 0 {
					t.Logf("%s rows %d: %s", writer, n, strings.TrimSpace(errb.String()))
				}
				t.Logf("%s rows %d (%d objects of %d bytes per sample) run %d: %d requests (%d through the proxy), %d bytes, wall %.2f s (the same files on disk: %.2f s)", writer, n, objs, fi.Size(), rep, req, proxied.Load(), byt, wall.Seconds(), localWall.Seconds())
			}
			if objs > 1 && ext == "parquet" {
				// --exact on the prefix: refused from the footers.
				proxied.Store(0)
				proxiedBytes.Store(0)
				var out, errb bytes.Buffer
				code := Run(context.Background(), []string{"pearson", "divergence", "--exact", urls[0], urls[1]}, nil, &out, &errb)
				t.Logf("%s rows %d --exact: exit %d, %d requests, %d bytes through the proxy: %s", writer, n, code, proxied.Load(), proxiedBytes.Load(), strings.TrimSpace(errb.String()))
			}
		}
	}
}
