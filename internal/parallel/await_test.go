// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parallel

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestAwait(t *testing.T) {
	// Finished first: f's own result and error.
	want := errors.New("f's error")
	for _, ctx := range []context.Context{context.Background(), t.Context()} {
		v, err := Await(ctx, func() (int, error) { return 7, want })
		if v != 7 || err != want {
			t.Errorf("Await = %v, %v; want 7, %v", v, err, want)
		}
	}

	// Cancelled first: ctx's error at once, while f is still blocked; f
	// then ends in the background and its result is dropped.
	ctx, cancel := context.WithCancel(context.Background())
	release, ended := make(chan struct{}), make(chan struct{})
	go func() {
		time.Sleep(10 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	v, err := Await(ctx, func() ([]float64, error) {
		<-release
		defer close(ended)
		return []float64{1}, nil
	})
	if took := time.Since(start); v != nil || !errors.Is(err, context.Canceled) || took > 5*time.Second {
		t.Errorf("cancelled: %v, %v after %v; want nil, context.Canceled at once", v, err, took)
	}
	close(release)
	<-ended

	// Already done: f does not run.
	ran := false
	if _, err := Await(ctx, func() (int, error) { ran = true; return 0, nil }); ran || !errors.Is(err, context.Canceled) {
		t.Errorf("done before the call: f ran %v, error %v", ran, err)
	}
}
