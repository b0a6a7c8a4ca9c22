// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parallel

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

func TestForContext(t *testing.T) {
	for _, workers := range []int{1, 4} {
		var ran atomic.Int64
		if err := ForContext(context.Background(), 1000, workers, func(int) { ran.Add(1) }); err != nil || ran.Load() != 1000 {
			t.Errorf("workers %d: %d items ran, error %v; want all, nil", workers, ran.Load(), err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		ran.Store(0)
		err := ForContext(ctx, 1_000_000, workers, func(i int) {
			if ran.Add(1) == 10 {
				cancel()
			}
		})
		if !errors.Is(err, context.Canceled) || ran.Load() > 100 {
			t.Errorf("workers %d, cancelled at the 10th item: %d items ran, error %v", workers, ran.Load(), err)
		}
	}
}
