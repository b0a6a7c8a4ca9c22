// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/isnil"
	"github.com/sublinear/pearson/internal/spread"
)

// Limits and defaults of Segment.
const (
	// MinSegmentRows is the shortest series Segment takes: two windows of
	// three rows about one candidate time need seven.
	MinSegmentRows = 8
	// PenaltyPerLogRow sets the calibrated score (see Segment) a change
	// must exceed when SegmentSettings.Penalty is zero: PenaltyPerLogRow·ln T
	// for a series of T rows, which grows as the largest of T calibrated
	// scores of a series without a change does. It was chosen, with the
	// kernel's λ, on the tuning seeds of the package's benchmark of annotated
	// series (benchmark_test.go), for few false alarms on series without a
	// change: 1.5, 1.8 and 2.1 gave mean F1 0.837, 0.850 and 0.851 there
	// (at σ = 1), and 2 keeps every series without a change of the tuning
	// seeds free of false alarms.
	PenaltyPerLogRow = 2.0
	// maxSegmentWindow is the largest adaptive window: the window of the
	// paper's experiments (DefaultWindow).
	maxSegmentWindow = DefaultWindow
	// minSide is the fewest subsequences on either side of a candidate.
	minSide = 3
	// segmentK and segmentM are the centres and the averaging points of
	// each estimate: at windows up to segmentK every subsequence is a
	// centre and every point is averaged over.
	segmentK, segmentM = 20, 60
	// segmentLambda is the all-centre regularisation λ of each estimate,
	// segmentSigma the kernel width σ in units of the median distance of
	// standardised Gaussian points, √(2·dimension).
	// segmentLambda is the all-centre regularisation λ of each estimate,
	// segmentSigma the kernel width σ in units of the median distance of
	// standardised Gaussian points, √(2·dimension). Chosen with
	// PenaltyPerLogRow on the benchmark's tuning seeds: σ ∈ {0.35, 0.5, 0.7,
	// 1} × that distance, λ ∈ {0.05, 0.1, 0.2, 0.5, 1}.
	segmentLambda, segmentSigma = 0.5, 0.5

	// calibrationPoints is the number of candidates, spread over the
	// series, whose scores calibrate each window size smaller than the
	// window.
	calibrationPoints = 32
	// segmentScanRows is the most candidates the first scan of Segment
	// scores: a longer series is scanned every ⌈T/segmentScanRows⌉ rows.
	segmentScanRows = 20000
	// maxRounds bounds the rounds of refinement and rescanning.
	maxRounds = 10
	// strideNear is the fraction of the penalty above which a peak of a
	// strided scan (Params.Stride > 1) is rescored row by row near it
	// before it is judged (nearPeaks): the scan saw it up to Stride/2 rows
	// off, in windows that held rows of the other side (at 2000 rows, 25
	// rows off in windows of 132 rows, a shift of 2 scored a sixth of its
	// best; at 10⁶, calibrated, two thirds).
	strideNear = 0.25
	// strideNearPeaks bounds the number of such peaks rescored.
	strideNearPeaks = 32
)

// SegmentSettings are the options of Segment. The zero value of every
// field asks for its default, and a nil pointer for all of them.
type SegmentSettings struct {
	// Embed is the subsequence length k. Zero means adaptive: 1 row for
	// series shorter than 200 rows, 2 up to 1000, 3 beyond (SegmentParams).
	Embed int
	// Window is the largest number n of subsequences on each side of a
	// candidate time. Zero means adaptive: ⌊√T⌋ for a series of T rows,
	// between 3 and DefaultWindow (SegmentParams).
	Window int
	// MinDistance is the half-width, in rows, of the neighbourhood in
	// which a change must have the highest calibrated score. Zero means
	// max(2, ⌊Window/3⌋).
	MinDistance int
	// Changes, if positive, asks for exactly that many changes (or every
	// local maximum of the score if there are fewer): the highest, whatever
	// Penalty.
	Changes int
	// Penalty is the calibrated score a change must exceed. Zero means
	// PenaltyPerLogRow·ln T for a series of T rows of one column, and
	// PenaltyPerLogRow·ln((d + 1)·T) for d > 1 columns (the calibrated
	// score is then the largest of d + 1, see Segment).
	// A Penalty P multiplies the penalties of the spread and level rules
	// (RuleSpread, RuleLevel) by P over that default: one knob for every
	// rule.
	Penalty float64
	// Src is the source of randomness. Nil means rand.NewPCG(1, 2).
	Src rand.Source
	// Progress, if not nil, is called from Segment's goroutine as the work
	// proceeds, with the work done and the total, in units of about the
	// cost of one row of the steps rule (a window score counts
	// segmentScoreUnits per component), at most about a thousand times,
	// and with done = total at the end.
	Progress func(done, total int)
}

// SegmentParams are the settings Segment used, every default filled in.
type SegmentParams struct {
	Embed, Window, MinDistance int
	// Stride is the number of rows between the candidates of the first
	// scan (Segmentation.Scores): 1 up to segmentScanRows = 20000
	// candidates, ⌈T/20000⌉ beyond. Refinement scores every row.
	Stride  int
	Changes int
	Penalty float64
}

// Change is a change point found by Segment.
type Change struct {
	// Time is the first row of the new segment, counted from 0.
	Time int
	// Score is the size-weighted divergence at Time (see Segment), and
	// Calibrated the same in units of the series' own spread of scores
	// (with several columns, the largest of the joint score's and each
	// column's, each in units of its own spread).
	Score, Calibrated float64
	// What names what differs most between the rows just before Time and
	// just after: "level" (a mean), "spread" (a standard deviation),
	// "dependence" (a correlation between columns), or "shape" when none
	// of those moments differs by two standard errors.
	What string
	// Strength is the test statistic of What: |Δ mean|, |Δ log variance|
	// or |Δ Fisher z| over its standard error (0 for shape).
	Strength float64
	// Rule is the rule that found the change: RuleDivergence (a calibrated
	// score above the penalty), RuleSpread (a change of spread over whole
	// segments) or RuleLevel (a change of level over whole segments); the
	// Score and Calibrated of the last two are the windows' at Time and
	// may lie below the penalty.
	Rule string
}

// The rules of Change.Rule.
const (
	// RuleDivergence: the change's calibrated score exceeds the penalty.
	RuleDivergence = "divergence"
	// RuleSpread: the scaled Gamma deviance of a change of spread of the
	// first differences, over the segment between its neighbouring
	// changes, exceeds 2·(d + 1)·ln T (d columns, T rows), or, with d > 1,
	// one column's exceeds 4·ln T + 2·ln d (spreadChanges).
	RuleSpread = "spread"
	// RuleLevel: a change of level over the segment between its
	// neighbouring changes, its χ² statistic at the segment's own
	// long-run variance, exceeds 2·(d + 1)·ln T, or, with d > 1, one
	// column's exceeds 4·ln T + 2·ln d (levelChanges).
	RuleLevel = "level"
	// RuleSteps: a change of level found by penalised least squares over
	// the segment between its neighbouring changes, at the noise's
	// long-run variance estimated from differences (stepChanges), several
	// per segment; its Calibrated is the drop of the weighted cost.
	RuleSteps = "steps"
)

// Span is a segment of the series: the rows between two changes.
type Span struct {
	// Start is its first row and End one past its last.
	Start, End int
}

// Segmentation is the outcome of Segment.
type Segmentation struct {
	// Params are the settings used.
	Params SegmentParams
	// Scores holds the score of every candidate time of the first scan
	// (every Params.Stride-th row), in time order: Time
	// is the first row of the after window, Value the size-weighted
	// divergence and After and Before its two terms (unweighted).
	Scores []Score
	// Calibrated holds the calibrated score of each of Scores.
	Calibrated []float64
	// Median and Spread are the median and the scaled median absolute
	// deviation (1.4826·MAD) of the scores of full windows, which
	// calibrate them; smaller windows are calibrated likewise, each size on
	// its own scores.
	Median, Spread float64
	// Changes holds the change points in time order.
	Changes []Change
	// Segments holds the len(Changes)+1 segments, in time order.
	Segments []Span
}

// SegmentParamsFor returns the settings Segment uses on a series of rows
// rows of one column: s with the adaptive defaults filled in. With d > 1
// columns Segment raises the default penalty to PenaltyPerLogRow·ln((d +
// 1)·rows) (Segmentation.Params holds it).
func SegmentParamsFor(rows int, s *SegmentSettings) SegmentParams {
	if s == nil {
		s = &SegmentSettings{}
	}
	p := SegmentParams{Embed: s.Embed, Window: s.Window, MinDistance: s.MinDistance, Changes: s.Changes, Penalty: s.Penalty}
	if p.Embed == 0 {
		switch {
		case rows < 200:
			p.Embed = 1
		case rows < 1000:
			p.Embed = 2
		default:
			p.Embed = 3
		}
	}
	if p.Window == 0 {
		p.Window = min(maxSegmentWindow, max(3, int(math.Sqrt(float64(rows)))))
	}
	if p.MinDistance == 0 {
		p.MinDistance = max(2, p.Window/3)
	}
	if p.Penalty == 0 {
		p.Penalty = PenaltyPerLogRow * math.Log(float64(rows))
	}
	p.Stride = max(1, (rows+segmentScanRows-1)/segmentScanRows)
	return p
}

// Segment finds the change points of a whole series whose rows are in time
// order (one or more columns), and the segments between them, with
// defaults that adapt to the length T of the series.
//
// Every row b with at least three subsequences of k rows on either side is
// a candidate: its before window holds the n_b subsequences that end at
// row b − 1 at the latest, its after window the n_b that start at b or
// later, n_b the largest size of the ladder 3, 4, 5, 6, 8, 10, 13, 16, 20,
// 25, 32, 40, n that fits in min(n, b − k + 1, T − b − k + 1) (so the
// windows shrink at the edges of the series). Each coordinate is
// standardised over the two windows, and the score is
//
//	score(b) = n_b · (PE_α(after‖before) + PE_α(before‖after)),
//
// each term estimated by divergence.RelativePE with fixed σ and λ (the
// factor n_b makes it a test statistic whose scale under no change does
// not grow with n_b). The scores are calibrated on the series itself, each
// window size on its own: z(b) = (score(b) − m)/s, m and s the median and
// the scaled median absolute deviation of the scores of that size (of every
// candidate for the full size n, of calibrationPoints candidates spread
// over the series for each smaller one), so that a trend, a seasonal cycle
// or a random walk, which raise every score alike, do not read as changes.
// With d > 1 columns each column j is also scored on its own coordinates,
// score_j(b), at the width for k coordinates — one kernel width over k·d
// coordinates dilutes a change in one column — and calibrated likewise on
// its own scores; z(b) is then the largest of the d + 1 calibrated scores
// (the joint one sees changes of dependence, which no column does), and
// the default Penalty grows to PenaltyPerLogRow·ln((d + 1)·T).
// A change point is a z above Penalty that is the highest within
// MinDistance rows on either side (or one of the Changes highest such
// maxima). Each is then refined: the scores within MinDistance rows of it
// are recomputed with windows that stop at the neighbouring change points,
// and the best is kept. Then the candidates whose full windows reached past
// a change are scored again with windows that stop at the changes found,
// and the best of each segment above Penalty is added (unless Changes is
// set), until none is: changes closer than a window apart are placed, and
// found, by their own rows.
//
// Unless Changes is set, each segment between the change points is then
// searched for a change of spread over its whole length (spreadChanges:
// the scaled Gamma deviance of the absolute first differences above
// 2·(d + 1)·ln T, or with several columns one column's above
// 4·ln T + 2·ln d), which windows of n rows see too weakly; then each
// segment between all the changes for a change of level (levelChanges:
// the χ² of a step, at the long-run variance of the segment's clipped
// values, in a model that keeps a linear or quadratic trend when the
// segment has one, above 2·(d + 1)·ln T, or one column's above
// 4·ln T + 2·ln d; quiet when the residuals are persistent, as a random
// walk's). Change.Rule says which rule found each change.
//
// Before scoring, a column whose robust linear trend is significant is
// de-trended (robustDetrend): a steep trend would otherwise raise every
// score and hide a shift. The values are rescaled by a power of two per
// column before anything else, so that a series multiplied by any factor in 1e-300 … 1e300 gives
// the same change points (a power of two exactly). A NaN or infinite value
// gives a *DataError; a series shorter than MinSegmentRows, or nil, an
// error wrapping ErrTooFew (after the settings are checked, so that a nil
// series checks them). s may be nil: all defaults.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func Segment(ctx context.Context, series mat.Matrix, alpha float64, s *SegmentSettings) (*Segmentation, error) {
	isnil.Context(ctx, "changepoint.Segment")
	if s == nil {
		s = &SegmentSettings{}
	}
	if err := s.validate(alpha); err != nil {
		return nil, err
	}
	if isnil.Is(series) {
		return nil, fmt.Errorf("changepoint: %w: the series is nil", ErrTooFew)
	}
	rows, dim := series.Dims()
	p := SegmentParamsFor(rows, s)
	wholeScale := scalePenalties(&p, s, rows, dim)
	if rows < MinSegmentRows || rows < 2*(minSide+p.Embed-1)+1 {
		return nil, fmt.Errorf("changepoint: %w: the series has %d rows; segmenting it (Embed %d) needs at least %d", ErrTooFew, rows, p.Embed, max(MinSegmentRows, 2*(minSide+p.Embed-1)+1))
	}
	x, err := rescaled(series)
	if err != nil {
		return nil, err
	}
	slopes := robustDetrend(x, p.Window)
	src := s.Src
	if src == nil {
		src = rand.NewPCG(1, 2)
	}
	sg := &segmenter{x: x, rows: rows, dim: dim, k: p.Embed, n: p.Window, sizes: ladder(p.Window), alpha: alpha, seed: rand.New(src).Uint64(), slopes: slopes}
	sg.progress = newSegProgress(s.Progress, p, rows, dim)
	res := &Segmentation{Params: p}

	// Every window size in use is calibrated on the series: the full size
	// on every candidate, each smaller size of the ladder (used near the
	// edges and between close changes) on up to calibrationPoints
	// candidates spread over the series.
	lo, hi := minSide+p.Embed-1, rows-minSide-p.Embed+1 // candidates b in [lo, hi]
	full, candCols, err := sg.scan(ctx, res, p, lo, hi)
	if err != nil {
		return nil, err
	}
	cal, err := sg.calibration(ctx, p, full)
	if err != nil {
		return nil, err
	}
	res.Median, res.Spread = floorSpreads(cal, ladder(p.Window), p.Window)
	z := calibrator(cal)
	calibrated := make([]Score, len(res.Scores))
	res.Calibrated = make([]float64, len(res.Scores))
	for i, sc := range res.Scores {
		res.Calibrated[i] = z(sc.Value, candCols[i], sg.size(sc.Time, 0, rows))
		calibrated[i] = Score{Time: sc.Time, Value: res.Calibrated[i]}
	}
	keep := strongestPeaks(res.Scores, calibrated, p, lo)
	if keep, err = sg.nearPeaks(ctx, keep, res.Scores, calibrated, p, lo, z); err != nil {
		return nil, err
	}
	if keep, err = sg.refineAll(ctx, keep, p, z); err != nil {
		return nil, err
	}
	for i := range keep {
		keep[i].Rule = RuleDivergence
	}
	if p.Changes == 0 {
		if keep, err = sg.wholeSegmentChanges(ctx, keep, res, p, wholeScale, lo, hi); err != nil {
			return nil, err
		}
	}
	sg.segments(res, keep, p)
	sg.progress.finish()
	return res, nil
}

// segmentScoreUnits is the cost of one window score of one component in
// the units of SegmentSettings.Progress (one row of the steps rule): at
// 10⁶ rows 20000 scores took about 3 s, the steps rule's two rounds over
// the rows about 6 s.
const segmentScoreUnits = 50

// segProgress reports Segment's work to SegmentSettings.Progress.
type segProgress struct {
	fn                func(done, total int)
	done, total, next int
}

// newSegProgress returns the progress of a segmentation with the params
// p of rows rows and dim columns: the first scan's and the calibration's
// scores, and the steps rule's noise rounds over every row and column
// (nil when fn is).
func newSegProgress(fn func(done, total int), p SegmentParams, rows, dim int) *segProgress {
	if fn == nil {
		return nil
	}
	parts := 1
	if dim > 1 {
		parts += dim
	}
	scores := (rows-2*(minSide+p.Embed-1))/p.Stride + 1 + len(ladder(p.Window))*calibrationPoints
	total := segmentScoreUnits * parts * scores
	if p.Changes == 0 {
		total += stepsNoiseRounds * rows * dim
	}
	return &segProgress{fn: fn, total: max(1, total)}
}

// add counts units of work done, reporting each thousandth of the total.
func (g *segProgress) add(units int) {
	if g == nil {
		return
	}
	g.done = min(g.done+units, g.total)
	if g.done >= g.next {
		g.fn(g.done, g.total)
		g.next = g.done + max(1, g.total/1000)
	}
}

// score counts one window score of every component.
func (g *segProgress) score(dim int) {
	if dim > 1 {
		dim++
	}
	g.add(segmentScoreUnits * dim)
}

// finish reports the whole work done.
func (g *segProgress) finish() {
	if g != nil {
		g.fn(g.total, g.total)
	}
}

// scalePenalties sets p's Penalty for a series of rows rows and dim
// columns when s leaves it at the default, and returns wholeScale, the
// factor a Penalty of the caller's applies to the whole-segment rules'
// penalties as it does to the windows' (1 at the default).
func scalePenalties(p *SegmentParams, s *SegmentSettings, rows, dim int) float64 {
	if s.Penalty == 0 && dim > 1 {
		// The calibrated score of several columns is the largest of d + 1
		// (the joint score and each column's): the penalty grows as the
		// largest of (d + 1)·T calibrated scores does.
		p.Penalty = PenaltyPerLogRow * math.Log(float64(rows)*float64(dim+1))
	}
	wholeScale := 1.0
	if s.Penalty > 0 {
		def := PenaltyPerLogRow * math.Log(float64(rows))
		if dim > 1 {
			def = PenaltyPerLogRow * math.Log(float64(rows)*float64(dim+1))
		}
		wholeScale = s.Penalty / def
	}
	return wholeScale
}

// scan scores the candidates b in [lo, hi], every p.Stride rows, into
// res.Scores: a long series is scanned every stride rows (the windows of n
// rows see a change from n rows away; refine places it row by row), so
// that the scan costs at most about segmentScanRows scores. It returns the
// scores of the full-size windows, a slice per component (with several
// columns each column is also scored on its own: component 1 + j, the
// joint score component 0), and each candidate's columns' scores.
func (sg *segmenter) scan(ctx context.Context, res *Segmentation, p SegmentParams, lo, hi int) (full, candCols [][]float64, err error) {
	parts := 1
	if sg.dim > 1 {
		parts += sg.dim
	}
	full = make([][]float64, parts)
	for b := lo; b <= hi; b += p.Stride {
		nb := sg.size(b, 0, sg.rows)
		sc, cols, err := sg.score(ctx, b, nb)
		if err != nil {
			return nil, nil, err
		}
		sg.progress.score(sg.dim)
		res.Scores = append(res.Scores, sc)
		candCols = append(candCols, cols)
		if nb == p.Window {
			full[0] = append(full[0], sc.Value)
			for j, v := range cols {
				full[1+j] = append(full[1+j], v)
			}
		}
	}
	return full, candCols, nil
}

// calibration returns the median and spread of each component's scores
// (each column calibrated on its own scores) for every window size of the
// ladder in use: the full size's from full, the scores of scan, each
// smaller size's from up to calibrationPoints candidates spread over the
// series.
func (sg *segmenter) calibration(ctx context.Context, p SegmentParams, full [][]float64) (map[int][][2]float64, error) {
	sizes := ladder(p.Window)
	rows := sg.rows
	cal := make(map[int][][2]float64, len(sizes))
	for _, m := range sizes {
		if m == p.Window && len(full[0]) > 0 {
			cal[m] = medianSpreads(full)
			continue
		}
		first, last := m+p.Embed-1, rows-m-p.Embed+1
		if first > last {
			continue
		}
		count := min(calibrationPoints, last-first+1)
		v := make([][]float64, len(full))
		for i := range count {
			b := first + i*(last-first)/max(count-1, 1)
			sc, cols, err := sg.score(ctx, b, m)
			if err != nil {
				return nil, err
			}
			sg.progress.score(sg.dim)
			v[0] = append(v[0], sc.Value)
			for j, u := range cols {
				v[1+j] = append(v[1+j], u)
			}
		}
		cal[m] = medianSpreads(v)
	}
	return cal, nil
}

// medianSpreads returns the median and spread (medianSpread) of each
// component's scores.
func medianSpreads(vals [][]float64) [][2]float64 {
	c := make([][2]float64, len(vals))
	for i, v := range vals {
		med, spread := medianSpread(v)
		c[i] = [2]float64{med, spread}
	}
	return c
}

// floorSpreads returns the joint score's median and spread at the full
// window size n (or, when it is not calibrated, at the smallest size of
// sizes), and raises the spreads of the smaller sizes in cal: a smaller
// size's 32 scores can have almost no spread (a sparse series whose short
// windows are mostly zeros), so no size m is calibrated on less spread
// than m/n of the full windows'.
func floorSpreads(cal map[int][][2]float64, sizes []int, n int) (median, spread float64) {
	c, ok := cal[n]
	if !ok {
		return cal[sizes[0]][0][0], cal[sizes[0]][0][1]
	}
	for _, m := range sizes {
		cm, ok := cal[m]
		if !ok || m == n {
			continue
		}
		for i := range cm {
			if floor := c[i][1] * float64(m) / float64(n); cm[i][1] < floor {
				cm[i][1] = floor
			}
		}
	}
	return c[0][0], c[0][1]
}

// calibrator returns the zFunc of the calibration cal: it calibrates a
// score from windows of nb subsequences as the largest of the joint
// score's and each column's, each in units of its own spread (0 for a
// size not calibrated).
func calibrator(cal map[int][][2]float64) zFunc {
	return func(v float64, cols []float64, nb int) float64 {
		c, ok := cal[nb]
		if !ok {
			return 0
		}
		best := calibrate(v, c[0][0], c[0][1])
		for j, u := range cols {
			best = math.Max(best, calibrate(u, c[1+j][0], c[1+j][1]))
		}
		return best
	}
}

// strongestPeaks returns the local maxima of the calibrated scores
// calibrated (of the candidates scores, from lo every p.Stride rows), in
// time order: the p.Changes highest, or, with p.Changes zero, those above
// p.Penalty.
func strongestPeaks(scores, calibrated []Score, p SegmentParams, lo int) []Change {
	stride := p.Stride
	// Local maxima of the calibrated score, highest first.
	var peaks []Change
	for _, c := range Detect(calibrated, math.Inf(-1), max(p.MinDistance, stride)) {
		peaks = append(peaks, Change{Time: c.Time, Score: scores[(c.Time-lo)/stride].Value, Calibrated: c.Value})
	}
	sort.SliceStable(peaks, func(i, j int) bool { return peaks[i].Calibrated > peaks[j].Calibrated })
	var keep []Change
	for _, c := range peaks {
		if p.Changes > 0 {
			if len(keep) == p.Changes {
				break
			}
		} else if !(c.Calibrated > p.Penalty) {
			break
		}
		keep = append(keep, c)
	}
	slices.SortFunc(keep, func(a, b Change) int { return a.Time - b.Time })
	return keep
}

// nearPeaks adds to keep (in time order) the peaks of a strided scan
// (p.Stride > 1, p.Changes zero) that the scan saw below the penalty but
// above strideNear times it, strongest first, strideNearPeaks at most,
// whose best calibrated score within p.Stride rows, rescored row by row
// with full windows, exceeds the penalty and that lie more than
// p.MinDistance rows from every change kept. The scan samples the score
// every p.Stride rows, so a clear change between two samples is seen
// through windows that hold up to p.Stride/2 rows of its other side: at
// 10⁶ rows (a stride of 50 rows, windows of 150) a shift of two standard
// deviations scored 27.4 for a penalty of 27.6 with one seed, and
// 43–46 with two others, once placed. Rescoring near it asks what a scan
// of every row, the method's own definition, would have seen there.
func (sg *segmenter) nearPeaks(ctx context.Context, keep []Change, scores, calibrated []Score, p SegmentParams, lo int, z zFunc) ([]Change, error) {
	if p.Stride <= 1 || p.Changes > 0 {
		return keep, nil
	}
	var near []Change
	for _, c := range Detect(calibrated, strideNear*p.Penalty, max(p.MinDistance, p.Stride)) {
		if !(c.Value > p.Penalty) {
			near = append(near, Change{Time: c.Time, Score: scores[(c.Time-lo)/p.Stride].Value, Calibrated: c.Value})
		}
	}
	sort.SliceStable(near, func(i, j int) bool { return near[i].Calibrated > near[j].Calibrated })
	add := keep
	for _, c := range near[:min(len(near), strideNearPeaks)] {
		one := []Change{c}
		if err := sg.refine(ctx, one, p.Stride, z); err != nil {
			return nil, err
		}
		if !(one[0].Calibrated > p.Penalty) {
			continue
		}
		if slices.ContainsFunc(add, func(k Change) bool { d := k.Time - one[0].Time; return d <= p.MinDistance && -d <= p.MinDistance }) {
			continue
		}
		add = append(add, one[0])
	}
	slices.SortFunc(add, func(a, b Change) int { return a.Time - b.Time })
	return add, nil
}

// refineAll refines each change of keep with windows that stop at its
// neighbours; then, with p.Changes zero, looks again near each change,
// where the full windows straddled it, with windows that stop at the
// changes found, so that a change closer than a window to another is seen
// by its own rows; and repeats until nothing is added (at most maxRounds
// times). It returns the changes in time order.
func (sg *segmenter) refineAll(ctx context.Context, keep []Change, p SegmentParams, z zFunc) ([]Change, error) {
	for round := 0; ; round++ {
		if err := sg.refine(ctx, keep, max(p.MinDistance, min(p.Stride, 2*p.Window)), z); err != nil {
			return nil, err
		}
		if p.Changes > 0 || round == maxRounds {
			break
		}
		add, err := sg.rescan(ctx, keep, p, z)
		if err != nil {
			return nil, err
		}
		if len(add) == 0 {
			break
		}
		keep = append(keep, add...)
		slices.SortFunc(keep, func(a, b Change) int { return a.Time - b.Time })
	}
	return keep, nil
}

// wholeSegmentChanges adds to keep, in time order, the changes of spread
// and of level the windows are too short to see: searched over whole
// segments, on differences (spreadChanges), then likewise between all the
// changes found (stepChanges, levelChanges), at penalties scaled by
// wholeScale. A change among the candidates [lo, hi] of res.Scores takes
// the scores of the nearest one.
func (sg *segmenter) wholeSegmentChanges(ctx context.Context, keep []Change, res *Segmentation, p SegmentParams, wholeScale float64, lo, hi int) ([]Change, error) {
	stride, dim := p.Stride, sg.dim
	logT := math.Log(float64(sg.rows))
	minLen := max(p.Window, spreadMinSide)
	rules := []struct {
		changes  func(context.Context, []Change, int, float64, float64) ([]Change, error)
		perParam float64
	}{{sg.spreadChanges, spreadPenaltyPerParam}, {sg.stepChanges, stepsPenaltyPerParam}, {sg.levelChanges, levelPenaltyPerParam}}
	for _, r := range rules {
		add, err := r.changes(ctx, keep, minLen, wholeScale*r.perParam*float64(dim+1)*logT, wholeScale*(2*r.perParam*logT+2*math.Log(float64(dim))))
		if err != nil {
			return nil, err
		}
		for i := range add {
			if b := add[i].Time; b >= lo && b <= hi {
				j := min(len(res.Scores)-1, (b-lo+stride/2)/stride)
				add[i].Score, add[i].Calibrated = res.Scores[j].Value, res.Calibrated[j]
			}
		}
		keep = append(keep, add...)
		slices.SortFunc(keep, func(a, b Change) int { return a.Time - b.Time })
	}
	return keep, nil
}

// segments sets res's Changes, Segments and what changed at each from
// keep, in time order: a change at or before the previous one is
// skipped, as is, with p.Changes zero, a divergence change at or below
// p.Penalty. What changed is read between the neighbouring changes.
func (sg *segmenter) segments(res *Segmentation, keep []Change, p SegmentParams) {
	rows := sg.rows
	start := 0
	for _, c := range keep {
		if c.Time <= start || (p.Changes == 0 && c.Rule == RuleDivergence && !(c.Calibrated > p.Penalty)) {
			continue
		}
		res.Changes = append(res.Changes, c)
		res.Segments = append(res.Segments, Span{Start: start, End: c.Time})
		start = c.Time
	}
	for i := range res.Changes {
		end := rows
		if i+1 < len(res.Changes) {
			end = res.Changes[i+1].Time
		}
		res.Changes[i].What, res.Changes[i].Strength = sg.what(res.Segments[i].Start, res.Changes[i].Time, end)
	}
	res.Segments = append(res.Segments, Span{Start: start, End: rows})
}

// validate checks the settings and α.
func (s *SegmentSettings) validate(alpha float64) error {
	bad := func(field string, v any, allowed string) error {
		return &SettingsError{Package: "changepoint", Field: field, Value: v, Allowed: allowed}
	}
	switch {
	case !(alpha >= 0 && alpha < 1):
		return bad("alpha", alpha, "α must lie in [0, 1) (0: the plain Pearson divergence, whose ratio is unbounded)")
	case s.Embed < 0 || s.Embed > MaxEmbed:
		return bad("Embed", s.Embed, fmt.Sprintf("need 1 to %d rows (0: adaptive)", MaxEmbed))
	case s.Window < 0 || (s.Window > 0 && s.Window < minSide) || s.Window > MaxWindow:
		return bad("Window", s.Window, fmt.Sprintf("need %d to %d subsequences (0: adaptive)", minSide, MaxWindow))
	case s.MinDistance < 0:
		return bad("MinDistance", s.MinDistance, "need 1 row or more (0: a third of the window)")
	case s.Changes < 0:
		return bad("Changes", s.Changes, "need 1 change or more (0: as many as exceed the penalty)")
	case s.Penalty < 0 || math.IsNaN(s.Penalty) || math.IsInf(s.Penalty, 0):
		return bad("Penalty", s.Penalty, "must be a positive finite number (0: 2·ln(rows))")
	}
	return nil
}

// rescaled copies the series, each column multiplied by the power of two
// that brings its largest magnitude into [½, 1): exact, so that the scale of
// the data cannot overflow or underflow the squares and distances that
// follow, and any factor that is a power of two changes nothing.
func rescaled(series mat.Matrix) (*mat.Dense, error) {
	rows, dim := series.Dims()
	x := mat.NewDense(rows, dim, nil)
	for c := range dim {
		top := 0.0
		for r := range rows {
			v := series.At(r, c)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, &DataError{Row: r, Column: c, Value: v}
			}
			top = math.Max(top, math.Abs(v))
		}
		_, e := math.Frexp(top)
		for r := range rows {
			x.Set(r, c, math.Ldexp(series.At(r, c), -e))
		}
	}
	return x, nil
}

// medianSpread returns the median of v and 1.4826 times its median
// absolute deviation, or 1.2533 times its mean absolute deviation when the
// median one is zero.
func medianSpread(v []float64) (med, spread float64) {
	s := slices.Clone(v)
	med = selectMedian(s)
	for i, x := range v {
		s[i] = math.Abs(x - med)
	}
	spread = 1.4826 * selectMedian(s)
	if spread == 0 {
		// More than half the scores are equal (windows without variation
		// score 0): the mean absolute deviation, scaled to σ for Gaussian
		// scores, is the spread of the others (summed in sorted order).
		slices.Sort(s)
		for _, d := range s {
			spread += d
		}
		spread *= 1.2533 / float64(len(s))
	}
	return med, spread
}

// selectMedian returns sortedMedian of s sorted, reordering s: by
// selection (spread.OrderStat), or by sorting when s holds a NaN.
func selectMedian(s []float64) float64 {
	n := len(s)
	if n == 0 || slices.ContainsFunc(s, math.IsNaN) {
		slices.Sort(s)
		return sortedMedian(s)
	}
	hi := spread.OrderStat(s, n/2)
	if n%2 == 1 {
		return hi
	}
	// s[:n/2] now holds the n/2 smallest: the largest of them is the
	// other middle value.
	return (slices.Max(s[:n/2]) + hi) / 2
}

func sortedMedian(s []float64) float64 {
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// calibrate returns (v − med)/spread; with no spread, +Inf above the
// median and 0 otherwise.
func calibrate(v, med, spread float64) float64 {
	switch {
	case spread > 0:
		return (v - med) / spread
	case v > med:
		return math.Inf(1)
	}
	return 0
}

// zFunc calibrates the joint score v and the columns' scores cols of a
// candidate with windows of nb subsequences (Segment).
type zFunc func(v float64, cols []float64, nb int) float64

// segmenter scores candidate times of a whole series.
type segmenter struct {
	x         *mat.Dense
	rows, dim int
	k, n      int
	sizes     []int // ladder(n)
	alpha     float64
	seed      uint64
	buf       []float64
	varies    []bool
	// slopes[c] is the slope of the steep trend robustDetrend removed
	// from column c (0: none): the level rule leaves such a column alone
	// (levelChanges), the steps rule adds it back (stepChanges).
	slopes []float64
	// diffCap caps each column's absolute differences in the spread
	// rule (spreadCap), set by spreadChanges.
	diffCap []float64
	// progress reports the work done (nil: not asked for).
	progress *segProgress
}

// refine moves each change, in time order, to the best calibrated score
// within dist rows of it, with windows that stop at its neighbours.
func (sg *segmenter) refine(ctx context.Context, keep []Change, dist int, z zFunc) error {
	for i := range keep {
		left, right := 0, sg.rows
		if i > 0 {
			left = keep[i-1].Time
		}
		if i+1 < len(keep) {
			right = keep[i+1].Time
		}
		best := keep[i]
		best.Calibrated = math.Inf(-1)
		for b := max(keep[i].Time-dist, left+1); b <= min(keep[i].Time+dist, right-1); b++ {
			nb := sg.size(b, left, right)
			if nb == 0 {
				continue
			}
			sc, cols, err := sg.score(ctx, b, nb)
			if err != nil {
				return err
			}
			if v := z(sc.Value, cols, nb); v > best.Calibrated {
				best.Time, best.Score, best.Calibrated = b, sc.Value, v
			}
		}
		if !math.IsInf(best.Calibrated, -1) {
			keep[i] = best
		} // else no room between its neighbours: kept as found
	}
	return nil
}

// rescan scores again, within each segment between the changes kept, the
// candidates whose full windows reached past an end of the segment that
// is a change, with windows that stop at its ends, and returns the best of
// each segment whose calibrated score exceeds the penalty and that lies
// more than MinDistance rows from both ends.
func (sg *segmenter) rescan(ctx context.Context, keep []Change, p SegmentParams, z zFunc) ([]Change, error) {
	var add []Change
	reach := sg.n + sg.k
	for i := 0; i <= len(keep); i++ {
		left, right := 0, sg.rows
		if i > 0 {
			left = keep[i-1].Time
		}
		if i < len(keep) {
			right = keep[i].Time
		}
		best := Change{Calibrated: math.Inf(-1)}
		for b := left + p.MinDistance + 1; b < right-p.MinDistance; b++ {
			nearLeft, nearRight := i > 0 && b-left < reach, i < len(keep) && right-b < reach
			if !nearLeft && !nearRight {
				continue
			}
			nb := sg.size(b, left, right)
			if nb == 0 {
				continue
			}
			sc, cols, err := sg.score(ctx, b, nb)
			if err != nil {
				return nil, err
			}
			if v := z(sc.Value, cols, nb); v > best.Calibrated {
				best = Change{Time: b, Score: sc.Value, Calibrated: v}
			}
		}
		if best.Calibrated > p.Penalty {
			add = append(add, best)
		}
	}
	return add, nil
}

// size returns the window size of the candidate b whose windows stay within
// rows [left, right): the largest size of the ladder that fits, or 0.
func (sg *segmenter) size(b, left, right int) int {
	avail := min(sg.n, b-left-sg.k+1, right-b-sg.k+1)
	best := 0
	for _, m := range sg.sizes {
		if m <= avail {
			best = m
		}
	}
	return best
}

// ladder returns the window sizes used for a window of n: n and the
// sizes 3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 32, 40 below it.
func ladder(n int) []int {
	var s []int
	for _, m := range []int{3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 32, 40} {
		if m < n {
			s = append(s, m)
		}
	}
	return append(s, n)
}

// score returns the score of the candidate b with windows of nb
// subsequences and, with several columns, each column's score on its own:
// n_b·(PE_α(after‖before) + PE_α(before‖after)) on that column's
// coordinates, at the width for k coordinates (nil with one column).
func (sg *segmenter) score(ctx context.Context, b, nb int) (Score, []float64, error) {
	s := Score{Time: b}
	k := sg.k
	var cols []float64
	if sg.dim > 1 {
		cols = make([]float64, sg.dim)
	}
	if nb < minSide {
		return s, cols, nil
	}
	if err := ctx.Err(); err != nil {
		return Score{}, nil, fmt.Errorf("changepoint: time %d: %w", b, err)
	}
	d := k * sg.dim
	if cap(sg.buf) < 2*nb*d {
		sg.buf = make([]float64, 2*nb*d)
	}
	buf := sg.buf[:2*nb*d]
	// Row i < nb of buf is the subsequence starting at b − nb − k + 1 + i,
	// row nb + i the one starting at b + i.
	for i := range 2 * nb {
		first := b - nb - k + 1 + i
		if i >= nb {
			first = b + i - nb
		}
		for c := range sg.dim {
			for o := range k {
				buf[i*d+c*k+o] = sg.x.At(first+o, c)
			}
		}
	}
	varies := false
	if cap(sg.varies) < d {
		sg.varies = make([]bool, d)
	}
	coordVaries := sg.varies[:d]
	clear(coordVaries)
	for j := range d {
		lo, hi := buf[j], buf[j]
		mean := 0.0
		for i := range 2 * nb {
			v := buf[i*d+j]
			lo, hi = math.Min(lo, v), math.Max(hi, v)
			mean += v
		}
		mean /= float64(2 * nb)
		if lo == hi {
			for i := range 2 * nb {
				buf[i*d+j] = 0
			}
			continue
		}
		ss := 0.0
		for i := range 2 * nb {
			dv := buf[i*d+j] - mean
			ss += dv * dv
		}
		sd := math.Sqrt(ss / float64(2*nb-1))
		for i := range 2 * nb {
			buf[i*d+j] = (buf[i*d+j] - mean) / sd
		}
		varies = true
		coordVaries[j] = true
	}
	if !varies {
		return s, cols, nil
	}
	before := mat.NewDense(nb, d, buf[:nb*d])
	after := mat.NewDense(nb, d, buf[nb*d:])
	set := &divergence.PESettings{
		Settings: divergence.Settings{
			K: segmentK, M: segmentM, Draws: 1, Lambda: segmentLambda,
			WithoutReplacement: true, Workers: 1,
			Src: rand.NewPCG(sg.seed, uint64(b)),
		},
		Sigma: segmentSigma * math.Sqrt(2*float64(d)),
	}
	pa, err := divergence.RelativePEValue(ctx, after, before, sg.alpha, set)
	if err != nil {
		return Score{}, nil, fmt.Errorf("changepoint: time %d: %w", b, err)
	}
	set.Src = rand.NewPCG(sg.seed, uint64(b)+1<<40)
	pb, err := divergence.RelativePEValue(ctx, before, after, sg.alpha, set)
	if err != nil {
		return Score{}, nil, fmt.Errorf("changepoint: time %d: %w", b, err)
	}
	s.After, s.Before = pa, pb
	s.Value = float64(nb) * (s.After + s.Before)
	// Each column on its own: its coordinates are already standardised
	// over the two windows.
	set.Sigma = segmentSigma * math.Sqrt(2*float64(k))
	for c := range cols {
		if !slices.Contains(coordVaries[c*k:(c+1)*k], true) {
			continue
		}
		av := after.Slice(0, nb, c*k, (c+1)*k)
		bv := before.Slice(0, nb, c*k, (c+1)*k)
		set.Src = rand.NewPCG(sg.seed, uint64(b)+uint64(2*c+2)<<40)
		ca, err := divergence.RelativePEValue(ctx, av, bv, sg.alpha, set)
		if err != nil {
			return Score{}, nil, fmt.Errorf("changepoint: time %d, column %d: %w", b, c, err)
		}
		set.Src = rand.NewPCG(sg.seed, uint64(b)+uint64(2*c+3)<<40)
		cb, err := divergence.RelativePEValue(ctx, bv, av, sg.alpha, set)
		if err != nil {
			return Score{}, nil, fmt.Errorf("changepoint: time %d, column %d: %w", b, c, err)
		}
		cols[c] = float64(nb) * (ca + cb)
	}
	return s, cols, nil
}

// what names the moment that differs most between rows [start, b) and
// [b, end), with its statistic over its standard error.
func (sg *segmenter) what(start, b, end int) (string, float64) {
	n1, n2 := float64(b-start), float64(end-b)
	if n1 < 2 || n2 < 2 {
		return "shape", 0
	}
	kind, best := "shape", 2.0
	mom := func(lo, hi, c int) (m, v float64) {
		for r := lo; r < hi; r++ {
			m += sg.x.At(r, c)
		}
		m /= float64(hi - lo)
		for r := lo; r < hi; r++ {
			d := sg.x.At(r, c) - m
			v += d * d
		}
		return m, v / float64(hi-lo-1)
	}
	for c := range sg.dim {
		m1, v1 := mom(start, b, c)
		m2, v2 := mom(b, end, c)
		if se := math.Sqrt(v1/n1 + v2/n2); se > 0 {
			if t := math.Abs(m2-m1) / se; t > best {
				kind, best = "level", t
			}
		}
		if v1 > 0 && v2 > 0 {
			if t := math.Abs(math.Log(v2/v1)) / math.Sqrt(2/(n1-1)+2/(n2-1)); t > best {
				kind, best = "spread", t
			}
		}
	}
	if sg.dim > 1 && n1 > 3 && n2 > 3 {
		corr := func(lo, hi, a, c int) float64 {
			ma, va := mom(lo, hi, a)
			mc, vc := mom(lo, hi, c)
			if va == 0 || vc == 0 {
				return 0
			}
			s := 0.0
			for r := lo; r < hi; r++ {
				s += (sg.x.At(r, a) - ma) * (sg.x.At(r, c) - mc)
			}
			return math.Max(-0.999999, math.Min(0.999999, s/float64(hi-lo-1)/math.Sqrt(va*vc)))
		}
		se := math.Sqrt(1/(n1-3) + 1/(n2-3))
		for a := range sg.dim {
			for c := a + 1; c < sg.dim; c++ {
				if t := math.Abs(math.Atanh(corr(start, b, a, c))-math.Atanh(corr(b, end, a, c))) / se; t > best {
					kind, best = "dependence", t
				}
			}
		}
	}
	if kind == "shape" {
		return kind, 0
	}
	return kind, best
}

// robustDetrend subtracts from each column the line whose slope is the
// median of its lag-h differences over h — the slope of a linear trend,
// which level shifts barely move (a shift enters only the h differences
// that straddle it) — when the rise it implies over the series exceeds
// two of its standard errors, about 1.77·s·√(T/h) for noise of spread s
// (from the median absolute first difference, which a level shift enters
// once): a steep trend then does not raise every score and hide a shift,
// and a series without one is left as it is. What is left of a curved
// trend the calibration absorbs. It returns the slope subtracted from each
// column, 0 where it left the column as it was.
func robustDetrend(x *mat.Dense, h int) []float64 {
	rows, dim := x.Dims()
	done := make([]float64, dim)
	if rows <= h+1 {
		return done
	}
	d := make([]float64, rows-h)
	d1 := make([]float64, rows-1)
	for c := range dim {
		for t := range rows - h {
			d[t] = (x.At(t+h, c) - x.At(t, c)) / float64(h)
		}
		for t := range rows - 1 {
			d1[t] = math.Abs(x.At(t+1, c) - x.At(t, c))
		}
		slope := median(d)
		s := 1.4826 * median(d1) / math.Sqrt2
		se := 1.77 * s * math.Sqrt(float64(rows)/float64(h))
		if !(math.Abs(slope)*float64(rows) > 2*se) {
			continue
		}
		for t := range rows {
			x.Set(t, c, x.At(t, c)-slope*float64(t))
		}
		done[c] = slope
	}
	return done
}

// median returns the median of v (sortedMedian of v sorted), by selection
// on a copy: at 10⁷ rows sorting took an eighth of Segment's time.
func median(v []float64) float64 {
	return selectMedian(slices.Clone(v))
}
