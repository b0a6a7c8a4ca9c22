// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/changepoint"
	"github.com/sublinear/pearson/internal/testtier"
)

// steps returns rows values of Gaussian noise of standard deviation sd
// whose mean alternates between 0 and jump at each of cps.
func steps(rnd *rand.Rand, rows int, cps []int, jump, sd float64) *mat.Dense {
	x := mat.NewDense(rows, 1, nil)
	level := 0.0
	for i := range rows {
		if slices.Contains(cps, i) {
			level = jump - level
		}
		x.Set(i, 0, level+sd*rnd.NormFloat64())
	}
	return x
}

func changeTimes(t *testing.T, x mat.Matrix, s *changepoint.SegmentSettings) []int {
	t.Helper()
	res, err := changepoint.Segment(context.Background(), x, changepoint.DefaultAlpha, s)
	if err != nil {
		t.Fatal(err)
	}
	var c []int
	for _, ch := range res.Changes {
		c = append(c, ch.Time)
	}
	if len(res.Segments) != len(res.Changes)+1 {
		t.Errorf("%d segments for %d changes", len(res.Segments), len(res.Changes))
	}
	return c
}

// within reports whether got and want have the same length and each got is
// within tol rows of the want of the same rank.
func within(got, want []int, tol int) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if abs(got[i]-want[i]) > tol {
			return false
		}
	}
	return true
}

// TestSegmentPlacement: a clean step (3 to 5 standard deviations; the
// series of issue 25 had a step at row 178) is found alone and placed
// within ±2 rows, on series of 20 to 1000 rows, near the edges too, and
// changes 12 rows apart are told apart; 20 seeds of each. A series of 20
// rows calibrates its scores on 15 candidates, most of whose windows
// straddle the change, and three changes 12 rows apart are closer than the
// window: there the test asks for what is measured (10 and 16 of 20
// seeds right), not more; elsewhere a step of 3 standard deviations is not
// clean for every seed, and one miss in 20 is allowed.
func TestSegmentPlacement(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	for _, c := range []struct {
		rows  int
		cps   []int
		jump  float64
		wrong int
	}{
		{20, []int{10}, 5, 10},
		{60, []int{8}, 5, 1},
		{400, []int{178}, 3, 1},
		{400, []int{392}, 5, 1},
		{1000, []int{300, 700}, 3, 1},
		{300, []int{150, 162, 174}, 5, 4},
	} {
		bad := 0
		for seed := range uint64(20) {
			x := steps(rand.New(rand.NewPCG(seed, 25)), c.rows, c.cps, c.jump, 1)
			if got := changeTimes(t, x, nil); !within(got, c.cps, 2) {
				bad++
				t.Logf("%d rows, changes at %v: found %v", c.rows, c.cps, got)
			}
		}
		if bad > c.wrong {
			t.Errorf("%d rows, changes at %v: %d of 20 seeds wrong, want at most %d", c.rows, c.cps, bad, c.wrong)
		}
	}
}

// TestSegmentNoChange: series without a change give none, and a constant
// series none either.
func TestSegmentNoChange(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	if got := changeTimes(t, mat.NewDense(50, 1, nil), nil); len(got) != 0 {
		t.Errorf("constant series: changes at %v", got)
	}
	false1 := 0
	for seed := range uint64(20) {
		x := steps(rand.New(rand.NewPCG(seed, 26)), 500, nil, 0, 1)
		false1 += len(changeTimes(t, x, nil))
	}
	// The penalty is set for few false alarms: 2 in 20 series is allowed.
	if false1 > 2 {
		t.Errorf("%d false alarms on 20 series of white noise", false1)
	}
	// Outliers (two, of 7 and 8 standard deviations), small counts (0, 1
	// or 2), and a sparse series (nine rows in ten zero), 300 rows: no
	// change. Measured: 0, 3 and 4 false alarms in 20 series; the
	// discrete series are not what the penalty was set on, and the test
	// allows 4 (a false alarm in one series in five), to catch a cascade.
	kinds := map[string]func(rnd *rand.Rand, i int) float64{
		"outliers": func(rnd *rand.Rand, i int) float64 {
			switch i {
			case 60:
				return -7
			case 150:
				return 8
			}
			return rnd.NormFloat64()
		},
		"counts": func(rnd *rand.Rand, _ int) float64 { return float64(rnd.IntN(3)) },
		"sparse": func(rnd *rand.Rand, _ int) float64 {
			if rnd.Float64() < 0.1 {
				return 1 + rnd.ExpFloat64()
			}
			return 0
		},
	}
	for name, gen := range kinds {
		alarms := 0
		for seed := range uint64(20) {
			rnd := rand.New(rand.NewPCG(seed, 9))
			x := mat.NewDense(300, 1, nil)
			for i := range 300 {
				x.Set(i, 0, gen(rnd, i))
			}
			alarms += len(changeTimes(t, x, nil))
		}
		t.Logf("%s: %d false alarms in 20 series", name, alarms)
		if alarms > 4 {
			t.Errorf("%s: %d false alarms in 20 series", name, alarms)
		}
	}
}

// TestSegmentChanges: Changes asks for exactly that many, the highest
// first.
func TestSegmentChanges(t *testing.T) {
	t.Parallel()
	x := steps(rand.New(rand.NewPCG(1, 27)), 300, []int{100, 200}, 4, 1)
	if got := changeTimes(t, x, &changepoint.SegmentSettings{Changes: 2}); !within(got, []int{100, 200}, 2) {
		t.Errorf("Changes 2: %v", got)
	}
	if got := changeTimes(t, x, &changepoint.SegmentSettings{Changes: 3}); len(got) != 3 {
		t.Errorf("Changes 3: %v", got)
	}
	if got := changeTimes(t, x, &changepoint.SegmentSettings{Penalty: 1e6}); len(got) != 0 {
		t.Errorf("Penalty 1e6: %v", got)
	}
}

// TestSegmentScaleFree: the same change points, and scores equal to
// rounding, for the series multiplied by 1e-300 … 1e300, and bit for bit
// for powers of two; the same for the streaming detector.
func TestSegmentScaleFree(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t) // single-threaded arithmetic, checked by the run without the detector
	x := steps(rand.New(rand.NewPCG(2, 28)), 300, []int{120, 220}, 3, 1)
	ref, err := changepoint.Segment(context.Background(), x, changepoint.DefaultAlpha, nil)
	if err != nil {
		t.Fatal(err)
	}
	refStream, err := changepoint.Scores(context.Background(), x, changepoint.DefaultAlpha, &changepoint.Settings{Window: 20, Embed: 2, Step: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []float64{1e-300, 1e-13, math.Ldexp(1, -900), 1e154, 1e300, math.Ldexp(1, 900)} {
		var y mat.Dense
		y.Scale(f, x)
		got, err := changepoint.Segment(context.Background(), &y, changepoint.DefaultAlpha, nil)
		if err != nil {
			t.Fatalf("×%g: %v", f, err)
		}
		exact := math.Abs(math.Log2(f)-math.Round(math.Log2(f))) == 0
		if len(got.Changes) != len(ref.Changes) {
			t.Fatalf("×%g: %d changes, want %d", f, len(got.Changes), len(ref.Changes))
		}
		for i, c := range got.Changes {
			r := ref.Changes[i]
			if c.Time != r.Time || (exact && c.Score != r.Score) || math.Abs(c.Score-r.Score) > 1e-9*math.Abs(r.Score) {
				t.Errorf("×%g: change %d at %d score %v, want %d score %v", f, i, c.Time, c.Score, r.Time, r.Score)
			}
		}
		stream, err := changepoint.Scores(context.Background(), &y, changepoint.DefaultAlpha, &changepoint.Settings{Window: 20, Embed: 2, Step: 5})
		if err != nil {
			t.Fatalf("stream ×%g: %v", f, err)
		}
		if len(stream.ChangePoints) != len(refStream.ChangePoints) {
			t.Fatalf("stream ×%g: %d change points, want %d", f, len(stream.ChangePoints), len(refStream.ChangePoints))
		}
		for i, c := range stream.ChangePoints {
			if r := refStream.ChangePoints[i]; c.Time != r.Time || math.Abs(c.Value-r.Value) > 1e-9*math.Abs(r.Value) {
				t.Errorf("stream ×%g: change point %d at %d score %v, want %d score %v", f, i, c.Time, c.Value, r.Time, r.Value)
			}
		}
	}
}

// TestSegmentWhat: what changed is named by the moment that differs. (A
// change of the correlation alone between two columns is not found at the
// defaults: the benchmark's correlation family scores as the empty answer,
// docs/RESULTS.md, "Change points".)
func TestSegmentWhat(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(3, 29))
	const rows = 400
	level := steps(rnd, rows, []int{200}, 3, 1)
	spread := mat.NewDense(rows, 1, nil)
	for i := range rows {
		sd := 1.0
		if i >= 200 {
			sd = 5
		}
		spread.Set(i, 0, sd*rnd.NormFloat64())
	}
	for _, c := range []struct {
		x    *mat.Dense
		what string
	}{{level, "level"}, {spread, "spread"}} {
		res, err := changepoint.Segment(context.Background(), c.x, changepoint.DefaultAlpha, &changepoint.SegmentSettings{Changes: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Changes) != 1 || res.Changes[0].What != c.what || abs(res.Changes[0].Time-200) > 5 {
			t.Errorf("%s: %+v", c.what, res.Changes)
		}
	}
}

// TestSegmentErrors: bad settings, too few rows, a NaN, a cancelled
// context.
func TestSegmentErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	x := steps(rand.New(rand.NewPCG(4, 30)), 100, []int{50}, 3, 1)
	for _, s := range []changepoint.SegmentSettings{{Window: 2}, {Embed: -1}, {Changes: -1}, {Penalty: math.NaN()}, {MinDistance: -1}, {Embed: changepoint.MaxEmbed + 1}} {
		var se *changepoint.SettingsError
		if _, err := changepoint.Segment(ctx, x, changepoint.DefaultAlpha, &s); !errors.As(err, &se) || !errors.Is(err, changepoint.ErrSettings) {
			t.Errorf("%+v: %v", s, err)
		}
	}
	if _, err := changepoint.Segment(ctx, mat.NewDense(7, 1, nil), changepoint.DefaultAlpha, nil); !errors.Is(err, changepoint.ErrTooFew) {
		t.Errorf("7 rows: %v", err)
	}
	if _, err := changepoint.Segment(ctx, mat.NewDense(8, 1, nil), changepoint.DefaultAlpha, nil); err != nil {
		t.Errorf("8 rows: %v", err)
	}
	y := mat.DenseCopyOf(x)
	y.Set(17, 0, math.NaN())
	var de *changepoint.DataError
	if _, err := changepoint.Segment(ctx, y, changepoint.DefaultAlpha, nil); !errors.As(err, &de) || de.Row != 17 {
		t.Errorf("NaN at row 17: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := changepoint.Segment(cancelled, x, changepoint.DefaultAlpha, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// FuzzSegment: any series of up to 64 rows of one or two columns, scaled by
// any power of ten, gives a segmentation whose changes are increasing
// candidate rows and whose segments tile the rows, or a typed error; never
// a panic.
func FuzzSegment(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 200, 201, 202, 203, 204, 205, 206}, uint8(1), int16(0))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, uint8(2), int16(300))
	f.Add([]byte{255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0}, uint8(1), int16(-300))
	f.Fuzz(func(t *testing.T, data []byte, dim uint8, exp10 int16) {
		d := int(dim%2) + 1
		rows := min(len(data)/d, 64)
		if rows == 0 {
			return
		}
		scale := math.Pow(10, float64(exp10%310))
		x := mat.NewDense(rows, d, nil)
		for i := range rows {
			for j := range d {
				x.Set(i, j, (float64(data[i*d+j])-128)*scale)
			}
		}
		res, err := changepoint.Segment(context.Background(), x, changepoint.DefaultAlpha, nil)
		if err != nil {
			var de *changepoint.DataError
			if !errors.Is(err, changepoint.ErrTooFew) && !errors.As(err, &de) {
				t.Fatalf("%d rows: %v", rows, err)
			}
			return
		}
		end := 0
		for i, s := range res.Segments {
			if s.Start != end || s.End <= s.Start {
				t.Fatalf("segments %v", res.Segments)
			}
			if i > 0 && res.Changes[i-1].Time != s.Start {
				t.Fatalf("changes %v, segments %v", res.Changes, res.Segments)
			}
			end = s.End
		}
		if end != rows {
			t.Fatalf("segments %v of %d rows", res.Segments, rows)
		}
	})
}

// TestSegmentSpread: a change of the standard deviation by a factor 3 (up,
// then back down), which the windows' divergence reads under the penalty,
// is found by the spread rule over whole segments, named "spread", and
// placed within ±8 rows (a change of spread is placed less sharply than a
// step: the first rows after a rise are as likely small as before); 20
// seeds of each, one miss allowed. Measured: the right number of changes
// in every seed, within ±5 rows in 18 and 17 of 20, within ±8 in all.
func TestSegmentSpread(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	for _, c := range []struct {
		rows int
		cps  []int
	}{
		{400, []int{200}},
		{600, []int{200, 400}},
	} {
		bad := 0
		for seed := range uint64(20) {
			rnd := rand.New(rand.NewPCG(seed, 27))
			x := mat.NewDense(c.rows, 1, nil)
			sd := 1.0
			for i := range c.rows {
				if slices.Contains(c.cps, i) {
					sd = 4 - sd // 1 ↔ 3
				}
				x.Set(i, 0, sd*rnd.NormFloat64())
			}
			res, err := changepoint.Segment(context.Background(), x, changepoint.DefaultAlpha, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, ch := range res.Changes {
				got = append(got, ch.Time)
				if ch.What != "spread" || (ch.Rule != changepoint.RuleSpread && ch.Rule != changepoint.RuleDivergence) {
					t.Errorf("%d rows, seed %d: change at %d is %q by rule %q", c.rows, seed, ch.Time, ch.What, ch.Rule)
				}
			}
			if !within(got, c.cps, 8) {
				bad++
				t.Logf("%d rows, changes at %v: found %v", c.rows, c.cps, got)
			}
		}
		if bad > 1 {
			t.Errorf("%d rows, changes of spread at %v: %d of 20 seeds wrong, want at most 1", c.rows, c.cps, bad)
		}
	}
}

// TestSegmentColumnShift checks that a level shift in one column of
// several is not diluted by the others: 400 rows of independent standard
// normal columns, the first shifted by 1.5 standard deviations at row
// 200, 10 seeds per case (long tier). With the level rule (RuleLevel) the
// shift is found within ±5 rows in 20, 18 and 19 of 20 series with 1, 2
// and 5 columns (before it, by the windows alone: 14, 9, 8 of 20; a shift
// of 2 is found in all 20 of each), with 1 or 2 detections elsewhere in
// all 20. The test wants at least 8 of 10 in every case (about two
// binomial standard deviations, 0.7, below 9.5 at a rate of 0.95) and at
// most 2 detections elsewhere.
func TestSegmentColumnShift(t *testing.T) {
	t.Parallel()
	testtier.Long(t, "30 segmentations of 400 rows of up to 5 columns")
	testtier.SkipUnderRace(t)
	for _, d := range []int{1, 2, 5} {
		for _, shift := range []float64{1.5} {
			hit, other := 0, 0
			for seed := range 10 {
				rnd := rand.New(rand.NewPCG(uint64(seed), 99))
				x := mat.NewDense(400, d, nil)
				for r := range 400 {
					for c := range d {
						v := rnd.NormFloat64()
						if c == 0 && r >= 200 {
							v += shift
						}
						x.Set(r, c, v)
					}
				}
				res, err := changepoint.Segment(context.Background(), x, changepoint.DefaultAlpha, nil)
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, ch := range res.Changes {
					if !found && ch.Time >= 195 && ch.Time <= 205 {
						found = true
					} else {
						other++
					}
				}
				if found {
					hit++
				}
			}
			t.Logf("%d columns, shift %.1f in the first: found within ±5 rows in %d of 10, %d detections elsewhere", d, shift, hit, other)
			if hit < 8 || other > 2 {
				t.Errorf("%d columns, shift %.1f in one: found in %d of 10 (want 8 or more), %d detections elsewhere (want at most 2)", d, shift, hit, other)
			}
		}
	}
}

// TestSegmentOutlier checks that one value of 10⁶ in one column of three
// (unit normal noise, 400 rows, a shift of 3 in column 1 at row 200)
// blinds neither the other columns nor its own column beyond its windows,
// and makes no change of its own. Each column is standardised over the two
// windows of a candidate, so the outlier flattens its column in the
// windows that hold it (about √T = 20 rows on either side); the spread and
// level rules cap it (spreadClip, levelClip). Measured over 20 series: the
// shift found within ±5 rows in 20 without the outlier and with it in
// another column or 40 rows before in its own, 16 with it 10 rows before
// in its own (then inside the windows; the level rule finds the shift but
// places three at the outlier's row); 3 to 4 detections elsewhere in 20
// series, the 3 of the series without the outlier among them, and 2 with
// the outlier alone (41 before the spread rule capped differences: two
// changes of spread about each outlier). The test wants the shift in 18 of
// 20 (12 of 20 when the outlier lies within the windows: 16 less two
// binomial standard deviations) and at most 4 detections elsewhere (the
// series' own 3 and one; with the outlier 10 rows before the shift, a
// change placed at it is not elsewhere); the default tier runs 3 series of
// each case and the long tier 6 (the thresholds scale with the seeds).
func TestSegmentOutlier(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	seeds := testtier.Pick(3, 6)
	for _, c := range []struct {
		name             string
		shiftCol, outCol int
		outRow           int
		minHit           int // of 20
		near             int // detections this close to the shift are not "elsewhere"
	}{
		{"shift in column 1, no outlier", 1, -1, 0, 18, 5},
		{"shift in column 1, outlier in column 0 at row 190", 1, 0, 190, 18, 5},
		{"shift in column 1, outlier in column 1 at row 160", 1, 1, 160, 18, 5},
		{"shift in column 1, outlier in column 1 at row 190", 1, 1, 190, 12, 12},
		{"no shift, outlier in column 0 at row 100", -1, 0, 100, -1, 0},
	} {
		hit, other := 0, 0
		for seed := range seeds {
			rnd := rand.New(rand.NewPCG(uint64(seed), 77))
			x := mat.NewDense(400, 3, nil)
			for r := range 400 {
				for col := range 3 {
					v := rnd.NormFloat64()
					if col == c.shiftCol && r >= 200 {
						v += 3
					}
					if col == c.outCol && r == c.outRow {
						v = 1e6
					}
					x.Set(r, col, v)
				}
			}
			res, err := changepoint.Segment(context.Background(), x, changepoint.DefaultAlpha, nil)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, ch := range res.Changes {
				if c.shiftCol >= 0 && !found && ch.Time >= 195 && ch.Time <= 205 {
					found = true
				} else if c.shiftCol < 0 || abs(ch.Time-200) > c.near {
					other++
					t.Logf("%s, seed %d: a change at row %d (%s, rule %s)", c.name, seed, ch.Time, ch.What, ch.Rule)
				}
			}
			if found {
				hit++
			}
		}
		t.Logf("%s: the shift found within ±5 rows in %d of %d series, %d detections elsewhere", c.name, hit, seeds, other)
		if c.minHit >= 0 && hit < seeds-(20-c.minHit)*seeds/20 {
			t.Errorf("%s: the shift found in %d of %d series, want at least %d of 20", c.name, hit, seeds, c.minHit)
		}
		if limit := max(1, 4*seeds/20); other > limit {
			t.Errorf("%s: %d detections away from the shift in %d series, want at most %d", c.name, other, seeds, limit)
		}
	}
}
