// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBoundsCatalogue is the catalogue of the runs that issue 27 found
// without a refusal up front or with a misleading message: each case
// asserts the exit code and the words of the message; nothing may reach
// standard output on an error, and no panic trace standard error.
func TestBoundsCatalogue(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := range 40 {
		fmt.Fprintf(&b, "%d,%d\n", i, (i*7)%11)
	}
	good := file("good.csv", b.String())
	pq := func(name string) string { return filepath.Join("..", "..", "testdata", "parquet", name) }
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		text  []string
	}{
		// --exact is refused from the Parquet footers (6500 rows), before a
		// row is read.
		{"pe --exact on a Parquet directory", "", []string{"pe", "--exact", "--columns", "x", pq("parts"), good}, exitUsage, []string{"parts", "6500 rows", "Parquet footer", "leave --exact out"}},
		{"mi --exact on a Parquet file", "", []string{"mi", "--exact", "--x", "id", "--y", "x", pq("snappy.parquet")}, exitUsage, []string{"snappy.parquet", "6500 rows", "Parquet footer"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runStdin(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Fatalf("exit code %d, want %d; stderr %q", code, tc.code, errs)
			}
			if tc.code != exitOK && out != "" {
				t.Errorf("output on an error: %q", out)
			}
			for _, w := range tc.text {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q lacks %q", errs, w)
				}
			}
			if strings.Contains(errs, "goroutine ") || strings.Contains(errs, "panic") {
				t.Errorf("panic on stderr: %s", errs)
			}
		})
	}
}
