// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package divergence estimates the α-relative Pearson divergence between two
// samples, in time that does not grow with the number of rows.
//
// For distributions P and Q with densities p and q, and α ∈ [0, 1),
//
//	PE_α(P‖Q) = ½ E_{q_α}[(r_α − 1)²],   r_α = p/q_α,   q_α = αp + (1 − α)q.
//
// RuLSIF (Yamada et al., 2011) fits r_α by a kernel model g(x) = Σ_l θ_l φ(x, c_l)
// with Gaussian kernels φ(x, c) = exp(−‖x − c‖²/(2σ²)) centred on the
// numerator points, and reads PE off the minimum of a quadratic function:
//
//	PE = −½ − min_θ [½θᵀHθ − hᵀθ + (λ/2)θᵀθ] = ½ hᵀ(H + λI)⁻¹h − ½,
//
// where H is the kernel average of φφᵀ under αP + (1−α)Q and h that of φ under
// P. RelativePE computes it by Algorithm 1 of Hayashi & Yoshida, "Minimizing
// Quadratic Functions in Constant Time" (NIPS 2016), through package qmin:
// each draw samples k centres, averages the kernels over m points drawn
// independently of them, and solves the k-centre problem with the
// regularisation rescaled to kλ/n; the estimate is the mean over the draws,
// with its standard error. The cost depends on k, m and the number of draws,
// not on the number of rows: only the rows drawn are ever read. The kernel
// width σ and the regularisation λ are chosen by 5-fold cross-validation on
// centres and averaging points of the same budget, so the whole estimate
// costs the same at a thousand rows or a billion.
//
// Conventions: σ is the kernel width itself; λ is the regularisation of the
// all-centre problem, in which every one of the n numerator points is a
// centre, so that fixing σ and λ and asking for Settings.Exact gives the
// value the constant-time estimate approximates. The reported PE is the
// paper's form ½hᵀθ − ½; RuLSIF's plug-in form hᵀθ − ½θᵀHθ − ½ is reported
// beside it. LSMI estimates the squared-loss mutual information with two
// models of the ratio p(x, y)/(p(x)p(y)) fitted by the same squared loss —
// Gaussian kernels on drawn rows, and the ratio of the Gaussian copula of
// the columns' normal scores — and reports the better fit
// (LSMIResult.Model). The mathematics is in docs/DESIGN.md: §2 for PE, §3 for LSMI,
// §4 for the choice of σ and λ, §5 for the tests.
//
// Settings. α is an argument of RelativePE and TwoSampleTest, not a
// setting: it chooses the quantity estimated, PE_α, and every α in [0, 1)
// means itself (0 is the plain Pearson divergence; DefaultAlpha = ½ is the
// recommended value). Every other option is a field of a settings struct,
// one per entry point (PESettings, LSMISettings, TwoSampleSettings,
// IndependenceSettings, RankSettings), each embedding the options they all
// share (Settings). The zero value of every field has one meaning, its
// documented default, and a nil pointer asks for every default; a field
// named Permutations always means "zero: DefaultPermutations", while Rank's
// optional p-values are asked for by RankSettings.PValuePermutations, whose
// zero means none. A value out of range gives a *SettingsError naming the
// field, which unwraps to ErrSettings.
//
// Samples are gonum matrices whose rows are points; Column and Rows wrap
// plain slices. A Subsample marks a uniform sample of the rows of a larger
// data set. Randomness comes only from Settings.Src: a seed reproduces a
// result exactly, whatever the number of goroutines.
//
// Cancellation. Every entry point takes a context and returns soon after
// it is done, ctx.Err() wrapped: within about a millisecond at the
// defaults, and within about a tenth of a second at any k, because a step
// that is one library call without a cancellation point (a k×k
// factorisation, an eigendecomposition) is abandoned rather than awaited.
// Abandoned work runs on in the background until its end and its result is
// dropped. It may still read the samples given to the call, so do not
// change them until it ends; it no longer draws from Settings.Src once the
// call has returned.
package divergence
