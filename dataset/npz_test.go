// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// npyArray is a column to write into a test archive: descr is its numpy
// dtype, data its raw values.
type npyArray struct {
	name, descr, shape string
	data               []byte
}

// f8 returns a float64 column.
func f8(name string, v ...float64) npyArray {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return npyArray{name: name, descr: "<f8", shape: fmt.Sprintf("(%d,)", len(v)), data: b}
}

// ustr returns a fixed-width unicode column of width w.
func ustr(name string, w int, v ...string) npyArray {
	b := make([]byte, 4*w*len(v))
	for i, s := range v {
		for k, r := range []rune(s) {
			binary.LittleEndian.PutUint32(b[4*(w*i+k):], uint32(r))
		}
	}
	return npyArray{name: name, descr: fmt.Sprintf("<U%d", w), shape: fmt.Sprintf("(%d,)", len(v)), data: b}
}

// writeNPZ writes an archive as numpy.savez does: stored entries, .npy
// version 1 headers.
func writeNPZ(t testing.TB, method uint16, cols ...npyArray) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, c := range cols {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: c.name + ".npy", Method: method})
		if err != nil {
			t.Fatal(err)
		}
		h := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", c.descr, c.shape)
		h += strings.Repeat(" ", 63-(10+len(h))%64) + "\n"
		w.Write([]byte("\x93NUMPY\x01\x00"))
		binary.Write(w, binary.LittleEndian, uint16(len(h)))
		w.Write([]byte(h))
		w.Write(c.data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestNPZAsCSV checks that an archive reads as the CSV file of the same
// cells: numbers (a NaN an empty cell), text labels and booleans, in a
// mixed table, with labels, and with the default selection.
func TestNPZAsCSV(t *testing.T) {
	b := writeNPZ(t, zip.Store,
		f8("x", 1.5, -2, math.NaN(), 0.1, 1e-300),
		ustr("s", 3, "a", "bé", "", "a", "c"),
		npyArray{name: "b", descr: "|b1", shape: "(5,)", data: []byte{1, 0, 0, 1, 1}},
		npyArray{name: "i", descr: "<i4", shape: "(5,)", data: []byte{1, 0, 0, 0, 255, 255, 255, 255, 7, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0}},
	)
	csvText := "x,s,b,i\n1.5,a,True,1\n-2,bé,False,-1\n,,False,7\n0.1,a,True,0\n1e-300,c,True,3\n"
	for _, q := range []Query{
		{Mixed: true},
		{DropMissing: true},
		{Columns: []string{"x", "s"}, Labels: []string{"s"}, DropMissing: true},
		{Columns: []string{"i", "b"}, Labels: []string{"b"}},
	} {
		z, err := NewNPZAt(bytes.NewReader(b), int64(len(b)), "t", Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := z.Sample(context.Background(), q, Sampling{})
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		want, err := NewCSV(strings.NewReader(csvText), "t", Options{}).Sample(context.Background(), q, Sampling{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range want.Groups { // rows, not lines: the header is no line
			for k := range want.Groups[i].Lines {
				want.Groups[i].Lines[k]--
			}
		}
		for i := range want.Skipped {
			want.Skipped[i].Line--
		}
		want.HeaderLine = 0 // an archive has no header line
		if !reflect.DeepEqual(fmt.Sprint(got), fmt.Sprint(want)) {
			t.Errorf("%+v:\n got %+v\nwant %+v", q, got, want)
		}
	}
}

// TestNPZErrors checks the refusals: each names the column and says what
// to do.
func TestNPZErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"compressed", writeNPZ(t, zip.Deflate, f8("x", 1, 2)), `column "x": the array is compressed (numpy.savez_compressed)`},
		{"ragged", writeNPZ(t, zip.Store, f8("x", 1, 2), f8("y", 1)), `column "y": has 1 rows, column "x" has 2`},
		{"object", writeNPZ(t, zip.Store, npyArray{name: "o", descr: "|O", shape: "(1,)", data: make([]byte, 8)}), `column "o": an object array (pickled)`},
		{"2-D", writeNPZ(t, zip.Store, npyArray{name: "m", descr: "<f8", shape: "(1, 1)", data: make([]byte, 8)}), `shape (1, 1): each column must be one-dimensional`},
		{"short", writeNPZ(t, zip.Store, npyArray{name: "x", descr: "<f8", shape: "(3,)", data: make([]byte, 16)}), `3 values of 8 bytes do not fit`},
		{"complex", writeNPZ(t, zip.Store, npyArray{name: "x", descr: "<c16", shape: "(1,)", data: make([]byte, 16)}), `unsupported dtype "<c16"`},
		{"empty", writeNPZ(t, zip.Store), "empty NumPy archive"},
		{"not zip", []byte("x,y\n1,2\n"), "not a NumPy archive"},
	} {
		_, err := NewNPZAt(bytes.NewReader(tc.b), int64(len(tc.b)), "t.npz", Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
	b := writeNPZ(t, zip.Store, f8("x", 1, math.Inf(1)))
	z, err := NewNPZAt(bytes.NewReader(b), int64(len(b)), "t.npz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = z.Sample(context.Background(), Query{}, Sampling{})
	if !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), `t.npz: line 2, column "x" (field 1)`) {
		t.Errorf("Inf: got %v", err)
	}
	_, err = z.Sample(context.Background(), Query{Columns: []string{"y"}}, Sampling{})
	if !errors.Is(err, ErrUnknownColumn) {
		t.Errorf("unknown column: got %v", err)
	}
}

// TestNPZSeek checks a sample drawn by seeking: the requested number of
// distinct rows, exact row counts, reproducible for a seed, and uniform:
// each row's inclusion frequency over many samples is m/n within 5
// binomial standard errors.
func TestNPZSeek(t *testing.T) {
	const n, m, reps = 200, 20, 2000
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(i)
	}
	b := writeNPZ(t, zip.Store, f8("x", v...))
	path := filepath.Join(t.TempDir(), "t.npz")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	src, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if _, ok := src.(*NPZ); !ok {
		t.Fatalf("Open returned a %T, not an *NPZ", src)
	}
	hits := make([]int, n)
	var first []float64
	for r := range reps {
		tab, err := src.Sample(context.Background(), Query{}, Sampling{Size: m, Seek: true, Src: rand.NewPCG(uint64(r), 9)})
		if err != nil {
			t.Fatal(err)
		}
		g := tab.Groups[0]
		if !tab.Sampled || g.Rows != n || g.Len() != m || g.RowsStdErr != 0 {
			t.Fatalf("sampled %v, rows %d, kept %d, stderr %v", tab.Sampled, g.Rows, g.Len(), g.RowsStdErr)
		}
		for k, x := range g.Data {
			if k > 0 && x <= g.Data[k-1] || g.Lines[k] != int(x)+1 {
				t.Fatalf("rows not distinct and in order, or lines wrong: %v %v", g.Data, g.Lines)
			}
			hits[int(x)]++
		}
		if r == 0 {
			first = g.Data
		}
	}
	again, _ := src.Sample(context.Background(), Query{}, Sampling{Size: m, Seek: true, Src: rand.NewPCG(0, 9)})
	if !reflect.DeepEqual(again.Groups[0].Data, first) {
		t.Errorf("the same seed drew other rows")
	}
	p := float64(m) / n
	se := math.Sqrt(reps * p * (1 - p))
	for i, h := range hits {
		if math.Abs(float64(h)-reps*p) > 5*se {
			t.Errorf("row %d drawn %d times in %d samples, want %.0f ± %.0f", i, h, reps, reps*p, 5*se)
		}
	}
}

// FuzzNPZ checks that no archive makes the reader panic.
func FuzzNPZ(f *testing.F) {
	f.Add(writeNPZ(f, zip.Store, f8("x", 1, 2, math.NaN()), ustr("s", 2, "a", "", "b")))
	f.Add(writeNPZ(f, zip.Store, npyArray{name: "b", descr: ">i2", shape: "(2,)", data: []byte{0, 1, 255, 255}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		z, err := NewNPZAt(bytes.NewReader(b), int64(len(b)), "f.npz", Options{})
		if err != nil {
			return
		}
		z.Sample(context.Background(), Query{Mixed: true}, Sampling{})
		z.Sample(context.Background(), Query{}, Sampling{Size: 1, Seek: true})
	})
}

// TestNPZDetected checks that the one format detection knows a NumPy
// archive by its name or by its zip magic under another name, that
// Inspect counts its rows from the arrays' headers (not the line ends of
// binary data), and that Open reads it.
func TestNPZDetected(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b := writeNPZ(t, zip.Store, f8("x", 1, 2, 3, 4, 5, 6, 7), f8("y", 7, 6, 5, 4, 3, 2, 1))
	for _, name := range []string{"a.npz", "a.bin"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if info := Inspect(path); info.Format != FormatNPZ || info.Rows != 7 || !info.Exact {
			t.Errorf("Inspect(%s) = %+v, want a NumPy archive of exactly 7 rows", name, info)
		}
		src, err := Open(path, Options{})
		if err != nil {
			t.Fatalf("Open(%s): %v", name, err)
		}
		if _, ok := src.(*NPZ); !ok {
			t.Errorf("Open(%s) = %T, want *NPZ", name, src)
		}
		src.Close()
	}
	if f, _, err := detect("a.npz", []byte("x,y\n")); f != FormatNPZ || err != nil {
		t.Errorf("detect(a.npz) = %v, %v; want the name to say NumPy archive", f, err)
	}
}
