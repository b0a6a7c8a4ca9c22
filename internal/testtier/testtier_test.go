// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package testtier

import "testing"

func TestEnabled(t *testing.T) {
	for _, c := range []struct {
		value string
		want  bool
	}{{"", false}, {"0", false}, {"1", true}, {"yes", true}} {
		t.Setenv(Env, c.value)
		if got := Enabled(); got != c.want {
			t.Errorf("%s=%q: Enabled() = %v, want %v", Env, c.value, got, c.want)
		}
		if got, want := Pick(1, 2), map[bool]int{false: 1, true: 2}[c.want]; got != want {
			t.Errorf("%s=%q: Pick(1, 2) = %d, want %d", Env, c.value, got, want)
		}
	}
}

func TestLongSkips(t *testing.T) {
	t.Setenv(Env, "")
	ran := false
	t.Run("long", func(t *testing.T) {
		Long(t, "a study")
		ran = true
	})
	if ran {
		t.Error("Long did not skip with the long tier off")
	}
}

// TestCount checks the names of sub-benchmarks' sizes.
func TestCount(t *testing.T) {
	for n, want := range map[int]string{1: "1", 10: "1e1", 1000000: "1e6", 1000000000: "1e9", 20: "20", 1001: "1001", 32800: "32800"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
