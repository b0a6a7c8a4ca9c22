// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/isnil"
)

// The cross-validation grids of Liu et al. (2013): σ as multiples of the
// median heuristic of the standardised subsequences, and λ, which is the
// all-centre λ when the K centres are the whole window (in general they are
// values of Kλ/n, see divergence.Settings.LambdaScales).
var (
	sigmaScales  = []float64{0.6, 0.8, 1, 1.2, 1.4}
	lambdaScales = []float64{1e-3, 1e-2, 1e-1, 1, 10}
)

// tuneRows is the number of subsequences of each window that a choice of σ
// and λ reads, drawn uniformly: cross-validation draws its centres and
// averaging points within the budgets K and M anyway, but the median
// heuristic σ₀ reads up to 500 rows of each sample, a cost that would grow
// with the window up to that size.
const tuneRows = 200

// Score is the change-point score of one candidate time.
type Score struct {
	// Time is the row of the candidate, counted from 0: the middle of the
	// subsequences that straddle the boundary between the two windows.
	// With after window starting at row b, Time = b + ⌊k/2⌋, so that a
	// change whose first new row is c scores highest near Time = c.
	Time int
	// Value is the score PE_α(after‖before) + PE_α(before‖after). Each term
	// lies in [0, (1−α)/α] up to estimation noise, which can make it
	// slightly negative when nothing changed.
	Value float64
	// After and Before are the two terms: PE_α(after‖before), with the
	// after window in the numerator, and PE_α(before‖after).
	After, Before float64
}

// Width is a kernel width σ, in units of the standardised subsequences,
// and an all-centre regularisation λ, as divergence.RelativePE reports
// them.
type Width struct {
	Sigma, Lambda float64
}

// Tuning records a choice of σ and λ by cross-validation.
type Tuning struct {
	// Time is the candidate time whose windows chose them.
	Time int
	// After is used for PE_α(after‖before), Before for PE_α(before‖after).
	After, Before Width
}

// Detector scores a series row by row, as it arrives. It keeps the last
// 2n + k − 1 rows only (n = Window, k = Embed), whatever the length of the
// series, and the scores of the last MinDistance rows for the detection of
// change points.
type Detector struct {
	p     *params
	g     *ring
	inc   *incremental // nil: each candidate estimated afresh
	rnd   *rand.Rand
	peaks peaks
	found []Score // confirmed change points not yet taken

	// byColumns is set when the threshold is the default and follows the
	// columns' participation ratio (columnThreshold).
	byColumns bool

	tuning   Tuning
	tuned    bool
	lastTune int // boundary row of the last tuning
	scored   bool

	// exp[c] is the power of two column c is multiplied by, known[c]
	// whether it is fixed (at the column's first nonzero value); scaled is
	// the row so multiplied.
	exp    []int
	known  []bool
	scaled []float64
}

// NewDetector returns a Detector for rows of dim columns whose score is the
// symmetrised PE_α, α ∈ [0, 1) (DefaultAlpha is the paper's; α = 0 the plain
// Pearson divergence, whose ratio is unbounded). s may be nil: all
// defaults. A setting or α out of range gives a *SettingsError; a dim
// whose rows would hold more than MaxDetectorValues values an error
// wrapping ErrTooLarge.
//
// The methods of a nil *Detector do not panic: Push and Flush return an
// error, the others the zero value.
func NewDetector(dim int, alpha float64, s *Settings) (*Detector, error) {
	p, err := s.resolve(alpha)
	if err != nil {
		return nil, err
	}
	if dim < 1 {
		return nil, fmt.Errorf("changepoint: %w: a series needs at least one column, not %d", ErrDimension, dim)
	}
	if v := float64(2*p.window+6*p.embed) * float64(dim); v > MaxDetectorValues {
		return nil, fmt.Errorf("changepoint: %w: %d columns in windows of %d rows would hold %.3g values (%.1f GB), above MaxDetectorValues = %d",
			ErrTooLarge, dim, 2*p.window+p.embed-1, v, 8*v/1e9, MaxDetectorValues)
	}
	d := &Detector{
		p:     p,
		g:     newRing(p.window, p.embed, dim),
		rnd:   rand.New(p.src),
		peaks: peaks{threshold: p.threshold, dist: p.minDistance},
	}
	if p.incremental {
		d.inc = newIncremental(p.window, p.k, p.embed*dim, alpha)
		d.byColumns = dim > 1 && (s == nil || s.Threshold == 0)
	}
	return d, nil
}

// MaxDetectorValues bounds the values a Detector's windows hold, about
// (2n + 6k)·dim for n = Window, k = Embed and dim columns: 800 MB.
const MaxDetectorValues = 100_000_000

// MinRows returns the number of rows needed for one score: 2n + k − 1,
// the two windows of n subsequences of k rows.
func (d *Detector) MinRows() int {
	if d == nil {
		return 0
	}
	return d.g.cap
}

// Rows returns the number of rows pushed so far.
func (d *Detector) Rows() int {
	if d == nil {
		return 0
	}
	return d.g.rows
}

// Tuning returns the σ and λ in use, and false before the first score.
func (d *Detector) Tuning() (Tuning, bool) {
	if d == nil {
		return Tuning{}, false
	}
	return d.tuning, d.tuned
}

// Threshold returns the score a change point must exceed at the latest
// candidate: Settings.Threshold, or DefaultThreshold; with several columns,
// the default estimate and no Threshold given, DefaultThreshold scaled to
// the columns' participation ratio over the latest refresh's windows (see
// columnThreshold).
func (d *Detector) Threshold() float64 {
	if d == nil {
		return 0
	}
	return d.peaks.threshold
}

// Push appends the next row of the series and, when it completes the
// windows of a candidate time, returns that time's score and true. The row
// is copied. A row of the wrong length gives an error wrapping
// ErrDimension, and a NaN or infinite value a *DataError; the Detector is
// unchanged by either.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func (d *Detector) Push(ctx context.Context, row []float64) (Score, bool, error) {
	isnil.Context(ctx, "changepoint.Detector.Push")
	if d == nil {
		return Score{}, false, errNilDetector
	}
	g := d.g
	if len(row) != g.dim {
		return Score{}, false, fmt.Errorf("changepoint: %w: row %d has %d columns, want %d", ErrDimension, g.rows, len(row), g.dim)
	}
	for c, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Score{}, false, &DataError{Row: g.rows, Column: c, Value: v}
		}
	}
	// Each column is multiplied by a power of two, fixed at its first
	// nonzero value, so that the sums of squares that standardise it can
	// neither underflow nor overflow whatever the scale of the series
	// (exactly: a power of two changes no rounding).
	if d.scaled == nil {
		d.scaled, d.exp, d.known = make([]float64, g.dim), make([]int, g.dim), make([]bool, g.dim)
	}
	for c, v := range row {
		if !d.known[c] && v != 0 {
			_, e := math.Frexp(v)
			d.exp[c], d.known[c] = -e, true
		}
		d.scaled[c] = math.Ldexp(v, d.exp[c])
		if math.Abs(d.scaled[c]) > 1<<500 {
			return Score{}, false, fmt.Errorf("changepoint: %w: row %d, column %d is %v, over 2⁵⁰⁰ times the column's first nonzero value: no scale standardises both", ErrNonFinite, g.rows, c, v)
		}
	}
	g.push(d.scaled)
	if !g.full() {
		return Score{}, false, nil
	}
	b := g.boundary()
	if (b-g.n)%d.p.step != 0 {
		return Score{}, false, nil
	}
	s, err := d.score(ctx, b)
	if err != nil {
		return Score{}, false, err
	}
	d.scored = true
	d.found = append(d.found, d.peaks.add(s)...)
	return s, true, nil
}

// ChangePoints returns the change points confirmed since the last call. A
// change point is confirmed once the scores MinDistance rows after it
// have arrived.
func (d *Detector) ChangePoints() []Score {
	if d == nil {
		return nil
	}
	f := d.found
	d.found = nil
	return f
}

// Flush ends the series and returns the change points not yet returned by
// ChangePoints, those whose neighbourhood the end of the series cut short
// included. If the series was too short for a single score it returns an
// error wrapping ErrTooFew.
func (d *Detector) Flush() ([]Score, error) {
	if d == nil {
		return nil, errNilDetector
	}
	if !d.scored {
		return nil, d.tooFew(d.g.rows)
	}
	return append(d.ChangePoints(), d.peaks.flush()...), nil
}

// tooFew is the error for a series of rows rows, too short for one score.
func (d *Detector) tooFew(rows int) error {
	return fmt.Errorf("changepoint: %w: the series has %d rows, but two windows of %d subsequences of %d rows need at least %d", ErrTooFew, rows, d.g.n, d.g.k, d.g.cap)
}

// score computes the score of the candidate whose after window starts at
// row b, re-tuning σ and λ first when they are due.
func (d *Detector) score(ctx context.Context, b int) (Score, error) {
	g := d.g
	s := Score{Time: b + g.k/2}
	if !g.standardise() {
		// Every subsequence of both windows is the same point: nothing
		// changed, and there is no scale to tune a kernel on.
		if d.inc != nil {
			d.inc.ready = false
		}
		return s, nil
	}
	if d.inc != nil {
		return d.scoreIncremental(ctx, b, s)
	}
	return d.scoreAfresh(ctx, b, s)
}

// scoreAfresh estimates both terms of the candidate at boundary b by
// divergence.RelativePE on its windows, re-tuning σ and λ first when due.
func (d *Detector) scoreAfresh(ctx context.Context, b int, s Score) (Score, error) {
	g := d.g
	before, after := window{g: g, first: b - g.n}, window{g: g, first: b}
	retune := !d.tuned || (d.p.retune >= 0 && b-d.lastTune >= d.p.retune)
	var err error
	if s.After, err = d.pe(ctx, after, before, &d.tuning.After, retune, s.Time); err != nil {
		return Score{}, err
	}
	if s.Before, err = d.pe(ctx, before, after, &d.tuning.Before, retune, s.Time); err != nil {
		return Score{}, err
	}
	if retune {
		d.tuned, d.lastTune, d.tuning.Time = true, b, s.Time
	}
	s.Value = s.After + s.Before
	return s, nil
}

// pe estimates PE_α(num‖den) with the width w, or chooses w by
// cross-validation first when retune.
func (d *Detector) pe(ctx context.Context, num, den window, w *Width, retune bool, time int) (float64, error) {
	s := d.peSettings()
	if retune {
		if err := d.tune(ctx, num, den, s, time); err != nil {
			return 0, err
		}
	} else {
		s.Sigma, s.Settings.Lambda = w.Sigma, w.Lambda
	}
	d.fixed(s)
	if !retune {
		// σ and λ held: PE is all that is read.
		pe, err := divergence.RelativePEValue(ctx, num, den, d.p.alpha, s)
		if err != nil {
			return 0, fmt.Errorf("changepoint: time %d: %w", time, err)
		}
		return pe, nil
	}
	res, err := divergence.RelativePE(ctx, num, den, d.p.alpha, s)
	if err != nil {
		return 0, fmt.Errorf("changepoint: time %d: %w", time, err)
	}
	w.Sigma, w.Lambda = res.Sigma, res.Lambda
	return res.PE, nil
}

// peSettings returns the settings of one estimate, with a source drawn
// from the Detector's.
func (d *Detector) peSettings() *divergence.PESettings {
	s := &divergence.PESettings{Settings: divergence.Settings{
		K: d.p.k, M: d.p.m, Draws: d.p.draws, Exact: d.p.exact,
		Src: rand.NewPCG(d.rnd.Uint64(), d.rnd.Uint64()), Workers: d.p.workers,
	}}
	s.SigmaScales, s.LambdaScales = sigmaScales, lambdaScales
	return s
}

// fixed puts the fixed Sigma and Lambda of the settings, if any, in s.
func (d *Detector) fixed(s *divergence.PESettings) {
	if d.p.sigma != 0 {
		s.Sigma = d.p.sigma
	}
	if d.p.lambda != 0 {
		s.Settings.Lambda = d.p.lambda
	}
}

// tune chooses σ and λ by cross-validation on the windows num and den and
// puts them in s, fixed Sigma and Lambda left as they are.
func (d *Detector) tune(ctx context.Context, num, den window, s *divergence.PESettings, time int) error {
	d.fixed(s)
	if s.Sigma != 0 && s.Settings.Lambda != 0 {
		return nil
	}
	// Choose σ and λ once on the windows, then score with them held:
	// with one draw RelativePE cross-validates once, on the windows'
	// own design, where with several each draw would tune on its own
	// share of the budget (docs/DESIGN.md §9).
	var p, q mat.Matrix = num, den
	if !d.p.exact && d.g.n > tuneRows {
		// A uniform sample of each window stands for it: λ keeps its
		// meaning for n subsequences. The all-centre solution (Exact)
		// reads every subsequence.
		tn, td := num, den
		tn.rows = indices.Sample(d.g.n, tuneRows, false, d.rnd)
		td.rows = indices.Sample(d.g.n, tuneRows, false, d.rnd)
		p, q = divergence.Subsample{Matrix: tn, Rows: d.g.n}, divergence.Subsample{Matrix: td, Rows: d.g.n}
	}
	t := *s
	t.Draws = 1
	res, err := divergence.RelativePE(ctx, p, q, d.p.alpha, &t)
	if err != nil {
		return fmt.Errorf("changepoint: time %d: %w", time, err)
	}
	s.Sigma, s.Settings.Lambda = res.Sigma, res.Lambda
	return nil
}

// scoreIncremental is score with the incremental estimate: it brings the
// state to the candidate at boundary b, refreshing it (and re-tuning σ and
// λ when due) when a refresh is due, and reads the two terms.
func (d *Detector) scoreIncremental(ctx context.Context, b int, s Score) (Score, error) {
	e := d.inc
	if !e.due(b) {
		for e.at < b && e.advance(d.g) {
		}
		if e.at != b {
			e.ready = false // a downdate failed: refresh
		}
	}
	if e.due(b) {
		ok, err := d.refresh(ctx, b, s.Time)
		if err != nil {
			return Score{}, err
		}
		if !ok {
			// Rounding defeated the Cholesky factor of a held basis:
			// this candidate takes the estimate afresh.
			return d.scoreAfresh(ctx, b, s)
		}
		if d.byColumns {
			d.peaks.threshold = columnThreshold(d.g.participation())
		}
	}
	s.After, s.Before = e.pe(0), e.pe(1)
	s.Value = s.After + s.Before
	return s, nil
}

// refresh re-tunes σ and λ on the windows of the candidate at boundary b
// when due, then recomputes the incremental state there. Without Retune,
// σ and λ are the fixed streamSigma·√(2·Embed·dim) and streamLambda, or
// the settings' Sigma and Lambda.
func (d *Detector) refresh(ctx context.Context, b, time int) (bool, error) {
	switch {
	case d.p.retune == 0 && !d.tuned:
		w := Width{Sigma: streamSigma * math.Sqrt(2*float64(d.g.k*d.g.dim)), Lambda: streamLambda}

		if d.p.sigma != 0 {
			w.Sigma = d.p.sigma
		}
		if d.p.lambda != 0 {
			w.Lambda = d.p.lambda
		}
		d.tuning = Tuning{Time: time, After: w, Before: w}
		d.tuned, d.lastTune = true, b
	case d.p.retune != 0 && (!d.tuned || (d.p.retune > 0 && b-d.lastTune >= d.p.retune)):
		before, after := window{g: d.g, first: b - d.g.n}, window{g: d.g, first: b}
		for _, t := range []struct {
			num, den window
			w        *Width
		}{{after, before, &d.tuning.After}, {before, after, &d.tuning.Before}} {
			s := d.peSettings()
			if err := d.tune(ctx, t.num, t.den, s, time); err != nil {
				return false, err
			}
			t.w.Sigma, t.w.Lambda = s.Sigma, s.Settings.Lambda
		}
		d.tuned, d.lastTune, d.tuning.Time = true, b, time
	}
	return d.inc.refresh(d.g, b, [2]Width{d.tuning.After, d.tuning.Before}), nil
}

// The incremental estimate's kernel width, in units of √(2·Embed·dim), the
// typical distance of two standardised subsequences, and its all-centre
// regularisation λ, when Retune is zero. They were chosen on the false
// alarms of BenchmarkFalseAlarms (white and AR(2) noise, 2 × 20 000 rows)
// and the ROC AUCs of TestBenchmarks: (σ, λ) = (0.35, 0.003) gives 0.73
// false alarms in 1000 rows at DefaultThreshold, as the cross-validated
// estimate it replaces (0.70 and 1.0), and AUCs 0.73, 0.76, 0.86, 0.54,
// 0.80, 0.61 on the six series (cross-validated at every row: 0.73, 0.70,
// 0.76, 0.56, 0.77, 0.58); λ = 0.01 gives 0.05 false alarms in 1000 rows
// and λ = 0.001 1.7; σ = 0.5 or 0.7 lower AUCs (0.65 on the scaling
// variance at 0.7).
const (
	streamSigma  = 0.35
	streamLambda = 0.003
)

// columnThreshold is the default threshold of the incremental estimate on
// columns whose correlation matrix has participation ratio p ∈ [1, dim]:
// DefaultThreshold·(0.7 + 0.3·p^−1.9). The quiet scores of the default
// estimate are lower on several columns than on one (the σ and λ are fixed,
// and the kernel sees independent columns as a higher-dimensional cloud of
// points that it overfits less), so that DefaultThreshold, set on one
// column, held two independent columns of white and AR(2) noise to 0.10
// false alarms in 1000 rows and five to none, and a 1-sd mean shift beside
// an independent column was found in 25 of 40 series, against 38 with this
// threshold and 38 in the small column alone (BenchmarkColumnThreshold).
// Columns that are one up to scale are one column to the kernel. The
// threshold giving 0.73 in 1000 rows, as DefaultThreshold gives on one
// column, measured on 2 × 20 000 rows: 3.00 at p = 1, 2.96 (two columns,
// ρ = 0.99, p ≈ 1.0), 2.66 (ρ = 0.9, p ≈ 1.1), 2.63 (five sharing one
// factor, ρ = 0.9, p ≈ 1.2), 2.39 (ρ = 0.5, p ≈ 1.6), 2.34, 2.28, 2.18 and
// 2.09 for 2, 3, 5 and 10 independent columns; the curve is within 0.1 of
// each, and above it (fewer alarms) where it misses by more. On other
// series the benchmark counts 0.48–0.88 false alarms in 1000 rows on all
// nine (0.50 on one column).
func columnThreshold(p float64) float64 {
	return DefaultThreshold * (0.7 + 0.3*math.Pow(max(p, 1), -1.9))
}
