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
	"slices"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// coldCSV writes (once, cached in dir) a CSV of n rows "x,y" of uniform
// numbers with six decimals.
func coldCSV(t *testing.T, dir string, n int, seed uint64) string {
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
func dropCache(t *testing.T, path string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		t.Fatal(err)
	}
}

// TestColdCSVBench times the sample that pearson divergence draws (32 800
// rows of each of two files) from CSV pairs of 10⁶ and 10⁸ rows, row by
// row (Sampling.Seek) and in blocks (Sampling.Blocks), with the files'
// pages evicted from the cache (cold) and not (warm). It runs only with
// PEARSON_COLD_BENCH set to a directory for the files (2 × 2 GB); see
// docs/RESULTS.md, "End to end" (CSV in blocks).
func TestColdCSVBench(t *testing.T) {
	dir := os.Getenv("PEARSON_COLD_BENCH")
	if dir == "" {
		t.Skip("set PEARSON_COLD_BENCH to a directory for the files")
	}
	for _, n := range []int{1000000, 100000000} {
		pair := []string{coldCSV(t, dir, n, 1), coldCSV(t, dir, n, 2)}
		for _, blocks := range []bool{false, true} {
			for _, cold := range []bool{true, false} {
				var times []float64
				var reads int
				for range 3 {
					if cold {
						for _, p := range pair {
							dropCache(t, p)
						}
					}
					start := time.Now()
					for i, p := range pair {
						src, err := Open(p, Options{})
						if err != nil {
							t.Fatal(err)
						}
						tb, err := src.Sample(context.Background(), Query{}, Sampling{Size: 32800, Seek: true, Blocks: blocks, Src: rand.NewPCG(uint64(i), 3)})
						src.Close()
						if err != nil {
							t.Fatal(err)
						}
						reads = tb.Draws // 0: read in full, as it is cheaper
					}
					times = append(times, time.Since(start).Seconds())
				}
				slices.Sort(times)
				t.Logf("rows %d blocks %v cold %v: median %.3f s (of %.3f %.3f %.3f), draws per file %d", n, blocks, cold, times[1], times[0], times[1], times[2], reads)
			}
		}
	}
}
