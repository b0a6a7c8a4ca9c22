// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// fuzzSeeds are interesting inputs for both fuzz targets.
var fuzzSeeds = []string{
	"",
	"\ufeff",
	"x,y\n1,2\n3,4\n",
	"\ufeffx,y\r\n1,2\r\n\r\n3,4\r\n",
	"g,x,y\nA,1,2\nB,3,4\nA,5,6\n",
	"\"x\",\"y\"\n\"1.5\",\" 2 \"\n",
	"x,y\n1,\n,2\n3,4\n",
	"x,y\n1,NaN\n",
	"x,y\n1,1e400\n",
	"x,y\n1,-Infinity\n",
	"x,y,z\n1,2\n",
	"x,y\n1,2,3\n",
	"a;b;c\n1;2;3\n",
	"x,x\n1,2\n",
	",x\n0,1\n",
	"x\n1\n\n2\n   \n",
	"n,x\n\"multi\nline\",1\n",
	"x,y\n1,2\"\n",
	"x,y\n\"1,2\n",
	"x\n0x1p3\n1_0\n.5\n-0\n+3\n1E5\n1e-400\n",
	"1,2\n3,4\n",
	"1 2 3\n",
	"1\n2\n3\n",
	"\x00\xff\xfe,\x80\n\x00,1\n",
	"g,x\n,1\nA,\n",
	"a,b,c\n,1,\n,2,x\n3,4,5\n",
	"g,a,b\nA,,1\nB,,2\nA,3,4\n",
}

// FuzzRead checks that Read never panics and returns either an error or a
// consistent table of finite values.
func FuzzRead(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add([]byte(s), byte(','), uint8(i))
	}
	f.Add([]byte("a;b\n1;2\n"), byte(';'), uint8(0))
	f.Add([]byte("a\tb\n1\t2\n"), byte('\t'), uint8(3))
	f.Fuzz(func(t *testing.T, in []byte, delim byte, mode uint8) {
		opts := testOptions{
			Delimiter:   rune(delim),
			DropMissing: mode&1 != 0,
			Src:         rand.NewPCG(uint64(mode), 1),
		}
		if delim >= 0x80 {
			opts.Delimiter = 0
		}
		if mode&2 != 0 {
			opts.Reservoir = int(mode>>4) + 1
		}
		if mode&4 != 0 {
			opts.Group = "g"
		}
		if mode&8 != 0 {
			opts.Columns = []string{"x"}
		}
		tab, err := readCSV(bytes.NewReader(in), "f.csv", opts)
		if err != nil {
			if tab != nil {
				t.Fatalf("table and error %v", err)
			}
			if !strings.HasPrefix(err.Error(), "dataset: f.csv") {
				t.Fatalf("message %q lacks the prefix", err)
			}
			var pe *ParseError
			if errors.As(err, &pe) && pe.Err == nil {
				t.Fatalf("ParseError without a kind: %v", err)
			}
			return
		}
		if len(tab.Columns) == 0 || len(tab.Groups) == 0 {
			t.Fatalf("%d columns, %d groups", len(tab.Columns), len(tab.Groups))
		}
		for _, g := range tab.Groups {
			if g.Len() == 0 || len(g.Data) != g.Len()*len(tab.Columns) || g.Rows < g.Len() {
				t.Fatalf("group %q: %d values, %d kept rows, %d rows, %d columns", g.Key, len(g.Data), g.Len(), g.Rows, len(tab.Columns))
			}
			if opts.Reservoir > 0 && g.Len() > opts.Reservoir {
				t.Fatalf("group %q keeps %d rows, reservoir %d", g.Key, g.Len(), opts.Reservoir)
			}
			if opts.Reservoir == 0 && g.Len() != g.Rows {
				t.Fatalf("group %q keeps %d of %d rows", g.Key, g.Len(), g.Rows)
			}
			for i, v := range g.Data {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("group %q value %d is %v", g.Key, i, v)
				}
			}
			for i, l := range g.Lines {
				if l < 2 || (i > 0 && l <= g.Lines[i-1]) {
					t.Fatalf("group %q lines %v", g.Key, g.Lines)
				}
			}
		}
	})
}

// FuzzReadMatrix checks that ReadMatrix and ReadVector never panic and
// return either an error or consistent finite numbers.
func FuzzReadMatrix(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), byte(','))
	}
	f.Add([]byte("1 2\n 3  4\n"), byte(' '))
	f.Add([]byte("1\t2\n3\t4\n"), byte('\t'))
	f.Fuzz(func(t *testing.T, in []byte, delim byte) {
		d := rune(delim)
		if delim >= 0x80 {
			d = 0
		}
		rows, cols, data, err := ReadMatrix(bytes.NewReader(in), "m.txt", d)
		if err != nil {
			if data != nil || rows != 0 || cols != 0 || !strings.HasPrefix(err.Error(), "dataset: m.txt") {
				t.Fatalf("%d×%d, %d values with error %v", rows, cols, len(data), err)
			}
		} else {
			if rows < 1 || cols < 1 || len(data) != rows*cols {
				t.Fatalf("%d×%d with %d values", rows, cols, len(data))
			}
			checkFinite(t, data)
		}
		v, verr := ReadVector(bytes.NewReader(in), "m.txt", d)
		if verr != nil {
			if v != nil || !strings.HasPrefix(verr.Error(), "dataset: m.txt") {
				t.Fatalf("%d values with error %v", len(v), verr)
			}
			return
		}
		checkFinite(t, v)
		if len(v) == 0 {
			t.Fatal("empty vector without error")
		}
		// A vector is a 1×n or n×1 matrix.
		if err != nil || (rows != 1 && cols != 1) || len(v) != len(data) {
			t.Fatalf("vector of %d, matrix %d×%d (%v)", len(v), rows, cols, err)
		}
	})
}

func checkFinite(t *testing.T, v []float64) {
	t.Helper()
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("value %d is %v", i, x)
		}
	}
}

// FuzzSeek checks that sampling by seeking never panics and returns either
// an error or a consistent table whose kept rows are rows of the input.
func FuzzSeek(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add([]byte(s), uint8(i))
	}
	f.Add([]byte("g,x\nA,1\r\nB,22\n\nA,333"), uint8(4))
	f.Add([]byte("\ufeffx,y\n\"1\",\"2\"\n3,\"4\n5\"\n"), uint8(2))
	f.Fuzz(func(t *testing.T, in []byte, mode uint8) {
		q := Query{DropMissing: mode&1 != 0}
		if mode&4 != 0 {
			q.Group = "g"
			q.MaxGroups = int(mode>>6) & 1 * 2
		}
		if mode&8 != 0 {
			q.Columns = []string{"x"}
		}
		size := int(mode>>4)&3 + 1
		src := seekCSV(in, Options{})
		tab, err := src.Sample(context.Background(), q, Sampling{Size: size, Seek: true, Src: rand.NewPCG(uint64(mode), 2)})
		if err != nil {
			if tab != nil || !strings.HasPrefix(err.Error(), "dataset: s.csv") {
				t.Fatalf("table %v, error %v", tab != nil, err)
			}
			return
		}
		for _, g := range tab.Groups {
			if g.Len() == 0 || g.Len() > size && tab.Sampled || len(g.Data) != g.Len()*len(tab.Columns) || g.Rows < g.Len() {
				t.Fatalf("group %q: %d values, %d kept rows, %d rows", g.Key, len(g.Data), g.Len(), g.Rows)
			}
			checkFinite(t, g.Data)
			for i, off := range g.Offsets {
				if off <= 0 || off >= int64(len(in)) || (i > 0 && off <= g.Offsets[i-1]) || in[off-1] != '\n' {
					t.Fatalf("group %q offsets %v", g.Key, g.Offsets)
				}
			}
		}
	})
}

// FuzzCompressed checks that compressed input, valid or not, read from a
// stream, never panics and gives either an error naming the input or a
// table.
func FuzzCompressed(f *testing.F) {
	for _, s := range fuzzSeeds[:8] {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		f.Add(b.Bytes())
		z, _ := zstd.NewWriter(nil)
		f.Add(z.EncodeAll([]byte(s), nil))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		src, err := Open("-", Options{Stdin: bytes.NewReader(in)})
		if err == nil {
			defer src.Close()
			_, err = src.Sample(context.Background(), Query{}, Sampling{Size: 3})
		}
		if err != nil && !strings.HasPrefix(err.Error(), "dataset: <stdin>") {
			t.Fatalf("error %v", err)
		}
	})
}
