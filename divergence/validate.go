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
