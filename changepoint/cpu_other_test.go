// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !unix

package changepoint_test

// cpuSeconds returns 0: the process's CPU time is read on Unix only.
func cpuSeconds() float64 { return 0 }
