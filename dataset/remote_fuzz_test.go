// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"io"
	"os"
	"testing"
	"time"
)

// lyingReader is an object whose server lies about its size: it holds
// fewer (or more) bytes than Size says.
type lyingReader struct{ b []byte }

func (l *lyingReader) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(l.b)) {
		return 0, io.EOF
	}
	n := copy(p, l.b[off:])
	if n < len(p) {
		return n, io.ErrUnexpectedEOF
	}
	return n, nil
}

// FuzzOpenObjects opens and samples an object of any bytes, whose claimed
// size differs from its bytes by delta, as Parquet (by its name) and as
// CSV: an error or a table, never a panic, and no allocation beyond what
// the bytes justify (the readers check every size first).
func FuzzOpenObjects(f *testing.F) {
	good, err := os.ReadFile("../testdata/parquet/plain.parquet")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, int64(0))
	f.Add(good, int64(-100))
	f.Add(good, int64(1<<31))
	f.Add([]byte("x,y\n1,2\n3,4\n"), int64(0))
	f.Add([]byte("x,y\n1,2\n3,4\n"), int64(1000))
	f.Fuzz(func(t *testing.T, b []byte, delta int64) {
		size := int64(len(b)) + delta
		if size < 0 || size > 1<<40 {
			return
		}
		start := time.Now()
		defer func() {
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v: size %d, %d bytes", d, int64(len(b))+delta, len(b))
			}
		}()
		for _, name := range []string{"o.parquet", "o.csv"} {
			src, err := OpenObjects(name, []Object{{Path: name, Size: size, R: &lyingReader{b}}}, Options{})
			if err != nil {
				continue
			}
			if b, ok := src.(*CSVBlocks); ok {
				b.alwaysSeek = true
			}
			src.Sample(context.Background(), Query{DropMissing: true}, Sampling{Size: 3, Seek: true, Units: 2})
			src.Close()
		}
	})
}
