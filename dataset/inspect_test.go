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
