// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/sublinear/pearson/dataset/datasettest"
)

// TestIsCompressed checks that the name and the magic bytes each say a
// file is compressed, as Open reads it: a gzip stream without an extension
// is compressed, a plain file is not.
func TestIsCompressed(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("x\n1\n2\n"))
	w.Close()
	files := map[string][]byte{
		"plain.csv":   []byte("x\n1\n2\n"),
		"noext":       gz.Bytes(),
		"data.csv.gz": gz.Bytes(),
		"zstd.bin":    {0x28, 0xb5, 0x2f, 0xfd, 0},
		"tiny":        {0x1f},
	}
	want := map[string]bool{"plain.csv": false, "noext": true, "data.csv.gz": true, "zstd.bin": true, "tiny": false}
	for name, b := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := IsCompressed(path); got != want[name] {
			t.Errorf("IsCompressed(%s) = %v, want %v", name, got, want[name])
		}
	}
	if IsCompressed("-") || IsCompressed(filepath.Join(dir, "missing")) {
		t.Error("standard input or a missing file reported compressed")
	}
}

// TestInspect: the one format detection says Parquet by name, by magic
// bytes (a file named .csv) and for a directory, with the rows counted
// from the footers; a plain CSV file's rows are counted when the head is
// the whole file and estimated from its size otherwise (the estimate of a
// file of equal lines is within one line per HeadBytes); a compressed
// file, standard input and a missing file have unknown rows; a file of
// carriage returns alone is flagged.
func TestInspect(t *testing.T) {
	type row struct{ X float64 }
	groups := [][]row{make([]row, 700), make([]row, 300)}
	pq := datasettest.WriteParquet(t, "x.parquet", groups)
	b, err := os.ReadFile(pq)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	must := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	disguised := must("x.csv", b)
	var big bytes.Buffer
	big.WriteString("x\n")
	for big.Len() < 4*HeadBytes {
		big.WriteString("1234567\n") // 8 bytes a row
	}
	bigRows := int64(big.Len()-2) / 8
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("x\n1\n2\n"))
	w.Close()
	for _, c := range []struct {
		path   string
		format Format
		rows   int64
		exact  bool
		cr     bool
	}{
		{pq, FormatParquet, 1000, true, false},
		{disguised, FormatParquet, 1000, true, false},
		{filepath.Dir(pq), FormatParquet, 1000, true, false},
		{must("small.csv", []byte("x\n1\n2\n3\n")), FormatCSV, 3, true, false},
		{must("big.csv", big.Bytes()), FormatCSV, bigRows, false, false},
		{must("mac.csv", []byte("x\r1\r2\r")), FormatCSV, -1, false, true},
		{must("data.csv.gz", gz.Bytes()), FormatGzip, -1, false, false},
		{"-", FormatUnknown, -1, false, false},
		{filepath.Join(dir, "missing"), FormatUnknown, -1, false, false},
	} {
		got := Inspect(c.path)
		tol := int64(0)
		if !c.exact && c.rows > 0 {
			tol = int64(len(big.Bytes())/HeadBytes) + 1
		}
		if got.Format != c.format || got.Exact != c.exact || got.CROnly != c.cr || got.Rows < c.rows-tol || got.Rows > c.rows+tol {
			t.Errorf("Inspect(%s) = %+v; want %v, %d rows (±%d), exact %v, CR only %v", filepath.Base(c.path), got, c.format, c.rows, tol, c.exact, c.cr)
		}
	}
}
