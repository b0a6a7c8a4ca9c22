// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/sublinear/pearson/objstore/s3test"
)

// gzipBytes and zstdBytes compress b.
func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func zstdBytes(b []byte) []byte {
	w, _ := zstd.NewWriter(nil)
	defer w.Close()
	return w.EncodeAll(b, nil)
}

// memObject is an object held in memory.
func memObject(key string, b []byte) Object {
	return Object{Path: "s3://b/p/" + key, Key: key, Size: int64(len(b)), R: bytes.NewReader(b)}
}

// TestCompressedPrefixWhole checks that a prefix of CSV objects of mixed
// compression (gzip, zstd, none; a byte-order mark, CRLF line ends, a
// missing last line end, an empty object, a zero-byte .csv.gz object,
// blank lines before a header)
// read whole (Sampling.Size 0, or fewer objects than a sample draws) is
// the one CSV of their rows, and that an error names the object and its
// own line, and a header that differs, the object; every row of more
// bytes than a sample reads is refused.
func TestCompressedPrefixWhole(t *testing.T) {
	parts := []string{"\ufeffx,y\r\n1,2\r\n3,4\r\n", "x,y\n5,6\n7,8", "", "\n\nx,y\n9,10\n"}
	objs := []Object{
		memObject("a/part-0.csv.gz", gzipBytes([]byte(parts[0]))),
		memObject("a/part-1.csv.zst", zstdBytes([]byte(parts[1]))),
		memObject("b/part-2.csv.gz", gzipBytes(nil)),
		memObject("b/part-2b.csv.gz", nil), // zero bytes, not even an empty gzip stream
		memObject("b/part-3.csv", []byte(parts[3])),
		memObject("_SUCCESS", nil),
	}
	src, err := OpenObjects("s3://b/p/", objs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := NewCSV(strings.NewReader("x,y\n1,2\n3,4\n5,6\n7,8\n9,10\n"), "s3://b/p/", Options{}).Sample(context.Background(), Query{}, Sampling{})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{0, 100} {
		got, err := src.Sample(context.Background(), Query{}, Sampling{Size: size})
		if err != nil {
			t.Fatal(err)
		}
		if got.Sampled || got.Groups[0].Rows != 5 || !slices.Equal(got.Groups[0].Data, want.Groups[0].Data) {
			t.Errorf("size %d: sampled %v, rows %d, data %v; want %v", size, got.Sampled, got.Groups[0].Rows, got.Groups[0].Data, want.Groups[0].Data)
		}
	}
	_, err = src.Sample(context.Background(), Query{}, Sampling{ObjectBytes: 10})
	if err == nil || !strings.Contains(err.Error(), "keeping every row of its 5 compressed CSV objects would download") {
		t.Errorf("every row of more than the budget: %v", err)
	}
	objs[4] = memObject("b/part-3.csv", []byte("\n\nx,y\n9,10\n11,zz\n"))
	src, _ = OpenObjects("s3://b/p/", objs, Options{})
	_, err = src.Sample(context.Background(), Query{}, Sampling{Size: 10})
	if err == nil || !strings.Contains(err.Error(), `s3://b/p/b/part-3.csv: line 5, column "y"`) {
		t.Errorf("bad cell: %v", err)
	}
	objs[4] = memObject("b/part-3.csv", []byte("x,z\n9,10\n"))
	src, _ = OpenObjects("s3://b/p/", objs, Options{})
	_, err = src.Sample(context.Background(), Query{}, Sampling{Size: 10})
	if err == nil || !strings.Contains(err.Error(), `s3://b/p/b/part-3.csv: its header "x,z" differs from the header "x,y" of s3://b/p/a/part-0.csv.gz`) {
		t.Errorf("header: %v", err)
	}
	objs[1] = memObject("a/part-1.csv.zst", gzipBytes([]byte(parts[1])))
	src, _ = OpenObjects("s3://b/p/", objs, Options{})
	_, err = src.Sample(context.Background(), Query{}, Sampling{Size: 10})
	if err == nil || !strings.Contains(err.Error(), "s3://b/p/a/part-1.csv.zst: not a zstd stream") {
		t.Errorf("a gzip object named .zst: %v", err)
	}
	cut := gzipBytes([]byte(parts[0]))
	objs[0], objs[1] = memObject("a/part-0.csv.gz", cut[:len(cut)-9]), memObject("a/part-1.csv.zst", zstdBytes([]byte(parts[1])))
	src, _ = OpenObjects("s3://b/p/", objs, Options{})
	_, err = src.Sample(context.Background(), Query{}, Sampling{Size: 10})
	if err == nil || !strings.Contains(err.Error(), "s3://b/p/a/part-0.csv.gz: gzip stream cut short") {
		t.Errorf("cut short: %v", err)
	}
}

// compressedParts returns m gzip-compressed CSV objects of rows rows
// each, x in object i being normal with mean i/m (so that objects differ,
// as the partitions of a dataset do), and the mean of x over all rows.
func compressedParts(m, rows int) ([][]byte, float64) {
	rnd := rand.New(rand.NewPCG(uint64(m), 7))
	var parts [][]byte
	sum := 0.0
	for i := range m {
		var b bytes.Buffer
		b.WriteString("x,y\n")
		for range rows {
			x := rnd.NormFloat64() + float64(i)/float64(m)
			sum += x
			fmt.Fprintf(&b, "%.6f,%.6f\n", x, rnd.NormFloat64())
		}
		parts = append(parts, gzipBytes(b.Bytes()))
	}
	return parts, sum / float64(m*rows)
}

// TestCompressedPrefixSampled checks, on Spark-like prefixes of gzipped
// CSV objects of 8 and 32 objects in a real S3-compatible server
// (versitygw), that a sample draws whole objects within the byte budget:
// the same number of objects, requests and bytes at both prefix sizes;
// that the row count's estimate is within 4 standard errors of the truth;
// and that the mean of x over the kept rows is within 4 standard errors
// of a cluster sample of k of M objects (the spread of the objects'
// means) of the mean of every row.
func TestCompressedPrefixSampled(t *testing.T) {
	srv := s3test.Start(t)
	const rows = 4000
	var stats [2][2]int64
	for n, m := range []int{8, 32} {
		parts, mean := compressedParts(m, rows)
		size := int64(0)
		for i, p := range parts {
			srv.PutBytes(t, "bkt", fmt.Sprintf("gz%d/part=%d/part-%05d.csv.gz", m, i%3, i), p)
			size += int64(len(p))
		}
		srv.PutBytes(t, "bkt", fmt.Sprintf("gz%d/_SUCCESS", m), nil)
		objs, st := listObjects(t, fmt.Sprintf("s3://bkt/gz%d/", m))
		src, err := OpenObjects(fmt.Sprintf("s3://bkt/gz%d/", m), objs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		budget := (4*size + int64(m) - 1) / int64(m) // four objects of the mean size
		tb, err := src.Sample(context.Background(), Query{}, Sampling{Size: 2000, Src: rand.NewPCG(3, 4), ObjectBytes: budget, Seek: true})
		if err != nil {
			t.Fatal(err)
		}
		s := st.Stats()
		stats[n] = [2]int64{s.Requests, s.Bytes}
		g := tb.Groups[0]
		t.Logf("%d objects, %d bytes: %s; %d requests, %d bytes; rows %d ± %.0f of %d", m, size, fmt.Sprintf("%d of %d objects", tb.ObjectsRead, tb.Objects), s.Requests, s.Bytes, g.Rows, g.RowsStdErr, m*rows)
		if !tb.Sampled || tb.Objects != m || tb.ObjectsRead != 4 || tb.Draws != 4 || g.Len() != 2000 || len(g.Units) != g.Len() {
			t.Fatalf("sampled %v, %d of %d objects, %d draws, %d rows kept, %d units", tb.Sampled, tb.ObjectsRead, tb.Objects, tb.Draws, g.Len(), len(g.Units))
		}
		if s.Bytes > 4*size/int64(m)*5/4 || s.Requests > 4*2+2 {
			t.Errorf("%d requests, %d bytes: more than the 4 objects drawn", s.Requests, s.Bytes)
		}
		if d := math.Abs(float64(g.Rows - m*rows)); d > 4*g.RowsStdErr+1 {
			t.Errorf("rows %d ± %.1f, truth %d", g.Rows, g.RowsStdErr, m*rows)
		}
		var means []float64 // of the objects
		for i := range m {
			means = append(means, float64(i)/float64(m))
		}
		sd := 0.0
		for _, v := range means {
			sd += (v - 0.5 + 0.5/float64(m)) * (v - 0.5 + 0.5/float64(m))
		}
		sd = math.Sqrt(sd / float64(m-1))
		se := math.Sqrt((1-4/float64(m))/4*sd*sd + 1/2000.0)
		got := 0.0
		for j := range g.Len() {
			got += g.Data[2*j]
		}
		got /= float64(g.Len())
		if math.Abs(got-mean) > 4*se {
			t.Errorf("mean of x %.4f, of every row %.4f: more than 4 standard errors (%.4f) apart", got, mean, se)
		}
	}
	if stats[1][0] > stats[0][0]+2 || float64(stats[1][1]) > 1.5*float64(stats[0][1]) {
		t.Errorf("8 objects: %d requests, %d bytes; 32 objects: %d requests, %d bytes: the cost grows with the prefix", stats[0][0], stats[0][1], stats[1][0], stats[1][1])
	}
}
