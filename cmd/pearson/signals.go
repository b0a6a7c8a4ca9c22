// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"io"
	"strings"
	"sync"
)

// ctxReader is a reader whose Read returns ctx's error once ctx is
// cancelled, even while the underlying Read blocks (a terminal, a pipe
// whose writer is idle): the blocked read goes on in its goroutine, and its
// data are dropped. Reads are passed on one at a time, in order.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
	mu  sync.Mutex
	res chan readResult
}

type readResult struct {
	n   int
	err error
	buf []byte
}

// newCtxReader returns r, read through a ctxReader when ctx can be
// cancelled.
func newCtxReader(ctx context.Context, r io.Reader) io.Reader {
	if r == nil || ctx.Done() == nil {
		return r
	}
	return &ctxReader{ctx: ctx, r: r}
}

func (c *ctxReader) Read(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if c.res == nil {
		c.res = make(chan readResult, 1)
	}
	// The goroutine reads into its own buffer, so that p is not written
	// after Read returned on a cancellation.
	buf := make([]byte, len(p))
	go func() {
		n, err := c.r.Read(buf)
		c.res <- readResult{n, err, buf}
	}()
	select {
	case r := <-c.res:
		copy(p, r.buf[:r.n])
		return r.n, r.err
	case <-c.ctx.Done():
		return 0, c.ctx.Err()
	}
}

// processBudget is the memory budget of the process run with args: its
// --max-memory (as --max-memory SIZE or --max-memory=SIZE), or the default.
// It only informs the runtime's soft limit: Run reads and checks the flag.
func processBudget(args []string) float64 {
	for i, a := range args {
		v, ok := "", false
		switch {
		case a == "--max-memory" || a == "-max-memory":
			if i+1 < len(args) {
				v, ok = args[i+1], true
			}
		case strings.HasPrefix(a, "--max-memory="), strings.HasPrefix(a, "-max-memory="):
			_, v, ok = strings.Cut(a, "=")
		}
		if ok {
			if b, err := parseSize(v); err == nil {
				return b
			}
		}
	}
	return defaultMemoryBudget()
}
