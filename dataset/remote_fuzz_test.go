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

// lyingPrefetcher is a lyingReader that is a Prefetcher, as the objects
// of a store are (the readers then skip the magic bytes at the start and
// prefetch footers): each range it is told must lie within the size
// claimed and span at most what a footer may, plus the tail.
type lyingPrefetcher struct {
	lyingReader
	t    *testing.T
	size int64
}

func (l *lyingPrefetcher) Prefetch(ranges [][2]int64, keep bool) {
	for _, r := range ranges {
		if r[0] < 0 || r[1] > l.size || r[0] > r[1] || r[1]-r[0] > limits.footer+remoteTail {
			l.t.Errorf("prefetch of [%d, %d) in an object of %d bytes", r[0], r[1], l.size)
		}
	}
}

// FuzzOpenObjects opens and samples an object of any bytes, whose claimed
// size differs from its bytes by delta, as Parquet (by its name) and as
// CSV, read through a plain io.ReaderAt and through a Prefetcher: an error
// or a table, never a panic, and no allocation or prefetch beyond what the
// bytes justify (the readers check every size first).
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
			for _, r := range []io.ReaderAt{&lyingReader{b}, &lyingPrefetcher{lyingReader{b}, t, size}} {
				sampleObject(name, size, r)
			}
		}
	})
}

// sampleObject opens the object name of size bytes read by r and samples
// it, for FuzzOpenObjects.
func sampleObject(name string, size int64, r io.ReaderAt) {
	src, err := OpenObjects(name, []Object{{Path: name, Size: size, R: r}}, Options{})
	if err != nil {
		return
	}
	if b, ok := src.(*CSVBlocks); ok {
		b.alwaysSeek = true
	}
	src.Sample(context.Background(), Query{DropMissing: true}, Sampling{Size: 3, Seek: true, Units: 2})
	src.Close()
}
