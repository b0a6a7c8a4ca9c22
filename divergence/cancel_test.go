// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/testtier"
)

// TestRelativePECancel cancels RelativePE 20 ms into its cross-validation
// (fold moments, held-out factorisations) and into its draws (Gram
// averages, factorisations), at k = 200, and checks that it returns at once
// with the context's error, and that the work abandoned by the
// cancellation, which goes on in the background until its next check of
// the context, then ends (the number of goroutines back to what it was;
// the race detector watches it end after the return). The bound at
// k = 1000–2000, where one such step takes seconds, is checked by qmin's
// TestCancelMidSolve and the command's TestSIGINTAtLargeK. It is not
// parallel: the bound is on the wake-up of the waiting goroutines, which
// other tests' work would compete with.
func TestRelativePECancel(t *testing.T) {
	base := runtime.NumGoroutine()
	k, wait, within := 200, 20*time.Millisecond, 100*time.Millisecond
	if testtier.Race {
		within = time.Second
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	sample := func(n int, shift float64) *mat.Dense {
		x := mat.NewDense(n, 2, nil)
		for i := range n {
			x.Set(i, 0, rnd.NormFloat64()+shift)
			x.Set(i, 1, rnd.NormFloat64())
		}
		return x
	}
	p, q := sample(2000, 0), sample(2000, 0.5)
	for _, tc := range []struct {
		name string
		s    PESettings
	}{
		{"cross-validation", PESettings{Settings: Settings{K: k, M: 2000, Draws: 2}}},
		{"draws", PESettings{Settings: Settings{K: k, M: 2000, Draws: 2000 / k * 2, Lambda: 0.1}, Sigma: 1}},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := RelativePE(ctx, p, q, 0.5, &tc.s)
			done <- err
		}()
		time.Sleep(wait)
		cancel()
		start := time.Now()
		err := <-done
		took := time.Since(start)
		t.Logf("%s: returned %v after the cancellation", tc.name, took)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v, want context.Canceled", tc.name, err)
		}
		if took > within {
			t.Errorf("%s: returned %v after the cancellation, want within %v", tc.name, took, within)
		}
		for start := time.Now(); runtime.NumGoroutine() > base; time.Sleep(10 * time.Millisecond) {
			if time.Since(start) > time.Minute {
				t.Fatalf("%s: %d goroutines a minute after the return, %d before the call", tc.name, runtime.NumGoroutine(), base)
			}
		}
	}
}
