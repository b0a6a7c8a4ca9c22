// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/race"
)

// TestRelativePECancelAtLargeK cancels RelativePE at k = 1000 inside its
// cross-validation (fold moments, held-out factorisations) and inside a
// draw (its k×k Gram average, then its factorisation), each a second or
// more of linear algebra without a cancellation point of its own: the call
// must return within about 100 ms of the cancellation, with the context's
// error.
func TestRelativePECancelAtLargeK(t *testing.T) {
	if testing.Short() || race.Enabled {
		t.Skip("seconds of linear algebra: not in -short or race runs")
	}
	t.Parallel()
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
		{"cross-validation", PESettings{Settings: Settings{K: 1000, M: 2000, Draws: 2}}},
		{"draws", PESettings{Settings: Settings{K: 1000, M: 2000, Draws: 2, Lambda: 0.1}, Sigma: 1}},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := RelativePE(ctx, p, q, 0.5, &tc.s)
			done <- err
		}()
		time.Sleep(300 * time.Millisecond)
		cancel()
		start := time.Now()
		err := <-done
		took := time.Since(start)
		t.Logf("%s: returned %v after the cancellation", tc.name, took)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v, want context.Canceled", tc.name, err)
		}
		if took > 100*time.Millisecond {
			t.Errorf("%s: returned %v after the cancellation, want within 100 ms", tc.name, took)
		}
	}
}
