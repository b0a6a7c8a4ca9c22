// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// openFDs returns the number of file descriptors the process holds, or -1
// where /proc is not mounted.
func openFDs() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

// settle waits up to a second for the goroutines to fall to at most base,
// and returns their number.
func settle(base int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 100 && n > base; i++ {
		time.Sleep(10 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// TestParquetReadAheadStops checks that a read whose units are decoded
// ahead on four goroutines, stopped early (a cancellation met by a full
// read and by a two-stage sample, an error of the row function, a shard
// that cannot be opened), leaves no goroutine behind and no file open but
// the one the Source keeps until Close.
func TestParquetReadAheadStops(t *testing.T) {
	if openFDs() < 0 {
		t.Skip("no /proc/self/fd")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	rgs := make([]int, 40)
	for i := range rgs {
		rgs[i] = 500
	}
	path := writeX(t, rgs, 1024)
	// parts, copied so that one shard can be removed once opened.
	dir := t.TempDir()
	for k := range 4 {
		sub := filepath.Join(dir, "part="+string(rune('0'+k)))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(pqPath("parts"), "part="+string(rune('0'+k)), "data_0.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "data_0.parquet"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	errStop := errors.New("stop")
	cases := []struct {
		name string
		path string
		run  func(p *Parquet, ctx context.Context, cancel func()) error
		want func(error) bool
	}{
		{"scan cancelled", path, func(p *Parquet, ctx context.Context, cancel func()) error {
			rows := 0
			_, err := p.Scan(ctx, Query{}, func(string, int, []float64) error {
				if rows++; rows == 600 {
					cancel()
				}
				return nil
			})
			return err
		}, func(err error) bool { return errors.Is(err, context.Canceled) }},
		{"scan stopped", path, func(p *Parquet, ctx context.Context, _ func()) error {
			rows := 0
			_, err := p.Scan(ctx, Query{}, func(string, int, []float64) error {
				if rows++; rows == 1200 {
					return errStop
				}
				return nil
			})
			return err
		}, func(err error) bool { return errors.Is(err, errStop) }},
		{"sample cancelled", path, func(p *Parquet, ctx context.Context, cancel func()) error {
			p.opts.Progress = func(read, _ int64) {
				if read > 20_000 {
					cancel()
				}
			}
			_, err := p.Sample(ctx, Query{}, Sampling{Size: 2000, Seek: true, Units: 30, Src: rand.NewPCG(1, 2)})
			return err
		}, func(err error) bool { return errors.Is(err, context.Canceled) }},
		{"shard removed", dir, func(p *Parquet, ctx context.Context, _ func()) error {
			if err := os.Remove(filepath.Join(dir, "part=2", "data_0.parquet")); err != nil {
				t.Fatal(err)
			}
			_, err := p.Scan(ctx, Query{Columns: []string{"x"}}, func(string, int, []float64) error { return nil })
			return err
		}, func(err error) bool { return err != nil && strings.Contains(err.Error(), "part=2") }},
	}
	for _, c := range cases {
		fds, gs := openFDs(), runtime.NumGoroutine()
		p, err := OpenParquet(c.path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		p.alwaysSeek = true
		ctx, cancel := context.WithCancel(context.Background())
		err = c.run(p, ctx, cancel)
		cancel()
		t.Logf("%s: %v", c.name, err)
		if !c.want(err) {
			t.Errorf("%s: error %v", c.name, err)
		}
		if n := settle(gs); n > gs {
			t.Errorf("%s: %d goroutines after the read, %d before", c.name, n, gs)
		}
		if n := openFDs(); n > fds+1 {
			t.Errorf("%s: %d files open after the read, %d before (one may stay open until Close)", c.name, n, fds)
		}
		p.Close()
		if n := openFDs(); n != fds {
			t.Errorf("%s: %d files open after Close, %d before", c.name, n, fds)
		}
	}
}
