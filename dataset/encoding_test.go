// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestNotUTF8Refused checks that UTF-16 text (with either byte-order
// mark, or without one) and a reference file saved by drift, given as a
// table (a file, standard input), are refused with ErrEncoding naming
// what they are, where they read as a table without numbers or with bad
// quotes; and that UTF-8 with a byte-order mark and CRLF line ends is
// read as plain UTF-8.
func TestNotUTF8Refused(t *testing.T) {
	text := "x,y\n1,2\n3,4\n"
	u16 := func(bom []byte, le bool) string {
		b := append([]byte(nil), bom...)
		for _, r := range utf16.Encode([]rune(text)) {
			if le {
				b = append(b, byte(r), byte(r>>8))
			} else {
				b = append(b, byte(r>>8), byte(r))
			}
		}
		return string(b)
	}
	dir := t.TempDir()
	for _, c := range []struct{ name, data, want string }{
		{"le.csv", u16([]byte{0xFF, 0xFE}, true), "UTF-16 text (it starts with the byte-order mark FF FE)"},
		{"be.csv", u16([]byte{0xFE, 0xFF}, false), "UTF-16 text (it starts with the byte-order mark FE FF)"},
		{"nobom.csv", u16(nil, true), "a NUL byte in its first bytes"},
		{"ref.json", "pearson-drift\n\x01\x00\x00\x00{}", "a reference saved by pearson drift --save-reference"},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{p, "-"} {
			src, err := Open(path, Options{Stdin: strings.NewReader(c.data)})
			if err == nil {
				_, err = src.Sample(context.Background(), Query{}, Sampling{Size: 10, Seek: true})
			}
			if !errors.Is(err, ErrEncoding) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "line 1") {
				t.Errorf("%s (%s): %v", c.name, path, err)
			}
		}
	}
	src := NewCSV(strings.NewReader("\ufeffx,y\r\n1,2\r\n3,4\r\n"), "bom.csv", Options{})
	tb, err := src.Sample(context.Background(), Query{}, Sampling{})
	if err != nil || strings.Join(tb.Columns, ";") != "x;y" || tb.Groups[0].Rows != 2 {
		t.Errorf("UTF-8 with a BOM and CRLF: %v %v", tb, err)
	}
}
