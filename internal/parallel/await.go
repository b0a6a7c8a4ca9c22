// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parallel

import "context"

// Await returns f's result, or ctx.Err() as soon as ctx is done, whichever
// comes first: it makes a call that has no cancellation point of its own (a
// k×k factorisation or eigendecomposition in a library, seconds of work at
// k in the thousands) end within microseconds of a cancellation for its
// caller.
//
// f runs in a new goroutine. When ctx is done first, Await returns at once
// and f runs on to its end in the background, where its result is dropped;
// it is not stopped, so f should look at ctx itself between its steps to cut
// that waste short. Because f may still be running after Await returned, f
// must write nothing that the caller reads or writes afterwards: only its
// own variables and values it allocates, handed back as its result. Reading
// shared data that nobody changes is fine.
//
// When ctx can never be done (context.Background) f runs in the calling
// goroutine; when ctx is already done f does not run.
func Await[T any](ctx context.Context, f func() (T, error)) (T, error) {
	var zero T
	if ctx.Done() == nil {
		return f()
	}
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	type result struct {
		v   T
		err error
	}
	// Buffered, so that an abandoned f can deliver its result and end.
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}
