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
	if err := (cost{need: 2 << 30, lower: "--k"}).refuse(m); err != nil {
		t.Errorf("a run within the limit: %v", err)
	}
	err := cost{need: 7.3 * (1 << 30), lower: "--k"}.refuse(m)
	if err == nil || !strings.Contains(err.Error(), "7.3 GiB") || !strings.Contains(err.Error(), "3.0 GiB") || !strings.Contains(err.Error(), "RLIMIT_AS") || !strings.Contains(err.Error(), "lower --k") {
		t.Errorf("a run beyond the limit: %v", err)
	}
	if err := (cost{need: 1e12}).refuse(machineMemory{}); err != nil {
		t.Errorf("nothing known refuses: %v", err)
	}
	// The budget and the machine: whichever binds first is named.
	for _, c := range []struct {
		c    cost
		m    machineMemory
		want string // "" for none
	}{
		{cost{need: 5 << 30, budget: 4 << 30}, m, "RLIMIT_AS"},
		{cost{need: 2.5 * (1 << 30), budget: 2 << 30}, m, "the budget of 2.0 GiB: raise --max-memory"},
		{cost{need: 2.5 * (1 << 30), budget: 4 << 30}, m, ""},
		{cost{need: 1 << 30, budget: 2 << 30, what: "--window 9", also: "score it as a stream"}, machineMemory{1 << 29, "x"}, "--window 9 would need about 1.0 GiB of memory, more than the 512 MiB that this process can get (x): run it where more memory is available, or score it as a stream"},
	} {
		err := c.c.refuse(c.m)
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v on %+v: %v, want %q", c.c, c.m, err, c.want)
		}
	}
}
