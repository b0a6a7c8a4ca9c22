// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package changepoint finds the times at which the distribution of a time
// series changes, by relative density-ratio estimation (Liu, Yamada,
// Collier & Sugiyama, "Change-point detection in time-series data by
// relative density-ratio estimation", Neural Networks 43, 2013), at a cost
// per time step that does not grow with the window.
//
// The series is a sequence of rows y(0), y(1), … of one or more columns.
// Its subsequence of length k starting at row r is the point
//
//	Y(r) = [y₁(r), …, y₁(r+k−1), y₂(r), …, y₂(r+k−1), …]
//
// (each column's k values one after the other, as the authors' code stacks
// them), so that a change in the serial dependence is a change of
// distribution. At a candidate time whose after window starts at row b,
// the before window holds the n subsequences starting at b−n, …, b−1 and
// the after window the n starting at b, …, b+n−1. Each coordinate is
// divided by its standard deviation over those 2n subsequences, and the
// score is the symmetrised relative Pearson divergence
//
//	score(b) = PE_α(P_after‖P_before) + PE_α(P_before‖P_after),
//
// each term lying in [0, (1−α)/α]. The reference implementations fit
// RuLSIF with all n centres at every step, O(n³). Here, by default, each
// term is RuLSIF with K ≤ ⌊n/2⌋ centres averaged over all 2n subsequences,
// kept up to date as the windows slide: the basis, σ, λ and the
// standardisation are held for ⌈n/2⌉ rows, during which each row changes
// the regularised moment matrix by three rank-one terms, whose inverse
// Sherman–Morrison keeps in O(K²); then everything is recomputed exactly.
// σ = 0.35·√(2·k·dim) and λ = 0.003 are fixed, set for DefaultThreshold's
// false-alarm rate. The hold delays no detection: a change scores highest n
// + k − 1 rows after it arrives, when the basis has been refreshed on an
// after window at least half in the new regime. With M, Draws or Exact
// given, each term is divergence.RelativePE's constant-time estimate
// afresh, with K centres and M averaging points per draw (O(Draws·K²·M) a
// step whatever n, docs/DESIGN.md §2) and σ and λ chosen by
// cross-validation on the windows (docs/DESIGN.md §4) at every step, as the
// paper does. The standardisation is kept by running sums in O(k·dim) per
// row. The score of the candidate b is reported at row
// b + ⌊k/2⌋, the middle of the subsequences that straddle the boundary,
// where a change whose first new row is c peaks.
//
// The embedding chooses what the score sees. With the default k = 10 it
// sees changes of mean, of spread, of the dependence between columns and of
// the serial dependence; a change of the marginal distribution of
// independent rows at equal mean and variance (Gaussian to bimodal, say) is
// diluted in k·d dimensions, where n subsequences cannot resolve it, and a
// subsequence of one row (Embed 1) sees it, and the dependence between
// columns better still, but the serial dependence not at all and a change
// of mean less well (docs/RESULTS.md). The score is nonparametric: on a
// change of the variance of Gaussian rows the difference of the windows'
// log-variances, the likelihood-ratio statistic, is more powerful, while a
// change of spread at equal variance (of kurtosis) the score sees and the
// variance does not (docs/DESIGN.md §9).
//
// Change points are the scores above a threshold that are the highest
// within a distance on either side (Detect). A window without a change does
// not score zero: each direction is estimated from n subsequences with σ
// and λ tuned on them, and fluctuates with them. DefaultThreshold is
// calibrated on series of one column without a change (white Gaussian
// noise and the AR(2) noise of the paper's benchmarks): at the default
// settings and α it gives about one false alarm in 1000 rows scored. The
// quiet scores of the default estimate are lower on several independent
// columns than on one, so with several columns and no Threshold given the
// Detector scales it to their participation ratio over the windows (from
// 3 for one column, or columns that are one up to scale, to about 2.1 for
// ten independent ones), which keeps 0.5–0.9 false alarms in 1000 rows on
// 1–10 columns of white or AR(2) noise, independent or correlated
// (Detector.Threshold). The scale of the scores, of quiet windows and of
// changes alike, also depends on the window, so at other settings
// calibrate the threshold on a stretch of the series known to be quiet, or
// read the scores as a ranking. A Detector scores a stream
// row by row and holds only the last 2n + k − 1 rows; Scores runs one over
// a whole series.
//
// Segment is the entry point for a whole series of known length, and the
// default of the pearson changepoint command: its embedding, windows and
// minimum distance adapt to the length T (a 20-row series works, and from
// 2500 rows on the windows are the paper's 50), every row with three
// subsequences on either side is a candidate (the windows shrink at the
// edges), each window size's scores are calibrated on the series itself
// (their median and scaled MAD), so that trends, seasons and random walks
// do not read as changes, and a change is a calibrated score above a
// penalty of 2·ln T that is a local maximum, refined with windows that stop
// at its neighbours. On the package's benchmark of annotated series
// (benchmark_test.go; docs/RESULTS.md, "Change points") it beats the empty
// answer, PELT and binary segmentation on mean F1 and covering. With d > 1
// columns each column is also scored on its own, so that a change in one
// column is not diluted by the others, and the largest of the d + 1
// calibrated scores faces a penalty of 2·ln((d + 1)·T). Windows of √T
// rows see a change of spread, or a shift of 1–2 standard deviations,
// weakly: the segments between the changes found are then searched over
// their whole length for a change of spread (of the absolute first
// differences), for changes of level several at a time (the steps rule:
// PELT at the noise's long-run variance, estimated from differences and
// then from residuals rather than from the scores, which dense changes
// inflate, beside a smooth trend of degree up to 12), and for a single
// change of level (the χ² of a step at the segment's own long-run
// variance, beside a trend when the segment has one), each change naming
// the rule that found it (Change.Rule). A series of T rows is scanned
// every ⌈T/20000⌉ rows (SegmentParams.Stride). On changes every 20–25
// rows PELT, which assumes independent rows, still finds more
// (docs/RESULTS.md).
//
// Settings follow the conventions of package divergence: the zero value of
// every field is its documented default, a nil pointer asks for all of
// them, and a value out of range gives a *SettingsError naming the field.
// Errors wrap the package's sentinels; randomness comes only from
// Settings.Src, so that a seed reproduces a result exactly.
package changepoint
