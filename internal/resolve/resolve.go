// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package resolve holds the one rule by which pearson's settings structs
// ask for defaults: the zero value of a field means its default. Each
// package resolves its settings once, at its entry points, into plain
// values the code below reads.
package resolve

// OrDefault returns v, or def when v is the zero value.
func OrDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
