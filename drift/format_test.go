// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// mixedTables returns a reference and a current table of n rows: numeric,
// categorical and missing values.
func mixedTables(n int, rnd *rand.Rand) (ref, cur []Column) {
	ref = normalTable(n, 3, nil, rnd)
	cur = normalTable(n/2, 3, map[int]float64{1: 0.5}, rnd)
	ref = append(ref, categoricalColumn("cat", n, []float64{.6, .3, .1}, rnd))
	cur = append(cur, categoricalColumn("cat", n/2, []float64{.5, .3, .1, .1}, rnd))
	for i := 0; i < n; i += 10 {
		ref[0].Values[i] = math.NaN()
		ref[3].Categories[i] = ""
	}
	ref[0].Rows, ref[0].Missing = n, n/10
	ref[3].Rows, ref[3].Missing = n, n/10
	return ref, cur
}

func TestSaveLoad(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(8, 9))
	ref, cur := mixedTables(3000, rnd)
	s := fastSettings(3)
	s.SampleRows = 1000 // the reference is cut down
	direct, err := Compare(context.Background(), ref, cur, s)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReference(ref, s)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.Save(&b); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	s = fastSettings(3)
	s.SampleRows = 1000
	saved, err := loaded.Compare(context.Background(), cur, s)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := summary(direct), summary(saved); a != b {
		t.Errorf("the saved reference gives\n%s\nthe raw one\n%s", b, a)
	}
	if direct.Columns[0].MissingRef != 0.1 || direct.Columns[0].RowsRef != 3000 {
		t.Errorf("missing share %v of %d rows, want 0.1 of 3000", direct.Columns[0].MissingRef, direct.Columns[0].RowsRef)
	}

	// The saved size depends on SampleRows, not on the reference's rows.
	size := func(n int) int {
		ref, _ := mixedTables(n, rnd)
		r, err := NewReference(ref, &Settings{SampleRows: 1000})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := r.Save(&b); err != nil {
			t.Fatal(err)
		}
		return b.Len()
	}
	small, large := size(2000), size(200000)
	// The counts in the metadata grow by a few digits, and the tallies of
	// every row (a count per bin, 1000/20 bins for 1000 sampled values,
	// and the moments) by at most 8 bytes per bin and 200 per column.
	if bound := small + 200 + 4*(8*51+200); large > bound {
		t.Errorf("a reference of 200000 rows takes %d bytes, one of 2000 rows %d, want at most %d", large, small, bound)
	}
	if max := 1000*(3*8+4) + 1000 + 4*(8*51+200); small > max {
		t.Errorf("%d bytes for 1000 rows of 4 columns, want at most %d", small, max)
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(8, 9))
	ref, _ := mixedTables(50, rnd)
	r, err := NewReference(ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.Save(&b); err != nil {
		t.Fatal(err)
	}
	good := b.Bytes()
	for n := range len(good) {
		if _, err := Load(bytes.NewReader(good[:n])); !errors.Is(err, ErrFormat) {
			t.Fatalf("truncated to %d of %d bytes: error %v", n, len(good), err)
		}
	}
	for i := range len(good) {
		bad := bytes.Clone(good)
		bad[i] ^= 0x10
		_, err := Load(bytes.NewReader(bad))
		if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrVersion) {
			t.Fatalf("byte %d flipped: error %v", i, err)
		}
	}
	if _, err := Load(bytes.NewReader(append(bytes.Clone(good), 0))); !errors.Is(err, ErrFormat) {
		t.Errorf("trailing byte: error %v", err)
	}
	newer := bytes.Clone(good)
	binary.LittleEndian.PutUint32(newer[len(Magic):], Version+1)
	if _, err := Load(bytes.NewReader(newer)); !errors.Is(err, ErrVersion) {
		t.Errorf("version %d: error %v", Version+1, err)
	}
	if _, err := Load(bytes.NewReader([]byte("a,b\n1,2\n"))); !errors.Is(err, ErrFormat) {
		t.Errorf("a CSV file: error %v", err)
	}
}
