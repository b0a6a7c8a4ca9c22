// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import "github.com/sublinear/pearson/divergence"

// Validate returns a *SettingsError for the first field of s, or for α,
// out of range, as NewDetector does before any work, or nil: a caller can
// check settings that come from a user before reading data. A nil s is
// the defaults.
func (s *Settings) Validate(alpha float64) error {
	_, err := s.resolve(alpha)
	return err
}

// Resolved returns a copy of s with every zero that asks for a default
// filled in (Embed, Window, Step, K, M, Draws, Threshold, MinDistance),
// as the detector runs them: for a caller that reports the settings used.
// Fields out of range are left as they are (see Validate).
func (s *Settings) Resolved() Settings {
	if s == nil {
		s = &Settings{}
	}
	r := *s
	p, err := s.resolve(0)
	if err != nil {
		return r
	}
	r.Embed, r.Window, r.Step = p.embed, p.window, p.step
	r.K, r.M, r.Draws = p.k, p.m, p.draws
	r.Threshold, r.MinDistance = p.threshold, p.minDistance
	return r
}

// StreamMemory returns a bound, in bytes, of what a Detector of these
// settings holds for a series of dim columns, beyond the runtime: the last
// 2n + k − 1 rows, the running sums of the k·dim coordinates, the scores
// of the last MinDistance rows with a time label for each (n the Window,
// k the Embed), the incremental estimate's features and inverses, and the
// working set of one estimate of the divergence
// between two windows of n subsequences of k·dim coordinates
// (divergence.PESettings.Memory; with Exact, O(n²), the heap at its peak
// under the collector's default target: about 1.4 GiB at n = 5000, where
// the collector's trace shows 1.16 GiB). Settings out of range give the
// bound of their resolved values as far as they go.
func (s *Settings) StreamMemory(dim int) float64 {
	r := s.Resolved()
	n, k, dist, d := float64(r.Window), float64(r.Embed), float64(r.MinDistance), float64(dim)
	rows := 8*((2*n+k-1)*d+6*k*d) + 64*dist + 8*(2*n+k+dist)
	// The incremental estimate: each subsequence's features against both
	// bases, two inverses and the Cholesky scratch, the centres.
	kc := float64(min(r.K, r.Window/2))
	rows += 8 * ((2*n+1)*2*kc + 4*kc*kc + 2*kc*k*d + 2*k*d)
	pe := &divergence.PESettings{
		Settings: divergence.Settings{K: r.K, M: r.M, Draws: r.Draws, Exact: r.Exact, Workers: r.Workers, Lambda: r.Lambda},
		Sigma:    r.Sigma,
	}
	pe.SigmaScales, pe.LambdaScales = sigmaScales, lambdaScales
	return rows + pe.Memory(r.Window, r.Window, r.Embed*max(dim, 1))
}

// Validate returns a *SettingsError for the first field of s, or for α,
// out of range, as Segment does before any work, or nil.
func (s *SegmentSettings) Validate(alpha float64) error {
	if s == nil {
		s = &SegmentSettings{}
	}
	return s.validate(alpha)
}

// Settings of SegmentSettings.Memory: the float64 values Segment holds
// live at its peak per value of the series and per row besides (the
// rescaled copy; the steps rule's values, weights and trend per column;
// over the longest segment, its prefix sums, residuals, the best fit's
// trend, PELT's optimal costs and last changes and the noise's scratch),
// as measured by the collector's trace (issue 36): 88 MB live at 10⁶ rows
// of one column of white noise (one segment, the worst case), 16 MB of
// which the command's copy of the rows and their times; 68 MB when a
// change splits it in two.
const segmentValueFloats, segmentRowFloats = 4.5, 4.5

// Memory returns a bound, in bytes, of the live memory Segment holds at
// its peak on a series of rows rows and dim columns, beyond the series
// passed and the runtime: the working arrays that grow with the series
// and the windows of the candidates' scores. A process whose collector
// runs at GOGC = g may hold up to 1 + g/100 times as much on the heap.
func (s *SegmentSettings) Memory(rows, dim int) float64 {
	p := SegmentParamsFor(max(rows, 1), s)
	n, k, d := float64(min(p.Window, rows)), float64(p.Embed), float64(dim)
	window := 8 * (2*n*k*d + (2*n+k)*d)
	return window + 8*float64(rows)*(segmentValueFloats*d+segmentRowFloats)
}
