// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build linux || darwin || freebsd

package main

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
)

// addressSpaceLeft returns RLIMIT_AS less the address space the process
// holds now (from /proc/self/statm where there is one) and less the
// address space that the threads still to come will take
// (threadAddressSpace), 0 when there is no limit.
func addressSpaceLeft() float64 {
	limit := addressSpaceLimit()
	if limit == 0 {
		return 0
	}
	return max(limit-addressSpaceHeld()-threadAddressSpace(), 1)
}

// addressSpaceHeld returns the address space the process holds (from
// /proc/self/statm), 0 where it is not known.
func addressSpaceHeld() float64 {
	if b, err := os.ReadFile("/proc/self/statm"); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			if pages, err := strconv.ParseFloat(f[0], 64); err == nil {
				return pages * float64(os.Getpagesize())
			}
		}
	}
	return 0
}

// addressSpaceLimit returns RLIMIT_AS, 0 when there is none.
func addressSpaceLimit() float64 {
	var rl syscall.Rlimit
	// RLIM_INFINITY is all ones; anything near it is no limit either.
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || uint64(rl.Cur) >= 1<<62 {
		return 0
	}
	return float64(rl.Cur)
}

// threadAddressSpace returns the address space that the threads a run may
// still start and the runtime's own structures (spans, stacks, buffers,
// 32 MiB) will take: in a binary linked with cgo, a thread is a pthread
// with a stack of 8 MiB, for each of GOMAXPROCS+3 threads (the Ps', the
// system monitor's, the template thread's, one in a system call); a pure
// Go binary's threads take a few KiB of its heap. (The malloc arenas of
// glibc, 64 MiB each, are reserved by the threads already started, or
// shared when the limit refuses a new one.)
func threadAddressSpace() float64 {
	const runtimeOwn = 32 << 20
	if !cgoBinary() {
		return runtimeOwn
	}
	return runtimeOwn + float64(runtime.GOMAXPROCS(0)+3)*(8<<20)
}

// cgoBinary reports whether the binary was built with cgo (the default of
// `go build` where a C compiler is found; the Python package's build
// sets CGO_ENABLED=0).
func cgoBinary() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "CGO_ENABLED" {
			return s.Value == "1"
		}
	}
	return false
}

// tightAddressSpace is the address space left under RLIMIT_AS below which
// fitAddressSpace runs on one P, and minAddressSpace the least with which
// a run starts at all.
const (
	tightAddressSpace = 1 << 30
	minAddressSpace   = 64 << 20
)

// fitAddressSpace adapts the runtime to RLIMIT_AS (ulimit -v), as main
// starts: under a limit that leaves less than tightAddressSpace, it runs
// on one P (GOMAXPROCS 1: fewer threads, each of which takes 8 MiB of
// stack and up to 64 MiB of malloc arena in a binary linked with cgo;
// results do not depend on it), and it returns the soft memory limit of the runtime, the least of
// budget and the address space left, so that the collector runs before
// the heap reaches the limit. A limit that leaves less than
// minAddressSpace is refused: the run would end in the runtime's trace
// (a thread or a span it cannot map) whatever it does. The Go runtime
// reserves about 1.1 GiB of address space before main (the page
// allocator's summaries, 585 MiB, and its scavenger's index, 512 MiB),
// more in a binary linked with cgo, which no code of main can give back.
func fitAddressSpace(budget float64) (float64, error) {
	left := addressSpaceLeft()
	if left == 0 {
		return budget, nil
	}
	if left < tightAddressSpace && runtime.GOMAXPROCS(0) > 1 {
		runtime.GOMAXPROCS(1)
		left = addressSpaceLeft()
	}
	if left < minAddressSpace {
		limit, held, threads := addressSpaceLimit(), addressSpaceHeld(), threadAddressSpace()
		need := held + threads + minAddressSpace
		return budget, fmt.Errorf("this process holds %s of address space as it starts, of the %s that RLIMIT_AS allows (ulimit -v %d), "+
			"and needs %s more for its threads and the runtime and %s for the least run: "+
			"the Go runtime reserves about 1.1 GiB of address space before main, a binary built with cgo a malloc arena of 64 MiB for each thread more; "+
			"run it with ulimit -v %d or more", formatSize(held), formatSize(limit), int64(limit)>>10, formatSize(threads), formatSize(minAddressSpace),
			int64(math.Ceil(need/(64<<20))*(64<<20))>>10)
	}
	return min(budget, left), nil
}
