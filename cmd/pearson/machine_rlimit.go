// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build linux || darwin || freebsd

package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// addressSpaceLeft returns RLIMIT_AS less the address space the process
// holds now (from /proc/self/statm where there is one), 0 when there is no
// limit.
func addressSpaceLeft() float64 {
	var rl syscall.Rlimit
	// RLIM_INFINITY is all ones; anything near it is no limit either.
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || uint64(rl.Cur) >= 1<<62 {
		return 0
	}
	held := 0.0
	if b, err := os.ReadFile("/proc/self/statm"); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			if pages, err := strconv.ParseFloat(f[0], 64); err == nil {
				held = pages * float64(os.Getpagesize())
			}
		}
	}
	return max(float64(rl.Cur)-held, 1)
}
