// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
)

// endless is a reader that never ends: prefix, then pattern over and over.
type endless struct {
	prefix  []byte
	pattern []byte
	read    int64
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	if len(e.prefix) > 0 {
		n = copy(p, e.prefix)
		e.prefix = e.prefix[n:]
	}
	for n < len(p) {
		k := copy(p[n:], e.pattern[int(e.read+int64(n))%len(e.pattern):])
		n += k
	}
	e.read += int64(n)
	return n, nil
}

// TestMaxLine checks that endless lines, huge cells and huge quoted
// records stop the read after about the limit's bytes with an error naming the input, the line
// and the byte, in bounded memory.
func TestMaxLine(t *testing.T) {
	const max = 1 << 20
	for _, tc := range []struct {
		name  string
		in    io.Reader
		words []string
		kind  error
	}{
		// NUL bytes are refused as not UTF-8 from the first four bytes.
		{"zeros", &endless{pattern: []byte{0}}, []string{"e.csv: line 1: a NUL byte in its first bytes"}, ErrEncoding},
		{"sevens", &endless{pattern: []byte{'7'}}, []string{"e.csv: line 1: line longer than 1048576 bytes, from byte 0"}, ErrLineTooLong},
		{"endless header", &endless{pattern: []byte("x,")}, []string{"line 1:", "from byte 0"}, ErrLineTooLong},
		{"endless cell", &endless{prefix: []byte("x,y\n1,2\n3,"), pattern: []byte("4")}, []string{"line 3:", "from byte 8"}, ErrLineTooLong},
		{"endless quoted record", &endless{prefix: []byte("x,y\n1,2\n3,\""), pattern: []byte("a\n")}, []string{"line 3:", "from byte 8"}, ErrLineTooLong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			src := NewCSV(tc.in, "e.csv", Options{MaxLine: max})
			_, err := src.Sample(context.Background(), Query{}, Sampling{Size: 10})
			runtime.ReadMemStats(&after)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("error %v", err)
			}
			for _, w := range tc.words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			// Stopping quickly means stopping after the limit's worth of
			// input, not after a time: a wall-clock bound fails on a loaded
			// machine and passes a reader that keeps going on a fast one.
			if e := tc.in.(*endless); e.read > 4*max {
				t.Errorf("read %d bytes of input for a limit of %d", e.read, max)
			}
			// A line of one-byte fields costs about 100 bytes per byte in
			// encoding/csv's record (see DefaultMaxLine).
			if a := after.TotalAlloc - before.TotalAlloc; a > 128*max {
				t.Errorf("allocated %d bytes", a)
			}
		})
	}
	t.Run("matrix", func(t *testing.T) {
		_, _, _, err := ReadMatrix(&endless{pattern: []byte("1 ")}, "m.txt", ' ')
		if !errors.Is(err, ErrLineTooLong) {
			t.Errorf("error %v", err)
		}
	})
	t.Run("seek", func(t *testing.T) {
		var b bytes.Buffer
		b.WriteString("x,y\n")
		b.WriteString(strings.Repeat("1,2\n", 20000))
		long := b.Len()
		b.WriteString(strings.Repeat("9", 3<<20) + ",1\n")
		b.WriteString(strings.Repeat("1,2\n", 20000))
		src := seekCSV(b.Bytes(), Options{MaxLine: max})
		var err error
		for seed := uint64(0); err == nil && seed < 20; seed++ {
			_, err = src.Sample(context.Background(), Query{}, Sampling{Size: 100, Seek: true})
		}
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Err != ErrLineTooLong || pe.Offset < int64(long) || pe.Offset > int64(long+3<<20) {
			t.Errorf("error %v", err)
		}
	})
	if _, err := os.Stat("/dev/zero"); err == nil {
		t.Run("/dev/zero", func(t *testing.T) {
			src, err := Open("/dev/zero", Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			_, err = src.Sample(context.Background(), Query{}, Sampling{Size: 10, Seek: true})
			if !errors.Is(err, ErrEncoding) || !strings.Contains(err.Error(), "/dev/zero") {
				t.Errorf("error %v", err)
			}
		})
	}
}
