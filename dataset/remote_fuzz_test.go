// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
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
// CSV, read through a plain io.ReaderAt and through a Prefetcher, and as
// one of the objects of a prefix of compressed CSV objects: an error
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
	gz := gzipBytes([]byte("x,y\n1,2\n3,4\n"))
	f.Add(gz, int64(0))
	f.Add(zstdBytes([]byte("x,y\n5,6\n")), int64(0))
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
		for _, key := range []string{"p/a.csv.gz", "p/a.csv.zst", "p/a.csv"} {
			samplePrefix(key, size, &lyingReader{b}, gz)
		}
	})
}

// samplePrefix samples a prefix of compressed CSV objects: the object key
// of size bytes read by r, and two good ones, gz, for FuzzOpenObjects,
// drawing two of the three objects and reading them all.
func samplePrefix(key string, size int64, r io.ReaderAt, gz []byte) {
	objs := []Object{{Path: "s3://b/" + key, Key: key, Size: size, R: r}}
	for _, k := range []string{"p/b.csv.gz", "p/c.csv.gz"} {
		objs = append(objs, Object{Path: "s3://b/" + k, Key: k, Size: int64(len(gz)), R: bytes.NewReader(gz)})
	}
	src, err := OpenObjects("s3://b/p/", objs, Options{})
	if err != nil {
		return
	}
	for _, s := range []Sampling{{Size: 3, ObjectBytes: 1, Seek: true}, {Size: 3}, {}} {
		src.Sample(context.Background(), Query{DropMissing: true}, s)
	}
	src.Scan(context.Background(), Query{}, func(string, int, []float64) error { return nil })
	src.Close()
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
