// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package datasettest

import (
	"testing"

	"github.com/parquet-go/parquet-go"
)

func TestWriteParquet(t *testing.T) {
	type row struct {
		X float64 `parquet:"x"`
	}
	rows := []row{{1}, {2}, {3}, {4}, {5}}
	path := WriteParquet(t, "x.parquet", Groups(rows, 2))
	got, err := parquet.ReadFile[row](path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(rows) || got[4] != rows[4] {
		t.Errorf("read %v, wrote %v", got, rows)
	}
	if g := Groups(rows, 2); len(g) != 3 || len(g[2]) != 1 {
		t.Errorf("Groups(5 rows, 2) = %v, want 3 groups, the last of 1 row", g)
	}
}
