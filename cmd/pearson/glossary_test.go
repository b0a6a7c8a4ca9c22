// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGlossaryNamesEveryKey checks that every key of the JSON goldens (the
// outputs of divergence, test, mi, rank and qmin) is explained in
// docs/cli.md, written as `key`: a key added to an output must be added to
// the page's table "What each key means" too.
func TestGlossaryNamesEveryKey(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	goldens, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*.json"))
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no JSON goldens: %v", err)
	}
	seen := map[string][]string{} // key → the goldens holding it
	for _, name := range goldens {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(strings.NewReader(string(b)))
		for dec.More() {
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, k := range jsonKeys(v) {
				seen[k] = append(seen[k], filepath.Base(name))
			}
		}
	}
	for k, where := range seen {
		if !strings.Contains(string(page), "`"+k+"`") {
			t.Errorf("docs/cli.md does not explain the key %q (in %s): add it to \"What each key means\"", k, strings.Join(slices.Compact(where), ", "))
		}
	}
}

// jsonKeys returns the keys of every object in v, at any depth.
func jsonKeys(v any) []string {
	var keys []string
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			keys = append(keys, k)
			keys = append(keys, jsonKeys(e)...)
		}
	case []any:
		for _, e := range v {
			keys = append(keys, jsonKeys(e)...)
		}
	}
	return keys
}
