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

	"github.com/sublinear/pearson/internal/testtier"
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
func benchFixture(t testing.TB, dir string, n int) string {
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

// remoteCases are the datasets of BenchmarkRemoteDelay: rows in all, and
// objects of rows/objects rows each (a prefix part=0/ … when more than
// one, as a partitioned dataset is; hard links of one file).
var remoteCases = []struct{ rows, objects int }{
	{1000000, 1}, {100000000, 1}, {1000000000, 10},
	{10000000, 10}, {100000000, 10},
}

// BenchmarkRemoteDelay measures pearson divergence on a dataset in a real
// S3-compatible server behind a proxy that delays each request by 20 ms:
// requests and bytes of a run (requests/op, bytes/op: both samples) and
// its wall time, beside the time of the same command on the same files on
// disk (local-s/op), for each writer=…/rows=…/objects=… (remoteCases).
// The files are kept in testtier.FixtureDir: parquet-go's (row groups of
// 10⁶ rows, pages of 1 024 rows with offset indexes; the 10⁸-row file is
// 1.6 GB) are written there once; writer=duckdb and writer=duckdb-csv
// measure DuckDB's files of Parquet and CSV, written by node
// scripts/bench-data.mjs /tmp/pearson-bench ROWS (a size without its file
// is skipped). With objects > 1, pe --exact on the Parquet prefix is
// measured too (refused from the footers, logged). -v logs every request's
// range. See docs/RESULTS.md:
//
//	go test -run '^$' -bench 'RemoteDelay/writer=duckdb/rows=1e[789]/objects=10' -benchtime 1x ./cmd/pearson
func BenchmarkRemoteDelay(b *testing.B) {
	dir := testtier.FixtureDir(b)
	for _, writer := range []string{"parquet-go", "duckdb", "duckdb-csv"} {
		for _, c := range remoteCases {
			b.Run(fmt.Sprintf("writer=%s/rows=%s/objects=%d", writer, testtier.Count(c.rows), c.objects), func(b *testing.B) {
				remoteDelay(b, dir, writer, c.rows, c.objects)
			})
		}
	}
}

// remoteDelay is one case of BenchmarkRemoteDelay: n rows in objs objects
// of writer's files, in dir.
func remoteDelay(b *testing.B, dir, writer string, n, objs int) {
	ext := "parquet"
	var p string
	switch writer {
	case "parquet-go":
		p = benchFixture(b, dir, n/objs)
	case "duckdb", "duckdb-csv":
		if writer == "duckdb-csv" {
			ext = "csv"
		}
		p = filepath.Join(dir, "duckdb", fmt.Sprintf("xy-%d.%s", n/objs, ext))
		if _, err := os.Stat(p); err != nil {
			b.Skipf("no %s (node scripts/bench-data.mjs %s %d)", p, dir, n/objs)
		}
	}
	srv := s3test.Start(b)
	target, _ := url.Parse(srv.Endpoint)
	rp := httputil.NewSingleHostReverseProxy(target)
	var proxied, proxiedBytes atomic.Int64
	delay := 20 * time.Millisecond
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		if testing.Verbose() {
			b.Logf("request %s %s", r.URL.Path, r.Header.Get("Range"))
		}
		time.Sleep(delay)
		rp.ServeHTTP(countingWriter{w, &proxiedBytes}, r)
	}))
	defer proxy.Close()
	b.Setenv("AWS_ENDPOINT_URL", proxy.URL)
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
				b.Fatal(err)
			}
		}
	}
	fetched := regexp.MustCompile(`(\d+) requests, (\d+) bytes fetched`)
	fi, _ := os.Stat(p)
	var req, byt int64
	var remote, localWall time.Duration
	rep := 0
	for b.Loop() {
		var lout, lerr bytes.Buffer
		start := time.Now()
		if code := Run(context.Background(), []string{"pearson", "divergence", local[0], local[1]}, nil, &lout, &lerr); code != 0 {
			b.Fatal(lerr.String())
		}
		localWall += time.Since(start)
		var out, errb bytes.Buffer
		start = time.Now()
		code := Run(context.Background(), []string{"pearson", "divergence", urls[0], urls[1]}, nil, &out, &errb)
		remote += time.Since(start)
		if code != 0 {
			b.Fatal(errb.String())
		}
		req, byt = 0, 0
		for _, m := range fetched.FindAllStringSubmatch(errb.String(), -1) {
			a, _ := strconv.ParseInt(m[1], 10, 64)
			c, _ := strconv.ParseInt(m[2], 10, 64)
			req, byt = req+a, byt+c
		}
		if rep == 0 {
			b.Logf("%s rows %d (%d objects of %d bytes per sample): %s", writer, n, objs, fi.Size(), strings.TrimSpace(errb.String()))
		}
		rep++
	}
	b.ReportMetric(float64(req), "requests/op")
	b.ReportMetric(float64(byt), "bytes/op")
	b.ReportMetric(remote.Seconds()/float64(rep), "remote-s/op")
	b.ReportMetric(localWall.Seconds()/float64(rep), "local-s/op")
	if objs > 1 && ext == "parquet" {
		// --exact on the prefix: refused from the footers.
		proxied.Store(0)
		proxiedBytes.Store(0)
		var out, errb bytes.Buffer
		code := Run(context.Background(), []string{"pearson", "divergence", "--exact", urls[0], urls[1]}, nil, &out, &errb)
		b.Logf("%s rows %d --exact: exit %d, %d requests, %d bytes through the proxy: %s", writer, n, code, proxied.Load(), proxiedBytes.Load(), strings.TrimSpace(errb.String()))
	}
}
