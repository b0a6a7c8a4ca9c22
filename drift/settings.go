// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"fmt"
	"math"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/errs"
	"github.com/sublinear/pearson/internal/resolve"
)

// Defaults of Settings.
const (
	// DefaultLevel is the level of the adjusted p-values below which a
	// column can drift.
	DefaultLevel = 0.05
	// DefaultThreshold is 0: no effect threshold, every column whose
	// q-value is below Level drifts, as with KS and Benjamini–Hochberg.
	// The power study (docs/results/power.md) measured that the former
	// default, PE_½ > 0.01 (a shift of 0.28 standard deviations, since
	// PE_½ ≈ δ²/8 for a normal shift δ), hid most of the changes the test
	// found at 10⁴ rows. A positive Threshold asks that a significant column
	// also be large: PE_½(P‖Q) = ¼ Σ (p − q)²/(p + q) (an integral for
	// densities) is, to second order, the Jensen–Shannon divergence in nats;
	// 0.00125 is a 0.1-sd shift, 0.01 the square of evidently's 0.1 on the
	// Jensen–Shannon distance. A significant column under it is reported
	// (ColumnResult.BelowThreshold), not hidden.
	DefaultThreshold = 0
	// DefaultDriftShare is the share of drifted columns at which the data
	// set drifts, evidently's drift_share.
	DefaultDriftShare = 0.5
	// DefaultExceedances is the number of permutations reaching the
	// observed statistic at which a numeric column's test stops (see
	// Settings.Exceedances).
	DefaultExceedances = 10
	// DefaultPermutations is the least number of permutations of a numeric
	// column that may drift (one far from drifting stops earlier, see
	// Settings.Exceedances), and of categorical columns: with more columns
	// the default grows (see Settings.Permutations).
	DefaultPermutations = 999
	// Alpha is the α of the relative divergence PE_α every column is
	// compared by: with α = ½ the relative ratio is bounded by 2 and PE_½
	// approximates the Jensen–Shannon divergence, which gives the threshold
	// its meaning.
	Alpha = divergence.DefaultAlpha
)

// Adjustment is a correction of p-values for the number of tests.
type Adjustment int

const (
	// BenjaminiHochberg controls the false discovery rate (the default).
	BenjaminiHochberg Adjustment = iota
	// Holm controls the family-wise error rate.
	Holm
	// NoAdjustment leaves the p-values as they are.
	NoAdjustment
)

// String returns "bh", "holm" or "none".
func (a Adjustment) String() string {
	switch a {
	case Holm:
		return "holm"
	case NoAdjustment:
		return "none"
	}
	return "bh"
}

// Settings are the options of Compare and NewReference. The zero value of
// every field asks for its default, and a nil pointer for all of them.
type Settings struct {
	// Settings are the estimator's: K, M, Draws, the cross-validation
	// grids, Src, Workers and Progress, as in package divergence. Columns
	// are compared concurrently on Workers goroutines, each with its own
	// generator seeded in column order from Src, so results do not depend
	// on Workers. Progress counts columns (and the joint row).
	divergence.Settings

	// Level is the level of the adjusted p-values: a column can drift only
	// when its q-value is below Level. Zero means DefaultLevel.
	Level float64
	// Threshold is the divergence PE_½ a significant column must exceed to
	// drift. Zero (DefaultThreshold) or a negative value means no
	// threshold.
	Threshold float64
	// DriftShare is the share of compared columns that must drift for the
	// data set to drift. Zero means DefaultDriftShare.
	DriftShare float64
	// Adjust is the correction for the number of tests.
	Adjust Adjustment

	// Permutations is the number of permutations behind the p-value of a
	// column that may drift. Zero means enough for one drifted column
	// among m compared to pass the adjustment: its p-value is at least
	// 1/(B+1) and its q-value m times that (Benjamini–Hochberg's and Holm's
	// smallest), so the default is B = max(DefaultPermutations, ⌈2m/Level⌉),
	// twice m for the missing-value tests: 999 up to 24 columns at level
	// 0.05, 4000 at 100; at most divergence.MaxPermutations. The joint
	// row, which is not adjusted, has max(199, ⌈10/Level⌉ − 1) by default.
	Permutations int
	// Exceedances is h of a numeric column's sequential p-value: its
	// permutations stop at the h-th whose statistic reaches the observed
	// one, with the p-value h/L after L permutations, or run all
	// Permutations (Besag and Clifford 1991; see
	// divergence.SequentialTwoSampleTest). The p-value is valid either way;
	// a column far from significance stops after about h/p permutations,
	// and its p-value is then known to about ±1/√h relative. Zero means
	// DefaultExceedances; a negative value means every column runs all
	// Permutations.
	Exceedances int
	// SettlePermutations bounds the permutations of a numeric column whose
	// p-value is too uncertain for the verdict: one whose Monte Carlo
	// interval, at either end, would change which tests are significant
	// after the adjustment. Such columns get 4 times more permutations,
	// round after round, up to SettlePermutations, so that the same data
	// at different seeds flag the same columns; a column still ambiguous
	// after SettlePermutations reports the upper end of its interval, a
	// conservative p-value, with a Note. Zero means 10·Permutations (at
	// most divergence.MaxPermutations); a negative value means none.
	SettlePermutations int

	// SampleRows bounds the rows kept of a table, reference or current:
	// a larger sample is cut down to a uniform random sample of SampleRows
	// rows. Zero means (Draws + 2)·(K + M) with the estimator's settings,
	// the rows its draws and cross-validation can read, or the test's
	// divergence.TestRows if more.
	SampleRows int

	// NoJoint leaves out the joint row over all numeric columns.
	NoJoint bool
}

// SettingsError reports a field of Settings out of range: drift's own
// fields with Package "drift", the estimator's with "divergence". It is
// errs.SettingsError, and unwraps to ErrSettings.
type SettingsError = errs.SettingsError

// ErrSettings means a field of Settings is out of range: errs.ErrSettings,
// the value divergence.ErrSettings is too.
var ErrSettings = errs.ErrSettings

func (s *Settings) level() float64 { return resolve.OrDefault(s.Level, DefaultLevel) }

func (s *Settings) threshold() float64 {
	if s.Threshold <= 0 {
		return math.Inf(-1)
	}
	return s.Threshold
}

func (s *Settings) driftShare() float64 { return resolve.OrDefault(s.DriftShare, DefaultDriftShare) }

func (s *Settings) permutations() int { return resolve.OrDefault(s.Permutations, DefaultPermutations) }

// forColumns returns s with Permutations set for m compared columns when
// it asks for the default (see Settings.Permutations).
func (s *Settings) forColumns(m int) *Settings {
	if s.Permutations != 0 {
		return s
	}
	c := *s
	b := math.Ceil(2 * float64(m) / s.level())
	c.Permutations = int(max(DefaultPermutations, min(b, divergence.MaxPermutations)))
	return &c
}

// jointPermutations is the number of permutations of the joint row:
// Permutations when set (before forColumns), otherwise max(199, ⌈10/Level⌉ − 1). The joint row
// is not adjusted with the columns: its p-value is compared with Level
// alone, and 199 permutations reach p-values of 0.005, a tenth of the
// default level. Its permutations cost O(d) times a column's, and with the
// default's 999 or more they were half the cost of a table of 20 columns.
func (s *Settings) jointPermutations() int {
	if s.Permutations != 0 {
		return s.Permutations
	}
	return int(max(199, math.Ceil(10/s.level())-1))
}

// settleShare is the default SettlePermutations per permutation. Only
// ambiguous columns, usually none or one, pay for it; a column still at
// the cut after them reports the upper end of its interval.
const settleShare = 10

// settlePermutations is SettlePermutations resolved (0: none), after
// forColumns.
func (s *Settings) settlePermutations() int {
	switch {
	case s.SettlePermutations < 0:
		return 0
	case s.SettlePermutations > 0:
		return s.SettlePermutations
	}
	return min(settleShare*s.permutations(), divergence.MaxPermutations)
}

// jointM is the averaging budget of the joint row's test: M when set,
// otherwise divergence.DefaultM, the estimate's, not every row up to
// divergence.TestPointsCap as for a column. In d dimensions a point costs
// O(d) a column's point, and the joint row's one job, a change of
// dependence that no column shows, is seen at 2000 rows per sample
// (correlation 0 → 0.5: 20 of 20 in the power study); with every row it
// was a sixth of drift's CPU on 10⁴ rows × 20 columns.
func (s *Settings) jointM() int { return resolve.OrDefault(s.M, divergence.DefaultM) }

func (s *Settings) exceedances() int {
	if s.Exceedances < 0 {
		return 0
	}
	return resolve.OrDefault(s.Exceedances, DefaultExceedances)
}

// SampleSize returns the rows NewReference and Compare keep of a table:
// SampleRows, or its default. A caller that samples a large file while
// reading it (as the command line does) need keep no more.
func (s *Settings) SampleSize() int { return s.sampleRows() }

func (s *Settings) sampleRows() int {
	if s.SampleRows > 0 {
		return s.SampleRows
	}
	return max(divergence.SampleRows(&s.Settings), divergence.TestRows(s.M))
}

// check validates the fields of s that the package owns; the estimator's
// are validated by package divergence.
func (s *Settings) check() error {
	bad := func(field string, v any, allowed string) error {
		return &SettingsError{Package: "drift", Field: field, Value: v, Allowed: allowed}
	}
	switch {
	case !(s.Level >= 0 && s.Level < 1):
		return bad("Level", s.Level, "in (0, 1), or 0 for the default")
	case math.IsNaN(s.Threshold) || math.IsInf(s.Threshold, 0):
		return bad("Threshold", s.Threshold, "finite")
	case !(s.DriftShare >= 0 && s.DriftShare <= 1):
		return bad("DriftShare", s.DriftShare, "in (0, 1], or 0 for the default")
	case s.Adjust < BenjaminiHochberg || s.Adjust > NoAdjustment:
		return bad("Adjust", s.Adjust, "BenjaminiHochberg, Holm or NoAdjustment")
	case s.Permutations < 0 || s.Permutations > divergence.MaxPermutations:
		return bad("Permutations", s.Permutations, fmt.Sprintf("in [0, %d]", divergence.MaxPermutations))
	case s.SettlePermutations > divergence.MaxPermutations:
		return bad("SettlePermutations", s.SettlePermutations, fmt.Sprintf("at most %d", divergence.MaxPermutations))
	case s.Exceedances > divergence.MaxPermutations:
		return bad("Exceedances", s.Exceedances, fmt.Sprintf("at most %d", divergence.MaxPermutations))
	case s.SampleRows < 0 || s.SampleRows == 1:
		return bad("SampleRows", s.SampleRows, "at least 2, or 0 for the default")
	}
	return nil
}
