// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/sublinear/pearson/objstore/s3test"
)

// TestRemoteExactPrefixRefusedFromFooters runs pe --exact on an S3 prefix
// of three Parquet objects of 20 000 rows (more than the exact solution
// takes) through a proxy that logs every request: it is refused from the
// footers, and the only bytes of objects fetched are their tails (the last
// 64 KiB, which hold the footer): no data page before the footer is read.
func TestRemoteExactPrefixRefusedFromFooters(t *testing.T) {
	srv := s3test.Start(t)
	dir := t.TempDir()
	sizes := map[string]int64{}
	for i := range 3 {
		p := writeXY(t, dir, fmt.Sprintf("p%d.parquet", i), 20000, 0, uint64(i))
		key := fmt.Sprintf("big/part=%d/data.parquet", i)
		srv.Put(t, "bkt", key, p)
		fi, _ := os.Stat(p)
		sizes["/bkt/"+key] = fi.Size()
	}
	q := writeXY(t, dir, "q.parquet", 1000, 0.3, 9)
	srv.Put(t, "bkt", "q.parquet", q)
	target, _ := url.Parse(srv.Endpoint)
	rp := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	var gets []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && sizes[r.URL.Path] > 0 {
			mu.Lock()
			gets = append(gets, r.URL.Path+" "+r.Header.Get("Range"))
			mu.Unlock()
		}
		rp.ServeHTTP(w, r)
	}))
	defer proxy.Close()
	code, _, stderr := run(t, "pe", "--exact", "--endpoint", proxy.URL, "s3://bkt/big/", "s3://bkt/q.parquet")
	if code != 2 || !strings.Contains(stderr, "--exact: s3://bkt/big/ holds 60000 rows (from its Parquet footer)") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if len(gets) != 3 {
		t.Errorf("%d ranged reads of the objects, want one a footer: %v", len(gets), gets)
	}
	for _, g := range gets {
		path, rng, _ := strings.Cut(g, " ")
		var a, b int64
		if _, err := fmt.Sscanf(rng, "bytes=%d-%d", &a, &b); err != nil || a < sizes[path]-64<<10 || b != sizes[path]-1 {
			t.Errorf("%s: a read of %q: not the tail of its %d bytes", path, rng, sizes[path])
		}
	}
}
