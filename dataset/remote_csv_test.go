// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sublinear/pearson/objstore/s3test"
)

// splitCSV cuts the CSV text data into k objects of about equal size at
// line ends, each with the header; the last one without its final line
// end.
func splitCSV(data []byte, k int) [][]byte {
	header, body, _ := bytes.Cut(data, []byte("\n"))
	header = append(header, '\n')
	var parts [][]byte
	for i := range k {
		end := len(body) * (i + 1) / k
		if i < k-1 {
			end += bytes.IndexByte(body[end:], '\n') + 1
		}
		parts = append(parts, append(bytes.Clone(header), body[:end]...))
		body = body[end:]
	}
	last := parts[k-1]
	parts[k-1] = last[:len(last)-1]
	return parts
}

// TestObjectsCSVPrefix checks that a prefix of CSV objects laid out as
// Spark writes them (part=…/part-….csv, a _SUCCESS marker) in a real
// S3-compatible server is sampled in blocks as the one CSV of their rows
// is: the very same sample at the same seed (the same bytes, so the same
// rows, draws and estimated counts), in requests and bytes that depend on
// the blocks drawn and the number of objects, not on the rows.
func TestObjectsCSVPrefix(t *testing.T) {
	srv := s3test.Start(t)
	data, _ := sortedCSV(300000)
	parts := splitCSV(data, 4)
	for i, p := range parts {
		srv.PutBytes(t, "bkt", fmt.Sprintf("sp/part=%d/part-%05d-c0.csv", i/2, i), p)
	}
	srv.PutBytes(t, "bkt", "sp/_SUCCESS", nil)
	s := Sampling{Size: 3000, Seek: true, Units: 32}
	s.Src = rand.NewPCG(2, 3)
	whole := append(bytes.Clone(data[:len(data)-1]), '\n') // the lost line end, added back
	want, err := NewCSVBlocks(bytes.NewReader(whole), int64(len(whole)), "t.csv", Options{}).Sample(context.Background(), Query{Group: "g"}, s)
	if err != nil {
		t.Fatal(err)
	}
	s.Src = rand.NewPCG(2, 3)
	stats := sameSample(t, want, "s3://bkt/sp/", Query{Group: "g"}, s)
	t.Logf("%d requests, %d bytes of %d", stats.Requests, stats.Bytes, len(data))
	// The listing, the start and the end of each object, then a request
	// per block at most.
	if stats.Requests > int64(s.Units)+2*int64(len(parts))+4 || stats.Bytes > int64(len(data))/4 {
		t.Errorf("%d requests and %d bytes for %d blocks of %d objects of %d bytes", stats.Requests, stats.Bytes, s.Units, len(parts), len(data))
	}
}

// TestObjectsCSVPrefixRefused checks the refusals of a CSV prefix: objects
// whose headers differ, and compressed objects named .csv.
func TestObjectsCSVPrefixRefused(t *testing.T) {
	obj := func(key string, b []byte) Object {
		return Object{Path: "s3://b/p/" + key, Key: key, Size: int64(len(b)), R: bytes.NewReader(b)}
	}
	_, err := OpenObjects("s3://b/p/", []Object{obj("a.csv", []byte("x,y\n1,2\n")), obj("b.csv", []byte("x,z\n1,2\n"))}, Options{})
	if err == nil || !strings.Contains(err.Error(), `s3://b/p/b.csv: its header "x,z" differs from the header "x,y" of s3://b/p/a.csv`) {
		t.Errorf("headers differ: %v", err)
	}
	gz := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0}
	// A gzip stream named .csv (a prefix of .csv.gz objects is sampled by
	// whole objects: TestCompressedPrefixWhole).
	_, err = OpenObjects("s3://b/p/", []Object{obj("a.csv", gz), obj("b.csv", gz)}, Options{})
	if err == nil || !strings.Contains(err.Error(), "s3://b/p/a.csv: a compressed CSV object cannot be sampled by byte ranges") {
		t.Errorf("gzip: %v", err)
	}
	_, err = OpenObjects("s3://b/p/", []Object{obj("a.json", []byte("{}"))}, Options{})
	if err == nil || !strings.Contains(err.Error(), "no .parquet or .csv object among the 1 objects under the prefix") {
		t.Errorf("no table: %v", err)
	}
}
