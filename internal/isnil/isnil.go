// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package isnil tells whether an interface value holds nothing usable: nil
// itself, or a nil pointer, map, slice, function or channel of a concrete
// type, such as (*mat.Dense)(nil), whose methods would panic. The library's
// entry points use it to refuse such an argument with an error instead.
package isnil

import "reflect"

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
