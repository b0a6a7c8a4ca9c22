// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package kernel provides the Gaussian kernel
//
//	φ(x, c) = exp(−‖x − c‖² / (2σ²))
//
// on points of Rᵈ, its kernel matrices between a set of points and a set of
// centres, the first and second moments of kernel features accumulated block
// by block (so that no matrix larger than a block of points by the centres is
// ever formed), and the median heuristic for choosing σ.
//
// Point sets are *mat.Dense matrices whose rows are points. σ is the kernel
// width itself, not σ².
package kernel
