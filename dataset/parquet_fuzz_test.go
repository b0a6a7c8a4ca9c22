// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/sublinear/pearson/internal/testtier"
)

// FuzzParquet reads Parquet files (the DuckDB fixtures) altered by an
// edit script that the fuzzing engine writes, with every operation: a bad
// file must be an error naming it, never a panic, and no read may allocate
// much more than the limits allow (lowered here so that a mutated size
// cannot hide behind the default ones).
//
// The engine's input is the script, a few bytes, not the file. The engine
// minimises every new interesting input by deleting its bytes one at a
// time and then in every range, O(n²) runs, for up to -fuzzminimizetime
// (60 s by default) each; a Parquet file cut anywhere loses its footer, so
// no deletion keeps the coverage and the minimisation of a 25 KB file took
// its whole 60 s: the engine ran 5–9 inputs in 45 s (issue 27). Minimising
// a script of a few dozen bytes takes milliseconds.
func FuzzParquet(f *testing.F) {
	var files [][]byte
	for _, name := range []string{"one_rg.parquet", "parts/part=1/data_0.parquet", "empty.parquet", "mixed.parquet", "times.parquet"} {
		b, err := os.ReadFile(pqPath(name))
		if err != nil {
			f.Fatal(err)
		}
		files = append(files, b)
	}
	for i := range files {
		f.Add(uint8(i), uint8(0), []byte{})
		f.Add(uint8(i), uint8(3), []byte{0, 0, 0, 200, 7, 3, 0, 1, 0, 0})
	}
	f.Add(uint8(4), uint8(5), []byte{})                              // times.parquet's dates and timestamps as text
	f.Add(uint8(4), uint8(4), []byte{0, 40, 1, 0, 9, 4, 0, 2, 0, 1}) // and NaN a missing value
	lowerLimits(f)
	f.Fuzz(func(t *testing.T, file, mode uint8, script []byte) {
		readMutated(t, applyEdits(files[int(file)%len(files)], script), mode)
	})
}

// maxEdits bounds the edits of a script, so that an input stays short.
const maxEdits = 32

// applyEdits returns a copy of data altered by script, read as edits of
// 5 bytes: an operation, a position (3 bytes, little-endian, taken modulo
// the length) and a value. The operations set a byte, insert one, delete
// one, cut the file short (after at least 12 bytes), set 4 bytes to the
// value (to forge large sizes and counts), or put the magic bytes back at
// the end so that the footer is read.
func applyEdits(data, script []byte) []byte {
	d := bytes.Clone(data)
	for e := 0; e+5 <= len(script) && e/5 < maxEdits; e += 5 {
		op, v := script[e]%6, script[e+4]
		if len(d) == 0 {
			break
		}
		i := (int(script[e+1]) | int(script[e+2])<<8 | int(script[e+3])<<16) % len(d)
		switch op {
		case 0:
			d[i] = v
		case 1:
			d = append(d[:i:i], append([]byte{v}, d[i:]...)...)
		case 2:
			d = append(d[:i:i], d[i+1:]...)
		case 3:
			d = d[:max(i, min(12, len(d)))]
		case 4:
			for j := i; j < min(i+4, len(d)); j++ {
				d[j] = v
			}
		default:
			if len(d) > 12 {
				copy(d[len(d)-4:], pqMagic)
			}
		}
	}
	return d
}

// TestParquetSnappyLength reads a file that FuzzParquet found, whose Snappy
// page says it decodes to 656 MB: the reader must refuse the page before
// the decoder allocates that (it allocated 1.3 GB for the two reads).
func TestParquetSnappyLength(t *testing.T) {
	lowerLimits(t)
	data, err := os.ReadFile("testdata/snappy_length.parquet")
	if err != nil {
		t.Fatal(err)
	}
	readMutated(t, data, 0)
	p, err := NewParquetAt(bytes.NewReader(data), int64(len(data)), "f.parquet", Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Scan(context.Background(), Query{}, func(string, int, []float64) error { return nil })
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "Snappy block decodes to") {
		t.Errorf("error %v, want a corrupt page whose Snappy block is too long", err)
	}
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
	if mode&4 != 0 { // the time columns of times.parquet read as text, NaN missing
		q.NA = true
		q.Cells = make(map[string]func(string) (float64, error))
		for _, c := range []string{"day", "ts", "ts_ms", "ts_ns", "tstz", "iso"} {
			q.Cells[c] = func(s string) (float64, error) {
				if !strings.HasPrefix(s, "19") {
					return 0, errors.New("not a time of the fixture")
				}
				return float64(len(s)), nil
			}
		}
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
					d = d[:max(i, min(12, len(d)))]
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
