// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package misuse holds no code: its test calls every exported entry point of
// pearson's library packages with the arguments a careless or hostile caller
// gives (nil, a typed nil, a cancelled or nil context, no rows, NaN, huge
// sizes) and checks that each is an error, except the panics the functions
// document, which must happen in the caller's goroutine.
package misuse
