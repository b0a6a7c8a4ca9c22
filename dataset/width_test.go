// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// wideCSV returns a header of width columns c0, c1, … and one row.
func wideCSV(width int) (string, []string) {
	names := make([]string, width)
	vals := make([]string, width)
	for i := range names {
		names[i] = fmt.Sprint("c", i)
		vals[i] = "1"
	}
	return strings.Join(names, ",") + "\n" + strings.Join(vals, ",") + "\n", names
}

// readNamed reads every column of a wide header by name.
func readNamed(tb testing.TB, width int, text string, names []string) {
	tab, err := NewCSV(strings.NewReader(text), "wide.csv", Options{MaxLine: 4 * len(text)}).Sample(context.Background(), Query{Columns: names}, Sampling{})
	if err != nil {
		tb.Fatal(err)
	}
	if len(tab.Columns) != width {
		tb.Fatalf("%d columns read, want %d", len(tab.Columns), width)
	}
	for j, c := range tab.Columns {
		if c != names[j] {
			tb.Fatalf("column %d is %q, want %q", j, c, names[j])
		}
	}
}

// TestWideHeader reads all 10⁵ columns of a header by name, in order. That
// the lookup is linear in the width (ten times the columns, about ten times
// the time; a search per name would take a hundred) is measured by
// BenchmarkWideHeader, not asserted here: timings do not belong in a
// pass/fail test.
func TestWideHeader(t *testing.T) {
	text, names := wideCSV(100_000)
	readNamed(t, 100_000, text, names)
}

// BenchmarkWideHeader reads every column of a header of 10⁴ and 10⁵
// columns by name: the two times differ by about 10, not 100.
func BenchmarkWideHeader(b *testing.B) {
	for _, width := range []int{10_000, 100_000} {
		b.Run(fmt.Sprint(width), func(b *testing.B) {
			text, names := wideCSV(width)
			for b.Loop() {
				readNamed(b, width, text, names)
			}
		})
	}
}
