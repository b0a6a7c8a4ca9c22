// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

// Validate returns a *SettingsError for the first field out of range, as
// the estimators do before any work, or nil: a caller can check settings
// that come from a user before reading data. It neither reads nor changes
// the settings' Src.
func (s *Settings) Validate() error {
	if s == nil {
		return nil // every default
	}
	return s.validate()
}

// Validate checks the settings of RelativePE, as Settings.Validate does.
func (s *PESettings) Validate() error {
	if s == nil {
		return nil // every default
	}
	return s.validate()
}

// Validate checks the settings of LSMI, as Settings.Validate does.
func (s *LSMISettings) Validate() error {
	if s == nil {
		return nil // every default
	}
	return s.validate()
}

// Validate checks the settings of TwoSampleTest, as Settings.Validate does.
func (s *TwoSampleSettings) Validate() error {
	if s == nil {
		return nil // every default
	}
	return s.validate()
}

// Validate checks the settings of IndependenceTest, as Settings.Validate
// does.
func (s *IndependenceSettings) Validate() error {
	if s == nil {
		return nil // every default
	}
	return s.validate()
}

// Validate checks the settings of Rank, as Settings.Validate does.
func (s *RankSettings) Validate() error {
	if s == nil {
		return nil // every default
	}
	return s.validate()
}

// ValidateAlpha returns a *SettingsError (Field "alpha") unless α, the
// argument of RelativePE and TwoSampleTest, lies in [0, 1).
func ValidateAlpha(alpha float64) error { return checkAlpha(alpha) }

// smallestNormal is the smallest positive normal float64, 2⁻¹⁰²²: the least
// kernel width or regularisation the settings accept.
const smallestNormal = 0x1p-1022

// Work is the kernel arithmetic of one estimate: in each of Draws draws,
// Points points averaged against Centres centres.
type Work struct {
	Points, Centres, Draws int
}

// Work returns the work of one estimate with settings s (nil: the
// defaults) on samples of n rows together: M points and K centres (their
// defaults for zeros), each at most n (and at least 1), in Draws draws. A
// caller bounds the time of a run by it before any work.
func (s *Settings) Work(n int) Work {
	if s == nil {
		s = &Settings{}
	}
	r := s.resolved()
	n = max(n, 1)
	return Work{Points: min(r.M, n), Centres: min(r.K, n), Draws: r.Draws}
}
