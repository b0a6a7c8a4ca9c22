// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"errors"
	"math"
	"testing"

	"github.com/sublinear/pearson/divergence"
)

// TestSettingsValidate: Validate reports drift's own fields and the
// estimator's, as NewReference and Compare do on data.
func TestSettingsValidate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s     Settings
		field string
	}{
		{Settings{}, ""},
		{Settings{Level: 1}, "Level"},
		{Settings{Permutations: -1}, "Permutations"},
		{Settings{Settings: divergence.Settings{K: -1}}, "K"},
		{Settings{Settings: divergence.Settings{Folds: 1}}, "Folds"},
	} {
		err := c.s.Validate()
		var se *SettingsError
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%+v: %v", c.s, err)
		case c.field != "" && (!errors.As(err, &se) || se.Field != c.field || !errors.Is(err, ErrSettings)):
			t.Errorf("%+v: %v, want a SettingsError on %s", c.s, err, c.field)
		}
		if c.field != "" {
			// Compare says the same on data.
			v := make([]float64, 40)
			for i := range v {
				v[i] = float64(i % 7)
			}
			_, cerr := Compare(t.Context(), []Column{{Name: "x", Values: v}}, []Column{{Name: "x", Values: v}}, &c.s)
			if !errors.Is(cerr, ErrSettings) {
				t.Errorf("%+v: Compare: %v, want ErrSettings", c.s, cerr)
			}
		}
	}
}

// TestMemoryJoint: the joint row's mean part holds d×d matrices, so the
// bound grows as d² (four 8-byte words each) and NoJoint removes it; bad
// settings give +Inf.
func TestMemoryJoint(t *testing.T) {
	t.Parallel()
	s := &Settings{}
	small, large := s.Memory(300, 300, 100, 100), s.Memory(300, 300, 10_000, 10_000)
	if large < 4*8*1e8 || large < 100*small {
		t.Errorf("10⁴ columns: %.3g bytes, 100 columns %.3g: want at least 3.2e9, growing as d²", large, small)
	}
	no := (&Settings{NoJoint: true}).Memory(300, 300, 10_000, 10_000)
	if no >= large-4*8*1e8 {
		t.Errorf("NoJoint: %.3g bytes, with the joint row %.3g", no, large)
	}
	if v := (&Settings{Level: 2}).Memory(300, 300, 1, 1); !math.IsInf(v, 1) {
		t.Errorf("bad settings: %g, want +Inf", v)
	}
}
