// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package reproduce re-runs the experiments of Hayashi & Yoshida,
// "Minimizing Quadratic Functions in Constant Time" (NIPS 2016), Section 5:
// the synthetic problems of Figure 1 and the Pearson divergence comparison
// with Nyström's method of Tables 1 and 2, and writes every raw measurement
// (JSON), the tables (Markdown) and the figure (PNG, SVG). The command
// "pearson reproduce" drives it.
package reproduce
