// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sublinear/pearson/objstore/s3test"
)

// TestRemoteCompressedPrefix runs pe on a prefix of gzipped CSV objects
// as Spark writes them (part-….csv.gz, a _SUCCESS marker) in a real
// S3-compatible server: it is read (whole, being smaller than the bytes a
// sample reads; dataset's TestCompressedPrefixSampled draws objects) and
// gives the very output of the one local .csv.gz of its rows.
func TestRemoteCompressedPrefix(t *testing.T) {
	srv := s3test.Start(t)
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(5, 6))
	var all bytes.Buffer
	all.WriteString("x,y\n")
	for i := range 3 {
		var b bytes.Buffer
		b.WriteString("x,y\n")
		for range 2000 {
			fmt.Fprintf(&b, "%.5f,%.5f\n", rnd.NormFloat64(), rnd.NormFloat64())
		}
		all.Write(b.Bytes()[4:])
		srv.PutBytes(t, "bkt", fmt.Sprintf("gz/part-%05d.csv.gz", i), gzipped(b.Bytes()))
	}
	srv.PutBytes(t, "bkt", "gz/_SUCCESS", nil)
	local := filepath.Join(dir, "all.csv.gz")
	if err := os.WriteFile(local, gzipped(all.Bytes()), 0o644); err != nil {
		t.Fatal(err)
	}
	var qb bytes.Buffer
	qb.WriteString("x,y\n")
	for range 500 {
		fmt.Fprintf(&qb, "%.5f,%.5f\n", rnd.NormFloat64()+0.5, rnd.NormFloat64())
	}
	q := writeFile(t, "q.csv", qb.String())
	code, want, stderr := run(t, tunedUnlessRace("pe", "--format", "json", local, q)...)
	if code != 0 {
		t.Fatal(stderr)
	}
	code, got, stderr := run(t, tunedUnlessRace("pe", "--format", "json", "s3://bkt/gz/", q)...)
	if code != 0 {
		t.Fatal(stderr)
	}
	timing := regexp.MustCompile(`"timing":\{[^}]*\}`) // seconds differ
	got = timing.ReplaceAllString(strings.ReplaceAll(got, "s3://bkt/gz/", local), "")
	if want = timing.ReplaceAllString(want, ""); got != want {
		t.Errorf("the prefix and the local file differ:\n%s\n%s", got, want)
	}
}

// gzipped compresses b.
func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}
