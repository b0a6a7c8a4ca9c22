// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestSegmentLimit: the segmentation's soft memory limit is the model's
// need less the program's file pages and the overshoot, only below a limit
// in force (main's budget), and restored after; a process without a limit
// (tests calling Run) keeps none. Huge limits only: other tests share the
// heap.
func TestSegmentLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	debug.SetMemoryLimit(math.MaxInt64)
	segmentLimit(1<<40, 10)()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("no limit in force: %d after", got)
	}
	const budget, need, values = 1 << 42, 1 << 41, 1000
	debug.SetMemoryLimit(budget)
	restore := segmentLimit(need, values)
	got := float64(debug.SetMemoryLimit(-1))
	want := need - fileResident() - segmentOvershoot*8*values
	if math.Abs(got-want) > 1<<20 || !(got < need) {
		t.Errorf("limit %g, want %g (need %d)", got, want, need)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != budget {
		t.Errorf("restored %d, want %d", got, budget)
	}
	if segmentLimit(budget*2, values)(); debug.SetMemoryLimit(-1) != budget {
		t.Error("a need above the limit in force changed it")
	}
}
