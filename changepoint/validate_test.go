// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"errors"
	"testing"
)

// TestValidateResolved: Validate refuses what NewDetector and Segment
// refuse, without data; Resolved fills in the defaults the detector runs
// (MinDistance the window), and StreamMemory grows with the columns.
func TestValidateResolved(t *testing.T) {
	t.Parallel()
	for _, s := range []Settings{{Window: 1}, {Embed: -1}, {K: -1}, {Step: -1}} {
		_, derr := NewDetector(1, 0.1, &s)
		if err := s.Validate(0.1); !errors.Is(err, ErrSettings) || err.Error() != derr.Error() {
			t.Errorf("%+v: Validate %v, NewDetector %v", s, err, derr)
		}
	}
	if err := (&Settings{}).Validate(1); !errors.Is(err, ErrSettings) {
		t.Errorf("α = 1: %v", err)
	}
	if err := (*Settings)(nil).Validate(0.1); err != nil {
		t.Errorf("defaults: %v", err)
	}
	if err := (&SegmentSettings{Embed: -1}).Validate(0.1); !errors.Is(err, ErrSettings) {
		t.Errorf("segment: %v", err)
	}
	r := (&Settings{Window: 80}).Resolved()
	if r.Window != 80 || r.Embed != DefaultEmbed || r.Step != 1 || r.K != DefaultK || r.MinDistance != 80 || r.Threshold != DefaultThreshold {
		t.Errorf("resolved %+v", r)
	}
	one, ten := (&Settings{}).StreamMemory(1), (&Settings{}).StreamMemory(10)
	if !(one > 0 && ten > one) {
		t.Errorf("stream memory: %g for one column, %g for ten", one, ten)
	}
}
