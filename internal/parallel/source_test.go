// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parallel

import (
	"math/rand/v2"
	"testing"
)

// TestSourceDetach checks that a Source gives the caller's stream draw for
// draw until Detach, and then leaves the caller's source alone.
func TestSourceDetach(t *testing.T) {
	caller, ref := rand.NewPCG(3, 4), rand.NewPCG(3, 4)
	s := NewSource(caller)
	for i := range 5 {
		if got, want := s.Uint64(), ref.Uint64(); got != want {
			t.Fatalf("draw %d: %d, want the caller's %d", i, got, want)
		}
	}
	s.Detach()
	for range 5 {
		s.Uint64()
	}
	if got, want := caller.Uint64(), ref.Uint64(); got != want {
		t.Errorf("the caller's source moved after Detach: %d, want %d", got, want)
	}
}
