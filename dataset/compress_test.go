// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// gz returns data compressed with gzip, in two members (a concatenation,
// as `cat a.gz b.gz` makes).
func gz(t *testing.T, data []byte) []byte {
	var b bytes.Buffer
	half := len(data) / 2
	for _, part := range [][]byte{data[:half], data[half:]} {
		w := gzip.NewWriter(&b)
		w.Write(part)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// zst returns data compressed with zstd.
func zst(t *testing.T, data []byte, opts ...zstd.EOption) []byte {
	var b bytes.Buffer
	w, err := zstd.NewWriter(&b, opts...)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sampleFile opens path and samples it with Sampling.Seek, then scans it.
func sampleFile(path string, q Query, opts Options) (*Table, int, error) {
	src, err := Open(path, opts)
	if err != nil {
		return nil, 0, err
	}
	defer src.Close()
	tab, err := src.Sample(context.Background(), q, Sampling{Size: 50, Seek: true, Src: rand.NewPCG(1, 2)})
	if err != nil {
		return nil, 0, err
	}
	rows := 0
	_, err = src.Scan(context.Background(), q, func(string, int, []float64) error { rows++; return nil })
	return tab, rows, err
}

func TestCompressed(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("g,x,y\n")
	for i := range 3000 {
		b.WriteString([]string{"A", "B"}[i%2] + "," + strings.Repeat("1", 1+i%5) + ",2.5\n")
	}
	plain := b.Bytes()
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	want, wantRows, err := sampleFile(write("plain.csv", plain), Query{Group: "g"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	gzData, zstData := gz(t, plain), zst(t, plain)
	for name, data := range map[string][]byte{
		"d.csv.gz": gzData, "d.csv.GZ": gzData, "d.csv.zst": zstData,
		"gzip-without-extension.csv": gzData, "zstd-without-extension": zstData,
	} {
		t.Run(name, func(t *testing.T) {
			var read, size int64
			path := write(name, data)
			got, rows, err := sampleFile(path, Query{Group: "g"}, Options{Progress: func(r, s int64) { read, size = r, s }})
			if err != nil {
				t.Fatal(err)
			}
			if got.Sampled || got.Fallback != "" || rows != wantRows {
				t.Errorf("sampled %v, fallback %q, %d rows scanned, want %d", got.Sampled, got.Fallback, rows, wantRows)
			}
			got.Name = want.Name
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
			if read != int64(len(data)) || size != int64(len(data)) {
				t.Errorf("progress %d of %d, want %d", read, size, len(data))
			}
		})
	}
	t.Run("stdin", func(t *testing.T) {
		for _, data := range [][]byte{gzData, zstData} {
			got, _, err := sampleFile("-", Query{Group: "g"}, Options{Stdin: bytes.NewReader(data)})
			if !errors.Is(err, ErrReread) {
				t.Errorf("second pass over stdin: %v", err)
			}
			src, _ := Open("-", Options{Stdin: bytes.NewReader(data)})
			got, err = src.Sample(context.Background(), Query{Group: "g"}, Sampling{Size: 50, Seek: true, Src: rand.NewPCG(1, 2)})
			if err != nil {
				t.Fatal(err)
			}
			got.Name = want.Name
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		}
	})
}

func TestCompressedErrors(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("x,y\n")
	for i := range 20000 {
		b.WriteString(strings.Repeat("3", 1+i%7) + ",4\n")
	}
	plain := b.Bytes()
	gzData, zstData := gz(t, plain), zst(t, plain)
	corrupt := bytes.Clone(gzData)
	for i := len(corrupt) / 2; i < len(corrupt)/2+50; i++ {
		corrupt[i] ^= 0x5a
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		data  []byte
		words []string
	}{
		{"cut.csv.gz", gzData[:len(gzData)/3], []string{"cut.csv.gz", "gzip stream cut short", "after line"}},
		{"cut.csv.zst", zstData[:len(zstData)/2], []string{"cut.csv.zst", "zstd stream"}},
		{"header.csv.gz", gzData[:5], []string{"header.csv.gz", "gzip stream cut short"}},
		{"corrupt.csv.gz", corrupt, []string{"corrupt.csv.gz", "gzip stream"}},
		{"plain.csv.gz", plain, []string{"plain.csv.gz", "not a gzip stream", `starts with "x,y\n"`}},
		{"empty.csv.zst", nil, []string{"empty.csv.zst", "not a zstd stream"}},
		{"gzip.csv.zst", gzData, []string{"gzip.csv.zst", "not a zstd stream"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := sampleFile(path, Query{}, Options{})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "dataset: ") {
				t.Errorf("error %q lacks the prefix", err)
			}
		})
	}
	t.Run("cut short wraps io.ErrUnexpectedEOF", func(t *testing.T) {
		src, _ := Open("-", Options{Stdin: bytes.NewReader(gzData[:len(gzData)-10])})
		_, err := src.Sample(context.Background(), Query{}, Sampling{})
		if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "<stdin>") {
			t.Errorf("error %v", err)
		}
	})
}

// TestZstdWindow checks that a zstd frame declaring a window larger than
// MaxZstdWindow is refused, not allocated.
func TestZstdWindow(t *testing.T) {
	// A frame header declaring a 1 GiB window (Window_Descriptor 0x98:
	// exponent 19 + 10 = 29, mantissa 0), followed by junk.
	frame := append([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x98}, bytes.Repeat([]byte{0}, 64)...)
	src, err := Open("-", Options{Stdin: bytes.NewReader(frame)})
	if err == nil {
		_, err = src.Sample(context.Background(), Query{}, Sampling{})
	}
	if err == nil || !strings.Contains(err.Error(), "zstd") {
		t.Errorf("error %v", err)
	}
}
