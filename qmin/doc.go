// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package qmin approximates the minimum of a quadratic function in time that
// does not depend on its dimension: Algorithm 1 of Hayashi & Yoshida,
// "Minimizing Quadratic Functions in Constant Time" (NIPS 2016).
//
// The problem, for a matrix A (n×n) and vectors d and b (length n), is
//
//	z* = min_{v ∈ Rⁿ} p(v),   p(v) = ⟨v, A v⟩ + n⟨v, diag(d) v⟩ + n⟨b, v⟩.
//
// Only the symmetric part (A + Aᵀ)/2 of A matters. A Problem gives query
// access to the entries; Dense and Funcs adapt matrices and functions, and a
// Restricter fills a whole restricted block at once.
//
// Estimate draws k indices S uniformly from [n] (with replacement, as the
// theorem assumes, or without), minimises the restricted problem
//
//	z̃ = min_{v ∈ Rᵏ} ⟨v, A|S v⟩ + k⟨v, diag(d|S) v⟩ + k⟨b|S, v⟩
//
// and returns (n²/k²)·z̃. It repeats this over independent draws and reports
// their mean and standard error. Each draw costs O(k²) queries and O(k³)
// arithmetic, whatever n is. Theorem 4.2 bounds the error by εLK²n² with
// probability 1 − δ when k = 2^{Θ(1/ε²)} + Θ(log(1/δ) log log(1/δ)), where L
// bounds |A|, |d| and |b|, and K bounds the minimiser; the bound is loose, and
// in practice the error per n² falls steadily with k and does not depend on n.
//
// Exact solves the whole problem, the reference for tests and experiments,
// and MinimizeQuadratic solves any f(v) = vᵀMv + cᵀv: by Cholesky
// factorisation when M is positive definite; through the pseudoinverse when M
// is positive semidefinite and singular and the minimum is finite, a
// condition the package decides numerically and reports; with ErrUnbounded
// when there is no minimum. With a box constraint [−K, K]ⁿ every problem has a
// minimum: convex ones are solved to optimality and certified by their
// duality gap; non-convex ones are solved locally from several starting
// points, and the Solution says whether the local minimum could be certified
// global (by a diagonal shift that convexifies the problem around it).
//
// Randomness comes only from Settings.Src, so a seed reproduces a result
// exactly, whatever the number of goroutines.
package qmin
