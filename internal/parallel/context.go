// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parallel

import (
	"context"
	"sync"
)

// ForContext is For, stopping early when ctx is done: the indices not yet
// handed to a worker are skipped, so that a loop of a million cheap items
// ends within one item's time of a cancellation. It returns ctx.Err() when
// items were skipped, nil when every f(i) ran.
func ForContext(ctx context.Context, n, workers int, f func(i int)) error {
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			if err := ctx.Err(); err != nil {
				return err
			}
			f(i)
		}
		return nil
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	var err error
loop:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break loop
		}
	}
	close(next)
	wg.Wait()
	return err
}
