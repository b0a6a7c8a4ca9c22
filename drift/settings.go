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
	"github.com/sublinear/pearson/qmin"
)

// Defaults of Settings.
const (
	// DefaultLevel is the level of the adjusted p-values below which a
	// column can drift.
	DefaultLevel = 0.05
	// DefaultThreshold is 0: no effect threshold, every column whose
	// q-value is below Level drifts, as with KS and Benjamini–Hochberg.
	// The power study (docs/RESULTS.md, "drift"; its history in git) measured that the former
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
	// DefaultColumnK is the number of centres of a numeric column's own
	// estimate (its Divergence and StdErr), unless Settings.ColumnK says
	// otherwise or Settings.K is smaller. A column is one-dimensional, and
	// 50 Gaussian centres resolve a one-dimensional ratio: the paper's
	// Table 2 setting is within 0.0006 of the all-centre value at k = 20,
	// and on drift's cases (TestColumnEstimateAccuracy: shifts of 0.1 and
	// 0.5 sd, sd × 1.2, normal against Laplace and a bimodal mixture,
	// truths by quadrature) the estimate at 50 centres is as close to the
	// truth as at 100, while the draws' K² and K³ terms cost a quarter to
	// an eighth: the estimate was 60% of drift's time per column. The
	// tests and the joint row, which may be many-dimensional, keep K.
	DefaultColumnK = 50
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

	// ColumnK is the number of centres of each numeric column's own
	// estimate (ColumnResult.Divergence and StdErr). Zero means
	// DefaultColumnK, or K when K is smaller. The column's permutation test
	// and the joint row use K.
	ColumnK int

	// SampleRows bounds the rows kept of a table, reference or current:
	// a larger sample is cut down to a uniform random sample of SampleRows
	// rows. Zero means (Draws + 2)·(K + M) with the estimator's settings,
	// the rows its draws and cross-validation can read, or the test's
	// divergence.TwoSampleRows if more.
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

// params are the settings with every default filled in: resolve fills
// them once, at the entry points (NewReference, Compare), and the code
// below reads plain values.
type params struct {
	// est are the estimator's settings as given (package divergence
	// resolves them).
	est divergence.Settings

	level, threshold, driftShare float64 // threshold −∞: none
	adjust                       Adjustment
	// permutations of a column; the default grows with the columns
	// compared (forColumns). askedPermutations is Settings.Permutations.
	permutations, askedPermutations int
	// jointPermutations of the joint row: Permutations when set,
	// otherwise max(199, ⌈10/Level⌉ − 1).
	jointPermutations int
	// settlePermutations bounds the permutations of an ambiguous column
	// (0: none), after forColumns; askedSettle is
	// Settings.SettlePermutations.
	settlePermutations, askedSettle int
	// exceedances is h of a column's sequential p-value (0: every column
	// runs all its permutations).
	exceedances int
	// columnK is the number of centres of a numeric column's own estimate:
	// ColumnK, or min(DefaultColumnK, K).
	columnK int
	// jointK is the estimator's K as given (0: its default): the joint
	// row's centres, and the tests'.
	jointK int
	// jointM is the averaging budget of the joint row's test: M when set,
	// otherwise divergence.DefaultM, the estimate's, not every row up to
	// divergence.TwoSamplePointsCap as for a column. In d dimensions a point
	// costs O(d) a column's point, and the joint row's one job, a change
	// of dependence that no column shows, is seen at 2000 rows per sample
	// (correlation 0 → 0.5: 20 of 20 in the power study); with every row
	// it was a sixth of drift's CPU on 10⁴ rows × 20 columns.
	jointM int
	// columnM is a column test's averaging budget as given (0:
	// divergence.TwoSamplePoints' rule).
	columnM int
	// sampleRows bounds the rows kept of a table (Settings.SampleSize).
	sampleRows int
	noJoint    bool
}

// resolve validates s (nil: every default) and fills in the defaults; the
// permutations that depend on the number of columns compared are filled by
// forColumns.
func (s *Settings) resolve() (*params, error) {
	if s == nil {
		s = new(Settings)
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	p := &params{
		est:               s.Settings,
		level:             resolve.OrDefault(s.Level, DefaultLevel),
		threshold:         s.Threshold,
		driftShare:        resolve.OrDefault(s.DriftShare, DefaultDriftShare),
		adjust:            s.Adjust,
		askedPermutations: s.Permutations,
		askedSettle:       s.SettlePermutations,
		jointK:            s.K,
		jointM:            resolve.OrDefault(s.M, divergence.DefaultM),
		columnM:           s.M,
		sampleRows:        s.sampleRows(),
		noJoint:           s.NoJoint,
	}
	if p.threshold <= 0 {
		p.threshold = math.Inf(-1)
	}
	// The joint row's permutations: it is not adjusted with the columns:
	// its p-value is compared with Level alone, and 199 permutations reach
	// p-values of 0.005, a tenth of the default level. Its permutations
	// cost O(d) times a column's, and with the default's 999 or more they
	// were half the cost of a table of 20 columns.
	p.jointPermutations = s.Permutations
	if p.jointPermutations == 0 {
		p.jointPermutations = int(max(199, math.Ceil(10/p.level)-1))
	}
	switch {
	case s.ColumnK > 0:
		p.columnK = s.ColumnK
	default:
		p.columnK = min(DefaultColumnK, resolve.OrDefault(s.K, divergence.DefaultK))
	}
	if s.Exceedances >= 0 {
		p.exceedances = resolve.OrDefault(s.Exceedances, DefaultExceedances)
	}
	p.forColumns(0)
	return p, nil
}

// forColumns sets the permutations of a column for m compared columns when
// Settings.Permutations asks for the default (see Settings.Permutations),
// and the settling bound that follows from them.
func (p *params) forColumns(m int) {
	p.permutations = p.askedPermutations
	if p.permutations == 0 {
		b := math.Ceil(2 * float64(m) / p.level)
		p.permutations = int(max(DefaultPermutations, min(b, divergence.MaxPermutations)))
	}
	switch {
	case p.askedSettle < 0:
		p.settlePermutations = 0
	case p.askedSettle > 0:
		p.settlePermutations = p.askedSettle
	default:
		p.settlePermutations = min(settleShare*p.permutations, divergence.MaxPermutations)
	}
}

// settleShare is the default SettlePermutations per permutation. Only
// ambiguous columns, usually none or one, pay for it; a column still at
// the cut after them reports the upper end of its interval.
const settleShare = 10

// SampleSize returns the rows NewReference and Compare keep of a table:
// SampleRows, or its default. A caller that samples a large file while
// reading it (as the command line does) need keep no more.
func (s *Settings) SampleSize() int { return s.sampleRows() }

func (s *Settings) sampleRows() int {
	if s.SampleRows > 0 {
		return s.SampleRows
	}
	return max(divergence.SampleRows(&s.Settings), divergence.TwoSampleRows(s.M))
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
	case s.ColumnK < 0 || s.ColumnK > qmin.MaxK:
		return bad("ColumnK", s.ColumnK, fmt.Sprintf("in [0, %d]", qmin.MaxK))
	case s.SampleRows < 0 || s.SampleRows == 1:
		return bad("SampleRows", s.SampleRows, "at least 2, or 0 for the default")
	}
	return nil
}
