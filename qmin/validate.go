// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package qmin

// Validate returns the error EstimateContext would give for the settings
// s on a problem of dimension n, before any work: a *SettingsError for a
// field out of range, ErrTooLarge for a budget past MaxK or
// MaxDrawEntries, or nil. A nil s is the defaults.
func (s *Settings) Validate(n int) error {
	if s == nil {
		s = &Settings{}
	}
	return s.validate(n)
}
