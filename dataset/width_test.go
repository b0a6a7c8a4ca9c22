// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
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

// readNamed reads every column of a wide header by name and returns the
// fastest of three times.
func readNamed(t *testing.T, width int) time.Duration {
	text, names := wideCSV(width)
	best := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		tab, err := NewCSV(strings.NewReader(text), "wide.csv", Options{MaxLine: 4 * len(text)}).Sample(context.Background(), Query{Columns: names}, Sampling{})
		best = min(best, time.Since(start))
		if err != nil {
			t.Fatal(err)
		}
		if len(tab.Columns) != width {
			t.Fatalf("%d columns read, want %d", len(tab.Columns), width)
		}
	}
	return best
}

// TestWideHeaderLinear checks that looking up the columns of a header is
// linear in its width: ten times the columns take about ten times as long
// (a search per name would take a hundred).
func TestWideHeaderLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("times two wide reads")
	}
	small, large := readNamed(t, 10_000), readNamed(t, 100_000)
	t.Logf("10⁴ columns: %v, 10⁵: %v", small, large)
	if ratio := float64(large) / float64(small); ratio > 60 {
		t.Errorf("10⁵ columns took %v, 10⁴ took %v: %.0f times as long, not about 10", large, small, ratio)
	}
}
