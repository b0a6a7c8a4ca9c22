// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/progress"
)

// mi --exact solves the all-centre model of every row: its time grows
// about as n³·⁵ (1.2 s of CPU at 500 rows, 14 s at 1000), some 25 minutes
// at divergence.MaxExact = 5000 rows, with nothing to report on the way.
// Above clockRows rows, exactClock times the same solution on the first
// clockRows/4 and clockRows/2 rows, extrapolates to every row, says the
// estimate on standard error and then shows the time left: a bar when
// progress bars are on, a line a minute otherwise.
const clockRows = 1000

// exactClock starts the clock of an exact LSMI of x and y with settings
// ls, when it is long enough to need one; stop ends it. It fails only when
// ctx is cancelled during the timing.
func exactClock(ctx context.Context, w io.Writer, prog *progress.Bars, x, y mat.Matrix, ls divergence.LSMISettings) (stop func(), err error) {
	n, _ := x.Dims()
	if n <= clockRows {
		return func() {}, nil
	}
	ls.Progress = nil
	var t [2]float64
	for i, m := range []int{clockRows / 4, clockRows / 2} {
		start := time.Now()
		if _, err := divergence.LSMI(ctx, firstRows(x, m), firstRows(y, m), &ls); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return func() {}, nil // the run itself will say what is wrong
		}
		t[i] = time.Since(start).Seconds()
	}
	// The growth measured, between n³ and n⁴ (timing noise aside).
	e := math.Min(4, math.Max(3, math.Log2(t[1]/t[0])))
	eta := time.Duration(t[1] * math.Pow(float64(n)/float64(clockRows/2), e) * float64(time.Second))
	fmt.Fprintf(w, "pearson: --exact: the all-centre solution of %d rows takes about %v here (timed on %d and %d rows, growing as n^%.1f)\n",
		n, eta.Round(time.Second), clockRows/4, clockRows/2, e)
	return tick(w, prog, eta), nil
}

// tick shows the time spent of an estimated total until stop is called.
func tick(w io.Writer, prog *progress.Bars, total time.Duration) (stop func()) {
	start := time.Now()
	every := time.Minute
	set, done := prog.Steps("exact solution (seconds, estimated)")
	if set != nil {
		every = time.Second
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tk := time.NewTicker(every)
		defer tk.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tk.C:
				spent := time.Since(start)
				if set != nil {
					set(min(int(spent.Seconds()), int(total.Seconds())), int(total.Seconds()))
					continue
				}
				fmt.Fprintf(w, "pearson: --exact: %v of about %v\n", spent.Round(time.Second), total.Round(time.Second))
			}
		}
	}()
	return func() {
		close(quit)
		wg.Wait()
		done()
	}
}

// firstRows returns the first n rows of x.
func firstRows(x mat.Matrix, n int) mat.Matrix {
	_, c := x.Dims()
	d := mat.NewDense(n, c, nil)
	for i := range n {
		for j := range c {
			d.Set(i, j, x.At(i, j))
		}
	}
	return d
}
