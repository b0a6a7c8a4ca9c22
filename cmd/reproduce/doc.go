// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command reproduce re-runs the experiments of Hayashi & Yoshida,
// "Minimizing Quadratic Functions in Constant Time" (NIPS 2016), Section 5:
// the synthetic problems of Figure 1 and the Pearson divergence comparison
// with Nyström's method of Tables 1 and 2, and writes every raw measurement
// (JSON), the tables (Markdown) and the figure (PNG, SVG).
//
// It is a research harness, kept out of the pearson binary:
//
//	go run ./cmd/reproduce --out docs/results
//	go run ./cmd/reproduce --quick --experiment toy
//
// Flags: --out DIR (default reproduce-out), --experiment toy|pearson|all,
// --seeds N (random problems per setting, default 10), --quick (a small
// version: fewer sizes, at most 3 seeds), --progress auto|always|never.
// Exit codes: 0 success, 1 a runtime error, 2 a usage error.
package main
