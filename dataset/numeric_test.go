// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadMatrix(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		delim      rune
		rows, cols int
		data       []float64
	}{
		{name: "square", in: "1,2\n3,4\n", rows: 2, cols: 2, data: []float64{1, 2, 3, 4}},
		{name: "rectangular", in: "1,2,3\n4,5,6\n", rows: 2, cols: 3, data: []float64{1, 2, 3, 4, 5, 6}},
		{name: "BOM, CRLF, blank lines, quotes, spaces", in: "\ufeff\r\n 1 ,\"2\"\r\n\r\n3,4e0\r\n\r\n", rows: 2, cols: 2, data: []float64{1, 2, 3, 4}},
		{name: "space runs", in: "  1  2\n3 4  \n", delim: ' ', rows: 2, cols: 2, data: []float64{1, 2, 3, 4}},
		{name: "tabs", in: "1\t2\n3\t4\n", delim: '\t', rows: 2, cols: 2, data: []float64{1, 2, 3, 4}},
		{name: "one number", in: "7\n", rows: 1, cols: 1, data: []float64{7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, cols, data, err := ReadMatrix(strings.NewReader(tt.in), "m.txt", tt.delim)
			if err != nil {
				t.Fatal(err)
			}
			if rows != tt.rows || cols != tt.cols || !reflect.DeepEqual(data, tt.data) {
				t.Errorf("got %d×%d %v, want %d×%d %v", rows, cols, data, tt.rows, tt.cols, tt.data)
			}
		})
	}
}

func TestReadVector(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		delim rune
		want  []float64
	}{
		{name: "one per line", in: "1\n2\n\n3\n", want: []float64{1, 2, 3}},
		{name: "one line", in: "1,2,3\n", want: []float64{1, 2, 3}},
		{name: "one line, no newline", in: "1,2,3", want: []float64{1, 2, 3}},
		{name: "one line, spaces", in: " 1 2   3 \n\n", delim: ' ', want: []float64{1, 2, 3}},
		{name: "one per line, CRLF and BOM", in: "\ufeff1\r\n-2.5\r\n", want: []float64{1, -2.5}},
		{name: "single number", in: "4", want: []float64{4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadVector(strings.NewReader(tt.in), "v.txt", tt.delim)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestReadNumbersErrors(t *testing.T) {
	tests := []struct {
		name   string
		vector bool
		in     string
		delim  rune
		err    error
		words  []string
	}{
		{name: "empty matrix", in: "", err: ErrEmpty, words: []string{"m.txt", "empty"}},
		{name: "blank matrix", in: "\n \n\r\n", err: ErrEmpty},
		{name: "empty vector", vector: true, in: "\ufeff", err: ErrEmpty, words: []string{"m.txt"}},
		{name: "ragged matrix, short", in: "1,2,3\n4,5,6\n7,8\n", err: ErrRagged, words: []string{"line 3", "expected 3", "found 2"}},
		{name: "ragged matrix, long", in: "1,2\n\n3,4,5\n", err: ErrRagged, words: []string{"line 3", "expected 2", "found 3"}},
		{name: "non-numeric", in: "1,2\n3,x\n", err: ErrNotNumber, words: []string{"line 2, field 2", `"x"`}},
		{name: "header given", in: "a,b\n1,2\n", err: ErrNotNumber, words: []string{"line 1, field 1", `"a"`, "no header"}},
		{name: "wrong delimiter", in: "1 2\n3 4\n", err: ErrNotNumber, words: []string{"line 1, field 1", `"1 2"`, "delimiter ' '"}},
		{name: "empty cell", in: "1,,2\n", err: ErrEmptyCell, words: []string{"line 1, field 2"}},
		{name: "NaN", in: "1,2\n3,NaN\n", err: ErrNonFinite, words: []string{"line 2, field 2", `"NaN"`}},
		{name: "1e400", vector: true, in: "1\n1e400\n", err: ErrNonFinite, words: []string{"line 2, field 1", "too large"}},
		{name: "space fields, long", in: "1 2\n3  4 5\n", delim: ' ', err: ErrRagged, words: []string{"line 2", "expected 2", "found 3"}},
		{name: "bare quote", in: "1,2\"\n", err: nil, words: []string{"line 1", "malformed"}},
		{name: "vector as matrix", vector: true, in: "1,2,3\n4,5,6\n", err: ErrRagged,
			words: []string{"line 2", "line 1 already holds 3 numbers", "not a matrix"}},
		{name: "vector, then several per line", vector: true, in: "1\n2\n3,4\n", err: ErrRagged,
			words: []string{"line 3", "expected 1 number per line", "found 2"}},
		{name: "vector, non-numeric", vector: true, in: "1\n\n\nz\n", err: ErrNotNumber, words: []string{"line 4, field 1", `"z"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.vector {
				var v []float64
				v, err = ReadVector(strings.NewReader(tt.in), "m.txt", tt.delim)
				if err == nil {
					t.Fatalf("no error: %v", v)
				}
			} else {
				var rows, cols int
				rows, cols, _, err = ReadMatrix(strings.NewReader(tt.in), "m.txt", tt.delim)
				if err == nil {
					t.Fatalf("no error: %d×%d", rows, cols)
				}
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "dataset: m.txt") {
				t.Errorf("message %q lacks the prefix", msg)
			}
			if tt.err != nil && !errors.Is(err, tt.err) {
				t.Errorf("error %q is not %v", msg, tt.err)
			}
			for _, w := range tt.words {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
		})
	}
}

func TestOpenMatrixVector(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.txt")
	if err := os.WriteFile(m, []byte("1 2\n3 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, cols, data, err := OpenMatrix(m, ' ')
	if err != nil || rows != 2 || cols != 2 || !reflect.DeepEqual(data, []float64{1, 2, 3, 4}) {
		t.Errorf("OpenMatrix: %d×%d %v %v", rows, cols, data, err)
	}
	_, err = OpenVector(m, ' ')
	if !errors.Is(err, ErrRagged) || !strings.Contains(err.Error(), m+": line 2") {
		t.Errorf("OpenVector of a matrix: %v", err)
	}
	v := filepath.Join(dir, "v.txt")
	if err := os.WriteFile(v, []byte("5\n6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := OpenVector(v, 0)
	if err != nil || !reflect.DeepEqual(got, []float64{5, 6}) {
		t.Errorf("OpenVector: %v %v", got, err)
	}
	_, _, _, err = OpenMatrix(filepath.Join(dir, "none.txt"), 0)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "none.txt") {
		t.Errorf("OpenMatrix of a missing file: %v", err)
	}
}
