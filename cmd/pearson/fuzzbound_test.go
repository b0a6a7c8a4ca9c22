// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fuzzAllocLimit bounds what one fuzzed run may allocate in all: with
// --max-memory 256M no command line or input may take more, whatever the
// input's shape (a line without end, a wide header, huge numbers).
const fuzzAllocLimit = 1 << 30

// FuzzRunBounded runs fuzzed command lines on a fuzzed standard input with
// a small memory budget, and fails when a run allocates more than
// fuzzAllocLimit, exits with a code other than 0, 1 or 2, or panics.
func FuzzRunBounded(f *testing.F) {
	for _, seed := range []struct{ line, in string }{
		{"pe - Q", "x,z\n1,2\n3,4\n5,6\n7,8\n9,1\n"},
		{"pe --k 10000 - Q", "x,z\n1,2\n3,4\n"},
		{"mi --x a --y b -", "a,b\n1,2\n3,4\n5,5\n6,1\n2,2\n7,3\n"},
		{"rank --target y -", "a,y\r1,2\r3,4\r"},
		{"pe --draws 1 - Q", strings.Repeat("x", 5000)},
		{"test --permutations 200 - Q", "x,z\n1e308,-1e308\n1,1\n2,2\n3,3\n4,4\n5,5\n"},
		{"pe --reservoir 1 - Q", "x,z\n1,2\n"},
		{"pe --sigma 1e-310 - Q", "x,z\n1,2\n"},
	} {
		f.Add(seed.line, seed.in)
	}
	dir := f.TempDir()
	files := fuzzFiles(f, dir)
	missing := filepath.Join(dir, "missing.csv")
	f.Fuzz(func(t *testing.T, line, in string) {
		args := sanitize(strings.Fields(line), files, missing)
		args = append(append([]string{"pearson"}, args...), "--max-memory", "256M")
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var out, errb bytes.Buffer
		code := Run(context.Background(), args, strings.NewReader(in), &out, &errb)
		runtime.ReadMemStats(&after)
		if a := after.TotalAlloc - before.TotalAlloc; a > fuzzAllocLimit {
			t.Fatalf("%q: allocated %d MiB, more than %d", args, a>>20, fuzzAllocLimit>>20)
		}
		if code != exitOK && code != exitData && code != exitUsage {
			t.Fatalf("%q: exit code %d: %s", args, code, errb.String())
		}
		if strings.Contains(errb.String(), "goroutine ") {
			t.Fatalf("%q: panic: %s", args, errb.String())
		}
	})
}
