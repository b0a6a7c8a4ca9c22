// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import "sync"

// memo computes the value of each key once, however many goroutines ask for
// it and whichever asks first; the others wait for it. A nil memo computes
// every time.
type memo[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]*memoEntry[V]
}

type memoEntry[V any] struct {
	once sync.Once
	val  V
	err  error
}

func newMemo[K comparable, V any]() *memo[K, V] {
	return &memo[K, V]{m: map[K]*memoEntry[V]{}}
}

// get returns the value of key, calling compute the first time.
func (c *memo[K, V]) get(key K, compute func() (V, error)) (V, error) {
	if c == nil {
		return compute()
	}
	c.mu.Lock()
	e, ok := c.m[key]
	if !ok {
		e = &memoEntry[V]{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.val, e.err = compute() })
	return e.val, e.err
}
