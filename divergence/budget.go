// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

// TestPointsCap is the largest number of averaging points the two-sample
// test uses by default (Settings.M zero): up to it the test averages over
// every row of both samples, as an exact method would, so that its power
// grows with the data; beyond it the cost stays flat and the power is that
// of samples of TestPointsCap rows together. A permutation costs
// O(min(m_P, m_Q)·(w·K + d)) for w kernel widths and d columns.
const TestPointsCap = 20_000

// TestPoints returns the averaging points of the two-sample test for
// samples of np and nq rows when Settings.M is m: m when set, otherwise
// every one of the np + nq rows up to TestPointsCap. It is the one rule of
// the test's budget: the command line reads at least TestPoints/2 rows of
// each sample (see TestRows).
func TestPoints(m, np, nq int) int {
	if m != 0 {
		return m
	}
	return min(np+nq, TestPointsCap)
}

// TestRows returns the rows of each sample the two-sample test can use
// when Settings.M is m: m when set, otherwise TestPointsCap, so that two
// samples of that many rows fill the default budget even when one of them
// is small.
func TestRows(m int) int {
	if m != 0 {
		return m
	}
	return TestPointsCap
}
