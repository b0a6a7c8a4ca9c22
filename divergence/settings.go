// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/sublinear/pearson/crossval"
	"github.com/sublinear/pearson/internal/resolve"
	"github.com/sublinear/pearson/qmin"
)

// Defaults and limits.
const (
	// DefaultAlpha is the recommended α of RelativePE and TwoSampleTest,
	// and the command line's default: with α = ½ the relative ratio is
	// bounded by 2, so the estimate converges at the parametric rate
	// whatever the samples. α is an argument, not a setting: it chooses the
	// quantity estimated, and 0 is the plain Pearson divergence.
	DefaultAlpha = 0.5
	// DefaultK is the number of centres per draw when Settings.K is zero.
	DefaultK = 100
	// DefaultM is the averaging budget when Settings.M is zero.
	DefaultM = 4000
	// DefaultFolds is the number of cross-validation folds when
	// Settings.Folds is zero.
	DefaultFolds = 5
	// DefaultDraws is the number of draws when Settings.Draws is zero.
	DefaultDraws = 6
	// DefaultPermutations is the number of permutations of TwoSampleTest
	// and IndependenceTest when their Permutations is zero.
	DefaultPermutations = 1000
	// AllPoints as Settings.M asks for exact averages over every point.
	AllPoints = math.MaxInt
	// MaxDraws and MaxPermutations bound Settings.Draws and the number of
	// permutations, whose results are all kept.
	MaxDraws        = 1_000_000
	MaxPermutations = 10_000_000
	// MaxFolds bounds Settings.Folds.
	MaxFolds = 1000
	// MaxExact is the largest numerator sample (number of centres) that
	// Settings.Exact accepts: the all-centre solution takes O(n²(n + n'))
	// time and a few n×n matrices of 8n² bytes each: at n = 5000, about
	// 40 s to a minute and 0.6 to 0.9 GB.
	MaxExact = 5000
)

// Default cross-validation grids. They are functions, each returning a new
// slice, so that no caller can change another's grid (a package variable
// written by one caller would move every later estimate, and race with
// concurrent ones).

// DefaultSigmaScales returns the kernel widths tried by the
// cross-validation of RelativePE, as multiples of the median heuristic σ₀:
// 13 values spaced evenly in log from σ₀/8 to 8σ₀. When the best lies on an
// edge and the score still improves that way, the grid widens itself by
// factors of two, down to σ₀/256 and up to 256σ₀ (docs/DESIGN.md §4).
func DefaultSigmaScales() []float64 { return crossval.LogGrid(1.0/8, 8, 13) }

// DefaultLambdaScales returns the regularisations tried by the
// cross-validation of RelativePE, as values of kλ/n, the regularisation of
// the k-centre problem (see Settings.Lambda): 9 values spaced evenly in log
// from 10⁻⁴ to 1. The grid widens itself by factors of ten as the width
// grid does, within [10⁻⁹, 10³] for the cross-validation's own problem
// (docs/DESIGN.md §4).
func DefaultLambdaScales() []float64 { return crossval.LogGrid(1e-4, 1, 9) }

// DefaultLSMISigmaScales returns the kernel widths LSMI's cross-validation
// tries on each variable, as multiples of that variable's median heuristic:
// 5 values spaced evenly in log from ¼ to 4. It widens itself both ways as
// DefaultSigmaScales does.
func DefaultLSMISigmaScales() []float64 { return crossval.LogGrid(1.0/4, 4, 5) }

// DefaultLSMILambdaScales returns the values of (k/n)²λ, the
// regularisation of the k-row product-basis problem (docs/DESIGN.md §3),
// that LSMI's cross-validation tries: 10⁻⁷, 10⁻⁵ and 10⁻³. They reach lower
// than DefaultLambdaScales: H is a product of two kernel averages, whose
// eigenvalues are smaller.
func DefaultLSMILambdaScales() []float64 { return crossval.LogGrid(1e-7, 1e-3, 3) }

// PermutationSigmaScales returns the permutation tests' kernel widths, as
// multiples of the median heuristic of the pooled sample (two-sample) or of
// each variable (independence), unless the settings fix the widths: 1, 2
// and 4.
//
// The widths must not depend on which points carry which label (or which y
// goes with which x): cross-validating them on the observed labels adapts
// them to that labelling's noise and inflates the rejection rate under the
// null. The statistic is computed at each of these widths and the results
// are combined (see TwoSampleTest), so that whichever width sees a
// difference decides: a single width is blind to differences at other
// scales, such as dependence through the spread only (docs/DESIGN.md §5).
func PermutationSigmaScales() []float64 { return []float64{1, 2, 4} }

// PermutationLambdaScale is the two-sample permutation test's kλ/n unless
// Settings.Lambda is fixed.
const PermutationLambdaScale = 0.01

// Settings are the options every estimator and test shares; each entry
// point takes a struct that embeds them (PESettings, LSMISettings,
// TwoSampleSettings, IndependenceSettings, RankSettings). The zero value of
// every field asks for its default, which suits most data, and a nil
// settings pointer asks for all of them.
//
// Regularisation. λ is the regularisation of the all-centre problem, with
// one centre per point of the n-point sample; the constant-time estimate
// solves the k-centre problem with kλ/n, so that fixing σ and λ and asking for
// Exact gives the value that the estimate approximates. Cross-validation
// searches kλ/n over a grid (LambdaScales); the reported λ is the all-centre
// value. LSMI's product basis has k² functions of n², and uses (k/n)²λ
// instead (docs/DESIGN.md §3).
type Settings struct {
	// K is the number of centres of each draw, at most qmin.MaxK. Zero
	// means DefaultK. It is capped at the size of the centre sample.
	K int
	// M is the averaging budget: the kernel averages that make up H and h
	// are taken over M points drawn at random, independently of the
	// centres, in each draw, instead of over every point. Zero means
	// DefaultM; M at least the total number of points (AllPoints, say)
	// means exact averages, whose cost grows linearly with the data.
	M int
	// Draws is the number of independent draws whose mean is the estimate;
	// their spread gives its standard error. Zero means DefaultDraws.
	Draws int
	// WithoutReplacement draws the centres of each draw without
	// replacement. The default draws them with replacement, as the theorem
	// of Hayashi & Yoshida assumes.
	WithoutReplacement bool

	// Lambda fixes the all-centre regularisation λ. Zero means choose by
	// cross-validation.
	Lambda float64
	// SigmaScales are the kernel widths cross-validation tries, as
	// multiples of the median heuristic. Nil means DefaultSigmaScales for
	// RelativePE and DefaultLSMISigmaScales for LSMI, which widen
	// themselves (docs/DESIGN.md §4); a grid given here is not widened.
	SigmaScales []float64
	// LambdaScales are the values of kλ/n cross-validation tries. Nil means
	// DefaultLambdaScales for RelativePE and DefaultLSMILambdaScales for
	// LSMI, which widen themselves; a grid given here is not widened.
	LambdaScales []float64
	// Folds is the number of cross-validation folds, 2 to MaxFolds. Zero
	// means DefaultFolds.
	Folds int

	// Exact computes the all-centre value itself, with every numerator
	// point as a centre and exact averages, instead of the constant-time
	// estimate: O(n³) time, for n ≤ MaxExact. σ and λ are still chosen by
	// cross-validation unless fixed.
	Exact bool

	// Src is the source of randomness. Nil means rand.NewPCG(1, 2), so
	// that results are reproducible by default.
	Src rand.Source
	// Workers is the number of goroutines; zero means GOMAXPROCS. Results
	// do not depend on it.
	Workers int
	// Progress, if not nil, is called as long operations (permutation
	// tests, rankings) advance, with the work done and the total; calls
	// come from one goroutine at a time.
	Progress func(done, total int)
}

// PESettings are the settings of RelativePE.
type PESettings struct {
	Settings
	// Sigma fixes the kernel width σ. Zero means choose by
	// cross-validation.
	Sigma float64
}

// LSMISettings are the settings of LSMI.
type LSMISettings struct {
	Settings
	// SigmaX and SigmaY fix the kernel widths on x and y. Zero means choose
	// by cross-validation.
	SigmaX, SigmaY float64
	// Model chooses the model whose estimate LSMI reports: ModelKernel,
	// ModelCopula, or "" for the one of the two with the larger SMI, which
	// is the smaller squared-loss objective (docs/DESIGN.md §3). The kernel
	// model is always fitted (LSMIResult.KernelSMI), the copula model unless
	// ModelKernel. ModelCopula with Exact, or on data where the copula model
	// does not apply (see LSMIResult.CopulaSMI), is an error.
	Model string
	// oneWidth keeps one width σx for every column of x (no relevanceX),
	// for the studies that measure what the width per column changes.
	oneWidth bool
}

// TwoSampleSettings are the settings of TwoSampleTest. Settings.M is the
// averaging budget of the estimate (PE) alone, zero meaning DefaultM as
// everywhere; the test's statistic has its own, Points.
type TwoSampleSettings struct {
	PESettings
	// Points is the number of points of the pooled sample the test's
	// statistic averages over, at least 1. Zero means TwoSamplePoints'
	// rule: every row of both samples up to TwoSamplePointsCap, so that
	// the test's power grows with the data. A value at least the rows of
	// both samples (AllPoints, say) takes every row.
	Points int
	// Permutations is the number of permutations, at most
	// MaxPermutations. Zero means DefaultPermutations.
	Permutations int
}

// IndependenceSettings are the settings of IndependenceTest.
type IndependenceSettings struct {
	LSMISettings
	// Permutations is the number of permutations, at most
	// MaxPermutations. Zero means DefaultPermutations.
	Permutations int
}

// RankSettings are the settings of Rank.
type RankSettings struct {
	LSMISettings
	// PValuePermutations, when positive, gives each feature the p-value of
	// IndependenceTest with that many permutations, at most
	// MaxPermutations. Zero means no p-values.
	PValuePermutations int
}

// SampleRows returns (Draws + 2)·(K + M) with the defaults of the zero
// fields, the rows of each sample an estimate can read: each draw takes at
// most K + M rows of a sample (K centres and M averaging points), the
// cross-validation K + M more, and the median heuristic and a test's design
// at most K + M together. A caller that samples a large input while reading
// it (as the command line and package drift do) need keep no more. When
// the product overflows an int, math.MaxInt: every row. s may be nil.
func SampleRows(s *Settings) int {
	if s == nil {
		s = &Settings{}
	}
	r := s.resolved()
	k, m, d := uint64(max(r.K, 0)), uint64(max(r.M, 0)), uint64(max(r.Draws, 0))
	sum, carry := bits.Add64(k, m, 0)
	hi, prod := bits.Mul64(d+2, sum)
	if carry != 0 || hi != 0 || prod > math.MaxInt {
		return math.MaxInt
	}
	return int(prod)
}

// resolved returns s with every zero that asks for a default filled in
// (K, M, Draws, Folds, Src): the entry points resolve their settings once,
// and the code below them reads plain fields. Fields out of range are left
// as they are, for validate to refuse.
func (s Settings) resolved() Settings {
	s.K = resolve.OrDefault(s.K, DefaultK)
	s.M = resolve.OrDefault(s.M, DefaultM)
	s.Draws = resolve.OrDefault(s.Draws, DefaultDraws)
	s.Folds = resolve.OrDefault(s.Folds, DefaultFolds)
	if s.Src == nil {
		s.Src = rand.NewPCG(1, 2)
	}
	return s
}

// resolved returns a copy of s with its defaults filled in (see
// Settings.resolved).
func (s *PESettings) resolved() *PESettings {
	r := *s
	r.Settings = s.Settings.resolved()
	return &r
}

// resolved returns a copy of s with its defaults filled in.
func (s *LSMISettings) resolved() *LSMISettings {
	r := *s
	r.Settings = s.Settings.resolved()
	return &r
}

// resolved returns a copy of s with its defaults filled in, Permutations
// among them.
func (s *TwoSampleSettings) resolved() *TwoSampleSettings {
	r := *s
	r.PESettings = *s.PESettings.resolved()
	r.Permutations = resolve.OrDefault(s.Permutations, DefaultPermutations)
	return &r
}

// resolved returns a copy of s with its defaults filled in, Permutations
// among them.
func (s *IndependenceSettings) resolved() *IndependenceSettings {
	r := *s
	r.LSMISettings = *s.LSMISettings.resolved()
	r.Permutations = resolve.OrDefault(s.Permutations, DefaultPermutations)
	return &r
}

// resolved returns a copy of s with its defaults filled in.
func (s *RankSettings) resolved() *RankSettings {
	r := *s
	r.LSMISettings = *s.LSMISettings.resolved()
	return &r
}

// grid returns the grid given, or def when it is nil.
func grid(given, def []float64) []float64 {
	if given == nil {
		return def
	}
	return given
}

// validate checks the fields every estimator uses.
func (s *Settings) validate() error {
	bad := func(field string, v any, allowed, def string) error {
		return &SettingsError{Package: "divergence", Field: field, Value: v, Allowed: allowed, Default: def}
	}
	switch {
	case s.K < 0 || s.K > qmin.MaxK:
		return bad("K", s.K, fmt.Sprintf("need 1 to %d centres", qmin.MaxK), "DefaultK")
	case s.M < 0:
		return bad("M", s.M, "need at least 1 averaging point", "DefaultM")
	case s.Draws < 0 || s.Draws > MaxDraws:
		return bad("Draws", s.Draws, fmt.Sprintf("need 1 to %d draws", MaxDraws), "DefaultDraws")
	case s.Folds < 0 || s.Folds == 1 || s.Folds > MaxFolds:
		return bad("Folds", s.Folds, fmt.Sprintf("cross-validation needs 2 to %d folds", MaxFolds), "DefaultFolds")
	case s.Workers < 0:
		return bad("Workers", s.Workers, "need 0 (GOMAXPROCS) or more", "")
	}
	if err := checkWidth("Lambda", s.Lambda); err != nil {
		return err
	}
	for _, g := range []struct {
		name string
		v    []float64
	}{{"SigmaScales", s.SigmaScales}, {"LambdaScales", s.LambdaScales}} {
		if g.v != nil && len(g.v) == 0 {
			return bad(g.name, g.v, "an empty grid (nil: the default grid)", "")
		}
		for _, v := range g.v {
			if !(v > 0) || math.IsInf(v, 0) {
				return bad(g.name, g.v, "values must be positive and finite", "")
			}
		}
	}
	return nil
}

// checkWidth accepts zero (cross-validate) and positive finite values of a
// kernel width or regularisation, down to the smallest normal float64: a
// subnormal one has lost its precision, and the data divided by it overflow.
func checkWidth(field string, v float64) error {
	if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) || (v > 0 && v < smallestNormal) {
		return &SettingsError{Package: "divergence", Field: field, Value: v, Allowed: fmt.Sprintf("must be zero (cross-validate) or a positive finite number from %g to %g", smallestNormal, math.MaxFloat64)}
	}
	return nil
}

// checkPermutations accepts 0 to MaxPermutations.
func checkPermutations(field string, b int) error {
	if b < 0 || b > MaxPermutations {
		return &SettingsError{Package: "divergence", Field: field, Value: b, Allowed: fmt.Sprintf("need 0 to %d", MaxPermutations)}
	}
	return nil
}

// checkAlpha accepts α ∈ [0, 1).
func checkAlpha(alpha float64) error {
	if !(alpha >= 0 && alpha < 1) {
		return &SettingsError{Package: "divergence", Field: "alpha", Value: alpha, Allowed: "α must lie in [0, 1) (0: the plain Pearson divergence)"}
	}
	return nil
}

func (s *PESettings) validate() error {
	if err := s.Settings.validate(); err != nil {
		return err
	}
	return checkWidth("Sigma", s.Sigma)
}

func (s *LSMISettings) validate() error {
	if err := s.Settings.validate(); err != nil {
		return err
	}
	if err := checkWidth("SigmaX", s.SigmaX); err != nil {
		return err
	}
	switch {
	case s.Model != "" && s.Model != ModelKernel && s.Model != ModelCopula:
		return fmt.Errorf("divergence: %w: Model %q: want %q, %q or empty", ErrSettings, s.Model, ModelKernel, ModelCopula)
	case s.Model == ModelCopula && s.Exact:
		return fmt.Errorf("divergence: %w: Exact computes the kernel model's all-centre value; Model %q cannot be exact", ErrSettings, ModelCopula)
	}
	return checkWidth("SigmaY", s.SigmaY)
}

func (s *TwoSampleSettings) validate() error {
	if err := s.PESettings.validate(); err != nil {
		return err
	}
	if s.Points < 0 {
		return &SettingsError{Package: "divergence", Field: "Points", Value: s.Points, Allowed: "need at least 1 averaging point", Default: "TwoSamplePoints"}
	}
	return checkPermutations("Permutations", s.Permutations)
}

func (s *IndependenceSettings) validate() error {
	if err := s.LSMISettings.validate(); err != nil {
		return err
	}
	return checkPermutations("Permutations", s.Permutations)
}

func (s *RankSettings) validate() error {
	if err := s.LSMISettings.validate(); err != nil {
		return err
	}
	return checkPermutations("PValuePermutations", s.PValuePermutations)
}

// checkExact refuses Exact for more than MaxExact centres (n of them, named
// by what).
func (s *Settings) checkExact(n int, what string) error {
	if s.Exact && n > MaxExact {
		return fmt.Errorf("divergence: %w: the all-centre solution for %d %s takes O(n³) time and %.1f GB; the limit is MaxExact = %d: use the constant-time estimate", ErrTooLarge, n, what, 8*float64(n)*float64(n)/1e9, MaxExact)
	}
	return nil
}
