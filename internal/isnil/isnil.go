// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package isnil tells whether an interface value holds nothing usable: nil
// itself, or a nil pointer, map, slice, function or channel of a concrete
// type, such as (*mat.Dense)(nil), whose methods would panic. The library's
// entry points use it to refuse such an argument with an error instead.
package isnil

import (
	"context"
	"reflect"
)

// Is reports whether x is nil or holds a nil pointer, map, slice, function,
// channel or interface.
func Is(x any) bool {
	if x == nil {
		return true
	}
	switch v := reflect.ValueOf(x); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// Context panics when ctx is nil, saying that fn was given a nil context.
// A nil context is a programmer's error, which the library reports as the
// context package does, by a panic; but the panic must happen in the
// caller's goroutine, where a recover can catch it, and not later in a
// worker goroutine, where it would end the process. Every exported function
// that takes a context calls Context first.
func Context(ctx context.Context, fn string) {
	if ctx == nil {
		panic(fn + ": nil context (use context.Background())")
	}
}
