// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

// main runs pearson on the process's arguments and streams; an interrupt
// (SIGINT) or SIGTERM cancels the run, which then exits with code 130
// (docs/DESIGN.md §7). The memory budget is also the runtime's soft limit,
// so that the collector keeps the resident size near the live heap; under
// RLIMIT_AS it is at most the address space left (fitAddressSpace).
func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	limit, err := fitAddressSpace(processBudget(os.Args))
	if err != nil {
		fmt.Fprintf(os.Stderr, "pearson: %v\n", err)
		os.Exit(2)
	}
	debug.SetMemoryLimit(int64(limit))
	code := Run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
