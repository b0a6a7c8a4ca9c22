// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parallel

import (
	"sync/atomic"
	"testing"
)

func TestForCallsEachIndexOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 7, 100} {
		for _, n := range []int{0, 1, 5, 64} {
			counts := make([]int32, n)
			var running, peak atomic.Int32
			For(n, workers, func(i int) {
				r := running.Add(1)
				for {
					p := peak.Load()
					if r <= p || peak.CompareAndSwap(p, r) {
						break
					}
				}
				atomic.AddInt32(&counts[i], 1)
				running.Add(-1)
			})
			for i, c := range counts {
				if c != 1 {
					t.Errorf("workers=%d n=%d: f(%d) called %d times", workers, n, i, c)
				}
			}
			if p := int(peak.Load()); p > workers {
				t.Errorf("workers=%d n=%d: %d calls ran at once", workers, n, p)
			}
		}
	}
}

func TestWorkers(t *testing.T) {
	if Workers(3) != 3 {
		t.Error("Workers(3) != 3")
	}
	if Workers(0) < 1 {
		t.Error("Workers(0) < 1")
	}
}
