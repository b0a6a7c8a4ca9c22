// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// machineMemory is the memory a run can get from its machine, and where
// the figure comes from, for the message of a refusal.
type machineMemory struct {
	bytes  float64 // 0 when nothing is known
	source string
}

// limitSources are the figures that bound what the process can get: the
// physical memory, the memory limit of its control group (v2 memory.max or
// v1 memory.limit_in_bytes) and its address-space limit less the address
// space it holds already (RLIMIT_AS, as `ulimit -v` sets it); 0 stands for
// unknown or unlimited.
type limitSources struct {
	physical, cgroup, addressSpace float64
}

// least returns the least of the known figures of l, with its source.
func (l limitSources) least() machineMemory {
	var m machineMemory
	for _, s := range []struct {
		v    float64
		name string
	}{
		{l.physical, "the physical memory"},
		{l.cgroup, "the control group's memory limit"},
		{l.addressSpace, "the address space left under RLIMIT_AS (ulimit -v)"},
	} {
		if s.v > 0 && (m.bytes == 0 || s.v < m.bytes) {
			m = machineMemory{s.v, s.name}
		}
	}
	return m
}

// processMemory returns what this process can get: the least of its
// limitSources as read from /proc, /sys/fs/cgroup and getrlimit.
func processMemory() machineMemory {
	return limitSources{physical: physicalMemory(), cgroup: cgroupLimit(), addressSpace: addressSpaceLeft()}.least()
}

// cgroupLimit returns the memory limit of the process's control group in
// bytes (v2 memory.max, else v1 memory.limit_in_bytes), 0 when there is
// none or it is not known. A v1 group without a limit reports about 2⁶³.
func cgroupLimit() float64 {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return 0
	}
	defer f.Close()
	var files []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			files = append(files, filepath.Join("/sys/fs/cgroup", parts[2], "memory.max"), "/sys/fs/cgroup/memory.max")
		case strings.Contains(","+parts[1]+",", ",memory,"):
			files = append(files, filepath.Join("/sys/fs/cgroup/memory", parts[2], "memory.limit_in_bytes"), "/sys/fs/cgroup/memory/memory.limit_in_bytes")
		}
	}
	least := 0.0
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
		if err != nil || v <= 0 || v >= 1<<62 { // "max", or v1's unlimited
			continue
		}
		if least == 0 || v < least {
			least = v
		}
	}
	return least
}
