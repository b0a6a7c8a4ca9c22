// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/resolve"
	"github.com/sublinear/pearson/qmin"
)

// Defaults and limits.
const (
	// DefaultEmbed is the subsequence length k when Settings.Embed is zero,
	// as in Liu et al. (2013).
	DefaultEmbed = 10
	// DefaultWindow is the number n of subsequences on each side of a
	// candidate time when Settings.Window is zero, as in Liu et al. (2013).
	DefaultWindow = 50
	// MinWindow is the smallest window: the cross-validation of σ and λ
	// needs a few points in each of its folds.
	MinWindow = 10
	// DefaultAlpha is the α of the synthetic experiments of Liu et al.
	// (2013), the value to pass to Scores and NewDetector unless there is a
	// reason for another. Each direction of the score then lies in
	// [0, (1−α)/α] = [0, 9].
	DefaultAlpha = 0.1
	// DefaultK is the number of centres per draw when Settings.K is zero:
	// at the default window, every subsequence of the numerator window
	// can be a centre.
	DefaultK = 50
	// DefaultM is the averaging budget when Settings.M is zero: at the
	// default window, every subsequence of both windows.
	DefaultM = 100
	// DefaultDraws is the number of draws when Settings.Draws is zero.
	DefaultDraws = 4
	// DefaultThreshold is the score a change point must exceed when
	// Settings.Threshold is zero, calibrated on series of one column
	// without a change: with every other setting at its default and
	// α = DefaultAlpha, white Gaussian noise and the AR(2) noise of the
	// paper's benchmarks both give about one change point in 1000 rows
	// scored (see the package documentation for other settings and for
	// several columns).
	DefaultThreshold = 3.0
	// MaxWindow and MaxEmbed bound Window and Embed (of Settings and
	// SegmentSettings), so that a mistyped setting is refused rather than
	// exhausting memory: the two windows hold (2·Window + Embed − 1)·dim
	// values.
	MaxWindow = 1 << 24
	MaxEmbed  = 1 << 12
)

// Settings are the options of Scores and NewDetector. The zero value of
// every field asks for its default, and a nil pointer for all of them. α is
// not among them: it chooses the quantity scored, and is an argument.
//
// At each candidate time the n subsequences of Embed rows that start in the
// Window rows before it are compared with the n that start at it and after;
// the score is PE_α(after‖before) + PE_α(before‖after). By default each term
// is RuLSIF with K centres averaged over every subsequence of both windows
// and kept up to date row by row (σ, λ, the centres and the standardisation
// held for ⌈n/2⌉ rows, then recomputed exactly): O(K² + K·Embed·dim) a row.
// With M, Draws or Exact given, each term is estimated afresh at every
// candidate by divergence.RelativePE, with K centres and M averaging points
// per draw, O(Draws·K²·M) a step whatever the window (about 50 times slower).
type Settings struct {
	// Embed is the subsequence length k: each point is k consecutive rows
	// stacked into one vector of k·dim values. Zero means DefaultEmbed.
	Embed int
	// Window is the number n of subsequences in each of the two windows,
	// at least MinWindow. Zero means DefaultWindow.
	Window int
	// Step is the number of rows between candidate times. Zero means 1:
	// every time is scored.
	Step int
	// K is the number of centres of each draw, at most qmin.MaxK (and
	// capped at Window; by default at ⌊Window/2⌋, the subsequences that
	// stay in the numerator window between two refreshes). Zero means
	// DefaultK.
	K int
	// M is the number of points of both windows the kernel averages are
	// taken over in each draw; M ≥ 2·Window averages over every point.
	// Zero means DefaultM; given, each candidate is estimated afresh.
	M int
	// Draws is the number of draws whose mean estimates each direction.
	// Zero means DefaultDraws; given, each candidate is estimated afresh.
	Draws int
	// Exact computes RuLSIF's all-centre solution at every step instead
	// of the constant-time estimate, as the reference implementations do:
	// O(n³) per step, for windows up to divergence.MaxExact.
	Exact bool

	// Sigma fixes the kernel width σ, in units of the standardised
	// subsequences; Lambda fixes the all-centre regularisation λ. Zero
	// means the default estimate's fixed σ = 0.35·√(2·Embed·dim) and
	// λ = 0.003 (set for DefaultThreshold's false-alarm rate), or with
	// Retune, M, Draws or Exact given, a choice by cross-validation.
	Sigma, Lambda float64

	// Retune is the number of rows between choices of σ and λ. Each is
	// chosen by 5-fold cross-validation on the two windows of a candidate
	// time, over the grids of Liu et al. (2013): σ ∈ σ₀·{0.6, 0.8, 1, 1.2,
	// 1.4} with σ₀ the median heuristic, Kλ/n ∈ {10⁻³, 10⁻², 10⁻¹, 1, 10};
	// it costs about as much as the estimate and, like it, does not grow
	// with the window. Zero means never for the default estimate (fixed σ
	// and λ, see Sigma), and at every candidate time, as the paper does,
	// when M, Draws or Exact is given; a positive value holds σ and λ until the first candidate at
	// least Retune rows after the last choice; a negative value chooses
	// once, on the first candidate's windows. Holding them is faster but
	// less accurate: the choice follows whether its windows straddle a
	// change, and the scale of every score it holds follows the choice
	// (see the package tests). Fixed Sigma and Lambda are never re-tuned.
	Retune int

	// Threshold is the score a change point must exceed. Zero means
	// DefaultThreshold, about one false alarm in 1000 rows of one column
	// at the default settings (with several columns and the default
	// estimate, scaled to their correlation: Detector.Threshold); a
	// negative value keeps every peak.
	Threshold float64
	// MinDistance is the half-width, in rows, of the neighbourhood in
	// which a change point must have the highest score: a candidate time
	// is a change point if its score exceeds Threshold and every score
	// within MinDistance rows before it is lower and every score within
	// MinDistance rows after it is not higher. Change points are thus more
	// than MinDistance rows apart. Zero means Window.
	MinDistance int

	// Src is the source of randomness. Nil means rand.NewPCG(1, 2), so
	// that results are reproducible by default.
	Src rand.Source
	// Workers is the number of goroutines of each estimate; zero means
	// GOMAXPROCS. Results do not depend on it.
	Workers int
}

// params are the settings with every default filled in.
type params struct {
	embed, window, step int
	alpha               float64
	k, m, draws         int
	exact               bool
	incremental         bool // neither M, Draws nor Exact set
	sigma, lambda       float64
	retune              int // rows; 0: every candidate; negative: never
	threshold           float64
	minDistance         int
	src                 rand.Source
	workers             int
}

// resolve validates s and α and fills in the defaults.
func (s *Settings) resolve(alpha float64) (*params, error) {
	if s == nil {
		s = &Settings{}
	}
	bad := func(field string, v any, allowed string) error {
		return &SettingsError{Package: "changepoint", Field: field, Value: v, Allowed: allowed}
	}
	// byDefault is bad for a field whose zero asks for the default def.
	byDefault := func(field string, v any, allowed, def string) error {
		return &SettingsError{Package: "changepoint", Field: field, Value: v, Allowed: allowed, Default: def}
	}
	switch {
	case s.Embed < 0 || s.Embed > MaxEmbed:
		return nil, byDefault("Embed", s.Embed, fmt.Sprintf("need a subsequence of 1 to %d rows", MaxEmbed), "DefaultEmbed")
	case s.Window < 0 || (s.Window > 0 && s.Window < MinWindow) || s.Window > MaxWindow:
		return nil, byDefault("Window", s.Window, fmt.Sprintf("need %d to %d subsequences", MinWindow, MaxWindow), "DefaultWindow")
	case s.Step < 0:
		return nil, bad("Step", s.Step, "need 1 row or more (0: every row)")
	case !(alpha >= 0 && alpha < 1):
		return nil, bad("alpha", alpha, "α must lie in [0, 1) (0: the plain Pearson divergence, whose ratio is unbounded)")
	case s.K < 0 || s.K > qmin.MaxK:
		return nil, byDefault("K", s.K, fmt.Sprintf("need 1 to %d centres", qmin.MaxK), "DefaultK")
	case s.M < 0:
		return nil, byDefault("M", s.M, "need 1 averaging point or more", "DefaultM")
	case s.Draws < 0 || s.Draws > divergence.MaxDraws:
		return nil, byDefault("Draws", s.Draws, fmt.Sprintf("need 1 to %d draws", divergence.MaxDraws), "DefaultDraws")
	case math.IsNaN(s.Threshold) || math.IsInf(s.Threshold, 0):
		return nil, bad("Threshold", s.Threshold, "must be a finite number (0: DefaultThreshold; negative: every peak)")
	case s.MinDistance < 0:
		return nil, byDefault("MinDistance", s.MinDistance, "need 1 row or more", "Window")
	case s.Sigma < 0 || math.IsNaN(s.Sigma) || math.IsInf(s.Sigma, 0):
		return nil, bad("Sigma", s.Sigma, "must be a positive finite number (0: cross-validate)")
	case s.Lambda < 0 || math.IsNaN(s.Lambda) || math.IsInf(s.Lambda, 0):
		return nil, bad("Lambda", s.Lambda, "must be a positive finite number (0: cross-validate)")
	case s.Workers < 0:
		return nil, bad("Workers", s.Workers, "need 0 (GOMAXPROCS) or more")
	}
	p := &params{
		embed:       resolve.OrDefault(s.Embed, DefaultEmbed),
		window:      resolve.OrDefault(s.Window, DefaultWindow),
		step:        resolve.OrDefault(s.Step, 1),
		alpha:       alpha,
		k:           resolve.OrDefault(s.K, DefaultK),
		m:           resolve.OrDefault(s.M, DefaultM),
		draws:       resolve.OrDefault(s.Draws, DefaultDraws),
		exact:       s.Exact,
		incremental: !s.Exact && s.M == 0 && s.Draws == 0,
		sigma:       s.Sigma,
		lambda:      s.Lambda,
		threshold:   s.Threshold,
		src:         s.Src,
		workers:     s.Workers,
	}
	p.retune = s.Retune
	if p.threshold == 0 {
		p.threshold = DefaultThreshold
	}
	p.minDistance = resolve.OrDefault(s.MinDistance, p.window)
	if p.src == nil {
		p.src = rand.NewPCG(1, 2)
	}
	if p.exact && p.window > divergence.MaxExact {
		return nil, bad("Window", p.window, fmt.Sprintf("the all-centre solution (Exact) takes at most divergence.MaxExact = %d subsequences", divergence.MaxExact))
	}
	return p, nil
}
