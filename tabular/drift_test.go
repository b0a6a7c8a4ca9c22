// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package tabular

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/drift"
)

// scanCounter is a Source that counts the passes Scan makes.
type scanCounter struct {
	dataset.Source
	scans int
}

func (s *scanCounter) Scan(ctx context.Context, q dataset.Query, fn dataset.RowFunc) (*dataset.Table, error) {
	s.scans++
	return s.Source.Scan(ctx, q, fn)
}

// driftTable writes a mixed table of n rows: numbers with missing cells,
// integers, text with quoted delimiters and missing labels, a column empty
// in every row, and, with groups, a group column of two values.
func driftTable(rnd *rand.Rand, n int, shift float64, groups bool) string {
	var b strings.Builder
	if groups {
		b.WriteString("g,")
	}
	b.WriteString("a,p,c,e\n")
	labels := []string{"north", "south", "east", `"a,b"`, `"say ""hi"""`}
	for i := range n {
		if groups {
			b.WriteString([]string{"ref,", "cur,"}[rnd.IntN(2)])
		}
		if rnd.IntN(50) > 0 {
			fmt.Fprintf(&b, "%.5f", rnd.NormFloat64()+shift)
		}
		fmt.Fprintf(&b, ",%d,", rnd.IntN(7))
		if rnd.IntN(30) > 0 {
			b.WriteString(labels[min(len(labels)-1, int(rnd.ExpFloat64()*(1+shift)))])
		}
		b.WriteString([]string{",\n", ",  \n"}[i%2])
	}
	return b.String()
}

// TestReadDriftKeep checks that the tallies counted from the values kept
// by the read that draws the sample (DriftRead.Keep) are those of the
// second pass, field for field: for a reference, a current table counted
// like it, one file of two groups and a compressed file, with no second
// pass; past the bound the values are dropped and the second pass counts
// them; and a stream, which cannot be read twice, gets every row's
// tallies from the values kept instead of its note.
func TestReadDriftKeep(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(4, 2))
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		data := []byte(text)
		if strings.HasSuffix(name, ".gz") {
			var z bytes.Buffer
			w := gzip.NewWriter(&z)
			w.Write(data)
			w.Close()
			data = z.Bytes()
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	ref := write("ref.csv", driftTable(rnd, 9000, 0, false)) // two chunks of kept values
	curText := driftTable(rnd, 2500, 0.2, false)
	cur, curGz := write("cur.csv", curText), write("cur.csv.gz", curText)
	grp := write("grp.csv", driftTable(rnd, 4000, 0, true))

	plenty := func(int) int64 { return 1 << 30 }
	read := func(src dataset.Source, r DriftRead, keep func(int) int64) (*DriftTable, int) {
		t.Helper()
		sc := &scanCounter{Source: src}
		r.Sampling = dataset.Sampling{Size: 400, Src: rand.NewPCG(1, 0x72657365727665), Seek: true}
		r.Keep = keep
		d, err := ReadDrift(ctx, sc, r)
		if err != nil {
			t.Fatal(err)
		}
		return d, sc.scans
	}
	open := func(path string) dataset.Source {
		src, err := dataset.Open(path, dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { src.Close() })
		return src
	}
	same := func(what string, got, want *DriftTable, g int) {
		t.Helper()
		if got.Note != want.Note {
			t.Errorf("%s: note %q, want %q", what, got.Note, want.Note)
		}
		gc, wc := got.Columns(g), want.Columns(g)
		for i := range wc {
			if gc[i].Whole == nil || gc[i].Rows != wc[i].Rows || gc[i].Missing != wc[i].Missing || !reflect.DeepEqual(gc[i].Whole, wc[i].Whole) {
				t.Errorf("%s: column %s: tally %+v (rows %d, missing %d), want the second pass's %+v (%d, %d)",
					what, wc[i].Name, gc[i].Whole, gc[i].Rows, gc[i].Missing, wc[i].Whole, wc[i].Rows, wc[i].Missing)
			}
		}
	}

	twoPass, scans := read(open(ref), DriftRead{}, nil)
	if scans != 1 || twoPass.Note != "" {
		t.Fatalf("reference without Keep: %d second passes, note %q; want 1 and none", scans, twoPass.Note)
	}
	kept, scans := read(open(ref), DriftRead{}, plenty)
	if scans != 0 {
		t.Errorf("reference with Keep: %d second passes, want none", scans)
	}
	same("reference", kept, twoPass, 0)
	tight, scans := read(open(ref), DriftRead{}, func(int) int64 { return 8*keptChunk + 1 }) // the second chunk passes it
	if scans != 1 {
		t.Errorf("reference past Keep's bound: %d second passes, want 1", scans)
	}
	same("reference past the bound", tight, twoPass, 0)

	refCols := twoPass.Columns(0)
	like := func(name string) *drift.Tally {
		for _, c := range refCols {
			if c.Name == name {
				return c.Whole
			}
		}
		return nil
	}
	curTwo, _ := read(open(cur), DriftRead{Like: like}, nil)
	for _, path := range []string{cur, curGz} {
		got, scans := read(open(path), DriftRead{Like: like}, plenty)
		if scans != 0 {
			t.Errorf("%s with Keep: %d second passes, want none", filepath.Base(path), scans)
		}
		same(filepath.Base(path), got, curTwo, 0)
	}

	first := func(*dataset.Table) (int, error) { return 1, nil }
	grpTwo, _ := read(open(grp), DriftRead{Query: dataset.Query{Group: "g"}, Reference: first}, nil)
	grpKept, scans := read(open(grp), DriftRead{Query: dataset.Query{Group: "g"}, Reference: first}, plenty)
	if scans != 0 {
		t.Errorf("two groups with Keep: %d second passes, want none", scans)
	}
	for g := range 2 {
		same(fmt.Sprintf("group %d", g), grpKept, grpTwo, g)
	}

	stream := func() dataset.Source {
		return dataset.NewCSV(struct{ io.Reader }{strings.NewReader(curText)}, "-", dataset.Options{})
	}
	if got, _ := read(stream(), DriftRead{Like: like}, nil); got.Note != noteReread || got.Columns(0)[0].Whole != nil {
		t.Errorf("stream without Keep: note %q, want %q and no tallies", got.Note, noteReread)
	}
	got, _ := read(stream(), DriftRead{Like: like}, plenty)
	same("stream", got, curTwo, 0)
}
