// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

// TwoSamplePointsCap is the largest number of averaging points the two-sample
// test uses by default (TwoSampleSettings.Points zero): up to it the test averages over
// every row of both samples, as an exact method would, so that its power
// grows with the data; beyond it the cost stays flat and the power is that
// of samples of TwoSamplePointsCap rows together. A permutation costs
// O(min(m_P, m_Q)·(w·K + d)) for w kernel widths and d columns.
const TwoSamplePointsCap = 20_000

// TwoSamplePoints returns the averaging points of the two-sample test for
// samples of np and nq rows when TwoSampleSettings.Points is m: m when set, otherwise
// every one of the np + nq rows up to TwoSamplePointsCap. It is the one rule of
// the test's budget: the command line reads at least TwoSamplePoints/2 rows of
// each sample (see TwoSampleRows).
func TwoSamplePoints(m, np, nq int) int {
	if m != 0 {
		return m
	}
	return min(np+nq, TwoSamplePointsCap)
}

// TwoSampleRows returns the rows of each sample the two-sample test can use
// when TwoSampleSettings.Points is m: m when set, otherwise TwoSamplePointsCap, so that two
// samples of that many rows fill the default budget even when one of them
// is small.
func TwoSampleRows(m int) int {
	if m != 0 {
		return m
	}
	return TwoSamplePointsCap
}
