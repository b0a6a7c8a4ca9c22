// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package parallel runs independent pieces of work on a bounded number of
// goroutines. Callers write each result into its own slot, indexed by the
// piece, so that results never depend on scheduling or on GOMAXPROCS.
//
// It is kept rather than golang.org/x/sync/errgroup with SetLimit because
// errgroup reports the first error in time and, through its context,
// cancels the rest at once: which pieces ran, and which error is reported,
// would then depend on scheduling. The callers here keep every piece's
// error in its slot and report the first in index order, the same on any
// number of cores; For serves them in 30 lines without a new dependency.
package parallel

import (
	"context"
	"runtime"
)

// Workers returns w when it is positive and runtime.GOMAXPROCS(0) otherwise.
func Workers(w int) int {
	if w > 0 {
		return w
	}
	return runtime.GOMAXPROCS(0)
}

// For calls f(0), …, f(n−1), each exactly once, on at most workers
// goroutines (fewer when n is smaller; in the calling goroutine when one
// suffices), and returns when all calls have returned.
func For(n, workers int, f func(i int)) {
	ForContext(context.Background(), n, workers, f)
}
