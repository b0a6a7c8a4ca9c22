// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !(linux || darwin || freebsd)

package main

// addressSpaceLeft returns 0: the address-space limit is not known here.
func addressSpaceLeft() float64 { return 0 }

// fitAddressSpace returns budget: the address-space limit is not known
// here.
func fitAddressSpace(budget float64) (float64, error) { return budget, nil }
