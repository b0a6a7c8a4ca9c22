// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command pearson estimates the α-relative Pearson divergence between two
// samples and the squared-loss mutual information between variables, in time
// that does not grow with the number of rows, by Algorithm 1 of Hayashi &
// Yoshida, "Minimizing Quadratic Functions in Constant Time" (NIPS 2016).
//
// Usage:
//
//	pearson <command> [options]
//
// The commands:
//
//	divergence  (pe) estimate the α-relative Pearson divergence between two samples
//	test        two-sample permutation test: do P and Q differ?
//	mi          (smi) squared-loss mutual information between columns, with an
//	            optional independence test
//	rank        rank feature columns by their dependence with a target
//	qmin        estimate the minimum of a quadratic function given by CSV files
//
// The experiments of the paper's Section 5 are re-run by a separate command,
// cmd/reproduce, which the pearson binary does not carry.
//
// Inputs are CSV files with a header row ("-" reads standard input); files
// of any length are read once, keeping a uniform random sample of rows whose
// size depends on the estimate's budget, not on the file.
// Run "pearson <command> --help" for a command's options. Data are written to
// standard output, diagnostics to standard error. The exit code is 0 on
// success, 1 for a data or runtime error and 2 for a usage error.
package main
