// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package qmin

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/testtier"
)

// cancelWithin is how soon EstimateContext and ExactContext must return
// after a cancellation: about 100 ms, on a loaded machine. The race
// detector slows every step tenfold.
var cancelWithin = map[bool]time.Duration{false: 100 * time.Millisecond, true: time.Second}[testtier.Race]

// blockProblem is a positive definite problem of dimension n whose Restrict
// fills its block cheaply (2 on the diagonal, 1/n off it) and then reports
// on filled, so that a test can cancel while the block is being minimised;
// with hold set, Restrict instead waits on it before returning, as a query
// that never looks at a context.
type blockProblem struct {
	n      int
	filled chan struct{}
	once   sync.Once
	hold   chan struct{}
	done   sync.WaitGroup // Restrict calls under way
}

func (p *blockProblem) Dim() int { return p.n }

func (p *blockProblem) AAt(i, j int) float64 {
	if i == j {
		return 2
	}
	return 1 / float64(p.n)
}

func (p *blockProblem) DAt(int) float64 { return 0 }
func (p *blockProblem) BAt(int) float64 { return 1 }

func (p *blockProblem) Restrict(a *mat.SymDense, d, b []float64, idx []int, _ *rand.Rand) error {
	p.done.Add(1)
	defer p.done.Done()
	restrictEntries(p, a, d, b, idx)
	p.once.Do(func() { close(p.filled) })
	if p.hold != nil {
		<-p.hold
	}
	return nil
}

// TestCancelMidSolve cancels EstimateContext and ExactContext while a draw
// is inside a call that has no cancellation point: a Restrict that does not
// return until released (cheap, always run), and a Cholesky factorisation
// at k = 2000, about a second of work (the long tier, not under the race detector).
// Each must return within cancelWithin with the context's error, and the
// abandoned call, once it ends, must not touch what was returned (the race
// detector watches).
func TestCancelMidSolve(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		hold  bool
		exact bool
	}{
		{"estimate/held-restrict", 50, true, false},
		{"exact/held-restrict", 50, true, true},
		{"estimate/cholesky-2000", 2000, false, false},
		{"exact/cholesky-2000", 2000, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.hold {
				testtier.Long(t, "seconds of factorisation")
				testtier.SkipUnderRace(t)
			}
			p := &blockProblem{n: tc.n, filled: make(chan struct{})}
			if tc.hold {
				p.hold = make(chan struct{})
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type result struct {
				res *Result
				sol Solution
				err error
			}
			done := make(chan result, 1)
			go func() {
				var r result
				if tc.exact {
					r.sol, r.err = ExactContext(ctx, p, nil)
				} else {
					r.res, r.err = EstimateContext(ctx, p, &Settings{K: tc.n, Draws: 3, Workers: 1})
				}
				done <- r
			}()
			<-p.filled
			if !tc.hold {
				// Past the checks of the block (milliseconds), well into
				// its factorisation (seconds).
				time.Sleep(100 * time.Millisecond)
			}
			cancel()
			start := time.Now()
			r := <-done
			took := time.Since(start)
			t.Logf("returned %v after the cancellation", took)
			if !errors.Is(r.err, context.Canceled) || r.res != nil || r.sol.V != nil {
				t.Errorf("got %v, %v, %v; want the context's error alone", r.res, r.sol, r.err)
			}
			if took > cancelWithin {
				t.Errorf("returned %v after the cancellation, want within %v", took, cancelWithin)
			}
			if p.hold != nil {
				close(p.hold)
			}
			p.done.Wait() // the abandoned Restrict ends; nothing else is waiting on it
		})
	}
}
