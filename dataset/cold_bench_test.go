// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/sublinear/pearson/internal/testtier"
)

// coldCSV writes (once, cached in dir) a CSV of n rows "x,y" of uniform
// numbers with six decimals.
func coldCSV(t testing.TB, dir string, n int, seed uint64) string {
	p := filepath.Join(dir, fmt.Sprintf("xy-%d-%d.csv", n, seed))
	if _, err := os.Stat(p); err == nil {
		return p
	}
	f, err := os.Create(p + ".tmp")
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("x,y\n")
	r := rand.New(rand.NewPCG(seed, 7))
	var b []byte
	for range n {
		b = strconv.AppendFloat(b[:0], r.Float64(), 'f', 6, 64)
		b = append(b, ',')
		b = strconv.AppendFloat(b, r.Float64(), 'f', 6, 64)
		b = append(b, '\n')
		w.Write(b)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Rename(p+".tmp", p); err != nil {
		t.Fatal(err)
	}
	return p
}

// dropCache evicts the file's pages from the page cache (this file only,
// not the machine's whole cache).
func dropCache(t testing.TB, path string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkColdCSV times the sample that pearson divergence draws (32 800
// rows of each of two files) from a CSV pair of rows=1e6 or rows=1e8 rows
// (2 × 2 GB, written once in testtier.FixtureDir), row by row
// (blocks=false: Sampling.Seek) and in blocks (blocks=true:
// Sampling.Blocks), with the files' pages evicted from the cache
// (cold=true) and not (cold=false): seconds per pair, draws per file. See
// docs/RESULTS.md, "End to end" (CSV in blocks):
//
//	go test -run '^$' -bench ColdCSV -benchtime 3x ./dataset
func BenchmarkColdCSV(b *testing.B) {
	dir := testtier.FixtureDir(b)
	for _, n := range []int{1000000, 100000000} {
		for _, blocks := range []bool{false, true} {
			for _, cold := range []bool{true, false} {
				b.Run(fmt.Sprintf("rows=%s/blocks=%v/cold=%v", testtier.Count(n), blocks, cold), func(b *testing.B) {
					pair := []string{coldCSV(b, dir, n, 1), coldCSV(b, dir, n, 2)}
					var reads int
					for b.Loop() {
						if cold {
							b.StopTimer()
							for _, p := range pair {
								dropCache(b, p)
							}
							b.StartTimer()
						}
						for i, p := range pair {
							src, err := Open(p, Options{})
							if err != nil {
								b.Fatal(err)
							}
							tb, err := src.Sample(context.Background(), Query{}, Sampling{Size: 32800, Seek: true, Blocks: blocks, Src: rand.NewPCG(uint64(i), 3)})
							src.Close()
							if err != nil {
								b.Fatal(err)
							}
							reads = tb.Draws // 0: read in full, as it is cheaper
						}
					}
					b.ReportMetric(float64(reads), "draws/file")
				})
			}
		}
	}
}
