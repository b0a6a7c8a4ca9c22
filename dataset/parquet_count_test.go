// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/sublinear/pearson/dataset/datasettest"
)

// pqGroupRow is a row of the file of TestParquetCountKeys: the same
// nullable group column, dictionary-encoded and plain.
type pqGroupRow struct {
	X     float64 `parquet:"x"`
	Dict  *string `parquet:"dict,dict,optional"`
	Plain *string `parquet:"plain,optional"`
}

// TestParquetCountKeys checks countKeys, which counts a unit's group values
// by dictionary index a page at a time and a plain page row by row, against
// a count of the values written: over whole row groups and over rows that
// start and end inside a page, with nulls dropped or refused.
func TestParquetCountKeys(t *testing.T) {
	const groups, rgRows = 3, 1000
	keys := []string{"a", "bb", "c"}
	var rows []pqGroupRow
	for i := range groups * rgRows {
		r := pqGroupRow{X: float64(i)}
		if i%7 != 3 || i < 10 { // nulls, from row 10 on
			k := &keys[(i*i/5)%len(keys)]
			r.Dict, r.Plain = k, k
		}
		rows = append(rows, r)
	}
	var rgs [][]pqGroupRow
	for g := range groups {
		rgs = append(rgs, rows[g*rgRows:(g+1)*rgRows])
	}
	path := datasettest.WriteParquet(t, "g.parquet", rgs, parquet.PageBufferSize(512))
	p, err := OpenParquet(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	o, err := p.shard(p.shards[0])
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, col := range []string{"dict", "plain"} {
		pl, err := p.plan(Query{Columns: []string{"x"}, Group: col, DropMissing: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, span := range [][3]int64{{0, 0, rgRows}, {1, 0, rgRows}, {2, 137, 862}, {1, 5, 6}} {
			g, from, to := int(span[0]), span[1], span[2]
			type count struct{ rows, first int64 }
			want := make(map[string]count)
			for r := from; r < to; r++ {
				if k := rows[int64(g)*rgRows+r].Dict; k != nil {
					c, ok := want[*k]
					if !ok {
						c.first = r
					}
					c.rows++
					want[*k] = c
				}
			}
			got := make(map[string]count)
			err := o.countKeys(ctx, pl, g, from, to, func(k string, rows, first int64) {
				c, ok := got[k]
				if !ok || first < c.first {
					c.first = first
				}
				c.rows += rows
				got[k] = c
			})
			if err != nil {
				t.Fatalf("%s %v: %v", col, span, err)
			}
			if len(got) != len(want) {
				t.Errorf("%s %v: %v, want %v", col, span, got, want)
			}
			for k, c := range want {
				if got[k] != c {
					t.Errorf("%s %v: %q: %v, want %v", col, span, k, got[k], c)
				}
			}
		}
		pl, err = p.plan(Query{Columns: []string{"x"}, Group: col})
		if err != nil {
			t.Fatal(err)
		}
		err = o.countKeys(ctx, pl, 1, 0, rgRows, func(string, int64, int64) {})
		var pe *ParseError
		// Row 4 of row group 1 (0-based; row 1005 of the file) is its
		// first null.
		if !errors.As(err, &pe) || !errors.Is(err, ErrEmptyCell) || pe.Column != col ||
			!strings.Contains(err.Error(), "row 1005 (row group 1, its row 5)") {
			t.Errorf("%s: a null without DropMissing: %v", col, err)
		}
	}
}
