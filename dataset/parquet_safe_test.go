// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestParquetRLERuns reads a file that FuzzParquet found: mixed.parquet
// with one byte of a dictionary-encoded page set to 0xff, so that a run of
// its dictionary indexes claims far more values than the page holds; the
// library's RLE decoder allocated 7.0 GB for the 31 KB file. The check
// that must refuse it is run first on its own (it decodes nothing, so that
// a regression fails here instead of allocating 7 GB), and only then the
// reads.
func TestParquetRLERuns(t *testing.T) {
	lowerLimits(t)
	orig, err := os.ReadFile(pqPath("mixed.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	data := applyEdits(orig, []byte("02.a\xff"))
	p, err := NewParquetAt(bytes.NewReader(data), int64(len(data)), "f.parquet", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	o, err := p.openShard(p.shards[0])
	if err != nil {
		t.Fatal(err)
	}
	var refused error
	for g, rows := range o.shard.rgRows {
		for i := range o.shard.fields {
			f := &o.shard.fields[i]
			if f.leaf < 0 {
				continue
			}
			c := pqCol{name: f.name, index: f.index, leaf: f.leaf, typ: fieldType(f), opt: f.optional()}
			if err := o.checkChunk(g, &c, 0, rows, false); err != nil {
				if refused != nil {
					t.Errorf("a second chunk refused: %v", err)
				}
				refused = err
			}
		}
	}
	switch {
	case refused == nil:
		t.Fatal("no chunk refused: the library would allocate 7 GB")
	case !errors.Is(refused, ErrCorrupt) || !strings.HasPrefix(refused.Error(), `dataset: f.parquet: column "level" (field 4): row group 1: page at byte `) ||
		!strings.Contains(refused.Error(), "dictionary indexes: a bit-packed run of"):
		t.Fatalf("error %v, want a corrupt page whose dictionary indexes claim too many values", refused)
	}
	t.Log(refused)
	readMutated(t, data, 0)
	_, err = p.Scan(context.Background(), Query{DropMissing: true}, func(string, int, []float64) error { return nil })
	if !errors.Is(err, ErrCorrupt) || err.Error() != refused.Error() {
		t.Errorf("Scan: %v, want %v", err, refused)
	}
}
