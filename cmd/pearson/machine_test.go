// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"strings"
	"testing"
)

// TestLimitSources checks that the least known figure bounds a run, with
// its source named, and that a run within it passes.
func TestLimitSources(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		l      limitSources
		bytes  float64
		source string
	}{
		{limitSources{}, 0, ""},
		{limitSources{physical: 8 << 30}, 8 << 30, "physical"},
		{limitSources{physical: 8 << 30, cgroup: 2 << 30}, 2 << 30, "control group"},
		{limitSources{physical: 8 << 30, cgroup: 2 << 30, addressSpace: 1 << 30}, 1 << 30, "RLIMIT_AS"},
		{limitSources{cgroup: 3 << 30, addressSpace: 5 << 30}, 3 << 30, "control group"},
	} {
		m := c.l.least()
		if m.bytes != c.bytes || !strings.Contains(m.source, c.source) {
			t.Errorf("%+v: least = %+v, want %v from %q", c.l, m, c.bytes, c.source)
		}
	}
	m := machineMemory{3 << 30, "the address space left under RLIMIT_AS (ulimit -v)"}
	if err := checkMachine(2<<30, "", m, "--k"); err != nil {
		t.Errorf("a run within the limit: %v", err)
	}
	err := checkMachine(7.3*(1<<30), "", m, "--k")
	if err == nil || !strings.Contains(err.Error(), "7.3 GiB") || !strings.Contains(err.Error(), "3.0 GiB") || !strings.Contains(err.Error(), "RLIMIT_AS") || !strings.Contains(err.Error(), "lower --k") {
		t.Errorf("a run beyond the limit: %v", err)
	}
	if err := checkMachine(1e12, "", machineMemory{}, ""); err != nil {
		t.Errorf("nothing known refuses: %v", err)
	}
}
