// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/sublinear/pearson/internal/testtier"
)

// FuzzParquet reads mutated Parquet files (the DuckDB fixtures as seeds)
// with every operation: a bad file must be an error naming it, never a
// panic, and no read may allocate much more than the limits allow (lowered
// here so that a mutated size cannot hide behind the default ones).
func FuzzParquet(f *testing.F) {
	for _, name := range []string{"one_rg.parquet", "parts/part=1/data_0.parquet", "empty.parquet"} {
		b, err := os.ReadFile(pqPath(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(0))
		f.Add(b, uint8(3))
	}
	lowerLimits(f)
	f.Fuzz(readMutated)
}

// lowerLimits lowers the limits of the readers for the rest of the test.
func lowerLimits(t testing.TB) {
	saved := limits
	limits.pageBytes, limits.pageValues, limits.footer, limits.index = 4<<20, 1<<18, 1<<20, 1<<20
	t.Cleanup(func() { limits = saved })
}

// readMutated reads the Parquet file data with Sample and Scan; mode picks
// Query.DropMissing (bit 0) and a group column (bit 1).
func readMutated(t *testing.T, data []byte, mode uint8) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	p, err := NewParquetAt(bytes.NewReader(data), int64(len(data)), "f.parquet", Options{})
	if err != nil {
		if !strings.HasPrefix(err.Error(), "dataset: f.parquet: ") {
			t.Fatalf("message without the file: %v", err)
		}
		return
	}
	p.alwaysSeek = true
	ctx := context.Background()
	q := Query{DropMissing: mode&1 != 0}
	if mode&2 != 0 {
		q.Group = "grp"
	}
	_, err = p.Sample(ctx, q, Sampling{Size: 5, Seek: true, Units: 2})
	if err != nil && !strings.HasPrefix(err.Error(), "dataset: ") {
		t.Fatalf("message without the package: %v", err)
	}
	_, err = p.Scan(ctx, q, func(string, int, []float64) error { return nil })
	if err != nil && !strings.HasPrefix(err.Error(), "dataset: ") {
		t.Fatalf("message without the package: %v", err)
	}
	runtime.ReadMemStats(&after)
	if a := after.TotalAlloc - before.TotalAlloc; a > 256<<20 {
		t.Fatalf("%d bytes allocated for a file of %d", a, len(data))
	}
}

// TestParquetMutations reads thousands of mutations of a fixture (bytes
// changed, inserted, deleted, the file cut short), as FuzzParquet does with
// the fuzzing engine's mutations.
func TestParquetMutations(t *testing.T) {
	lowerLimits(t)
	n := testtier.Pick(300, 3000)
	r := rand.New(rand.NewPCG(7, 8))
	for _, name := range []string{"one_rg.parquet", "parts/part=2/data_0.parquet"} {
		orig, err := os.ReadFile(pqPath(name))
		if err != nil {
			t.Fatal(err)
		}
		for range n {
			d := bytes.Clone(orig)
			for range 1 + r.IntN(4) {
				i := r.IntN(len(d))
				switch r.IntN(4) {
				case 0:
					d = append(d[:i:i], d[i+1:]...)
				case 1:
					d = append(d[:i:i], append([]byte{byte(r.IntN(256))}, d[i:]...)...)
				case 2:
					d = d[:max(i, 12)]
				default:
					d[i] = byte(r.IntN(256))
				}
			}
			if len(d) > 12 && r.IntN(2) == 0 { // keep the magic bytes, so that the footer is read
				copy(d[len(d)-4:], pqMagic)
			}
			readMutated(t, d, uint8(r.IntN(4)))
		}
	}
}
