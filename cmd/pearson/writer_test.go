// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"strings"
	"testing"
)

// TestCSVRowsMatchHeader: the CSV writer takes its header from the first
// row and refuses a later row (the total among them) with other keys,
// which would put its values under other columns.
func TestCSVRowsMatchHeader(t *testing.T) {
	t.Parallel()
	row := func(keys ...string) *record {
		r := &record{}
		for _, k := range keys {
			r.add(k, 1.0)
		}
		return r
	}
	var b strings.Builder
	ok := &table{rows: []*record{row("a", "b"), row("a", "b")}, total: row("a", "b")}
	if err := (csvWriter{}).table(&b, ok); err != nil || b.String() != "a,b\n1,1\n1,1\n1,1\n" {
		t.Errorf("same keys: %q, %v", b.String(), err)
	}
	for name, bad := range map[string]*table{
		"a new key":  {rows: []*record{row("a", "b"), row("a", "b", "c")}},
		"a total":    {rows: []*record{row("a", "b")}, total: row("b", "a")},
		"a lost key": {rows: []*record{row("a", "b"), row("a")}},
	} {
		if err := (csvWriter{}).table(&b, bad); err == nil || !strings.Contains(err.Error(), "not the header's") {
			t.Errorf("%s: %v, want a refusal", name, err)
		}
	}
}
