// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint_test

import (
	"cmp"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/changepoint"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/testtier"
)

func TestSettingsErrors(t *testing.T) {
	t.Parallel()
	x := mat.NewDense(200, 1, nil)
	for _, c := range []struct {
		field string
		s     changepoint.Settings
		alpha float64
	}{
		{"Embed", changepoint.Settings{Embed: -1}, changepoint.DefaultAlpha},
		{"Window", changepoint.Settings{Window: 3}, changepoint.DefaultAlpha},
		{"Step", changepoint.Settings{Step: -2}, changepoint.DefaultAlpha},
		{"alpha", changepoint.Settings{}, 1},
		{"alpha", changepoint.Settings{}, -0.1},
		{"alpha", changepoint.Settings{}, math.NaN()},
		{"K", changepoint.Settings{K: -1}, changepoint.DefaultAlpha},
		{"M", changepoint.Settings{M: -1}, changepoint.DefaultAlpha},
		{"Draws", changepoint.Settings{Draws: -1}, changepoint.DefaultAlpha},
		{"Sigma", changepoint.Settings{Sigma: math.Inf(1)}, changepoint.DefaultAlpha},
		{"Lambda", changepoint.Settings{Lambda: -1}, changepoint.DefaultAlpha},
		{"Threshold", changepoint.Settings{Threshold: math.NaN()}, changepoint.DefaultAlpha},
		{"MinDistance", changepoint.Settings{MinDistance: -1}, changepoint.DefaultAlpha},
		{"Workers", changepoint.Settings{Workers: -1}, changepoint.DefaultAlpha},
		{"Window", changepoint.Settings{Window: divergence.MaxExact + 1, Exact: true}, changepoint.DefaultAlpha},
	} {
		_, err := changepoint.Scores(context.Background(), x, c.alpha, &c.s)
		var se *changepoint.SettingsError
		if !errors.As(err, &se) || se.Field != c.field || !errors.Is(err, changepoint.ErrSettings) {
			t.Errorf("%+v: got %v, want a SettingsError for %s", c.s, err, c.field)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "changepoint: ") {
			t.Errorf("error without the package prefix: %v", err)
		}
	}
}

func TestTooFew(t *testing.T) {
	t.Parallel()
	s := &changepoint.Settings{Window: 20, Embed: 5}
	need := 2*20 + 5 - 1
	_, err := changepoint.Scores(context.Background(), mat.NewDense(need-1, 2, nil), changepoint.DefaultAlpha, s)
	if !errors.Is(err, changepoint.ErrTooFew) || !strings.Contains(err.Error(), "44") {
		t.Errorf("got %v, want ErrTooFew naming the 44 rows needed", err)
	}
	d, err := changepoint.NewDetector(1, changepoint.DefaultAlpha, s)
	if err != nil {
		t.Fatal(err)
	}
	if d.MinRows() != need {
		t.Errorf("MinRows = %d, want %d", d.MinRows(), need)
	}
	if _, err := d.Flush(); !errors.Is(err, changepoint.ErrTooFew) {
		t.Errorf("Flush of an empty stream: got %v, want ErrTooFew", err)
	}
	// Exactly enough rows give exactly one score.
	rnd := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(need, 2, nil)
	for i := range need {
		x.Set(i, 0, rnd.NormFloat64())
		x.Set(i, 1, rnd.NormFloat64())
	}
	res, err := changepoint.Scores(context.Background(), x, changepoint.DefaultAlpha, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Scores) != 1 || res.Scores[0].Time != 20+5/2 {
		t.Errorf("scores %+v, want one at time %d", res.Scores, 20+5/2)
	}
}

func TestNonFinite(t *testing.T) {
	t.Parallel()
	x := mat.NewDense(300, 2, nil)
	x.Set(123, 1, math.NaN())
	_, err := changepoint.Scores(context.Background(), x, changepoint.DefaultAlpha, nil)
	var de *changepoint.DataError
	if !errors.As(err, &de) || de.Row != 123 || de.Column != 1 || !errors.Is(err, changepoint.ErrNonFinite) {
		t.Fatalf("got %v, want a DataError at row 123, column 1", err)
	}
	d, _ := changepoint.NewDetector(2, changepoint.DefaultAlpha, nil)
	if _, _, err := d.Push(context.Background(), []float64{1}); !errors.Is(err, changepoint.ErrDimension) {
		t.Errorf("short row: got %v, want ErrDimension", err)
	}
	if _, _, err := d.Push(context.Background(), []float64{1, math.Inf(-1)}); !errors.As(err, &de) || de.Row != 0 {
		t.Errorf("got %v, want a DataError at row 0", err)
	}
	if d.Rows() != 0 {
		t.Errorf("a refused row was kept: %d rows", d.Rows())
	}
}

// α = 0, the plain Pearson divergence, is a valid argument: a mean shift
// scores higher than the windows without one.
func TestPlainPearson(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(9, 9))
	x := mat.NewDense(300, 1, nil)
	for i := range 300 {
		v := rnd.NormFloat64()
		if i >= 150 {
			v += 3
		}
		x.Set(i, 0, v)
	}
	res, err := changepoint.Scores(context.Background(), x, 0, &changepoint.Settings{Embed: 1, Window: 30, Step: 5})
	if err != nil {
		t.Fatal(err)
	}
	top := slices.MaxFunc(res.Scores, func(a, b changepoint.Score) int { return cmp.Compare(a.Value, b.Value) })
	if abs(top.Time-150) > 10 {
		t.Errorf("the highest plain-Pearson score is at %d, want near 150", top.Time)
	}
}

func TestCheckTimes(t *testing.T) {
	t.Parallel()
	if err := changepoint.CheckTimes([]float64{1, 2, 2.5}); err != nil {
		t.Error(err)
	}
	for _, c := range [][]float64{{1, 3, 2}, {1, 1}, {0, math.NaN()}} {
		if err := changepoint.CheckTimes(c); !errors.Is(err, changepoint.ErrTimes) || !strings.Contains(err.Error(), "row 1") && !strings.Contains(err.Error(), "row 2") {
			t.Errorf("%v: got %v", c, err)
		}
	}
}

// A constant series scores zero everywhere, without an error: there is no
// scale to tune a kernel on, and nothing changed.
func TestConstant(t *testing.T) {
	t.Parallel()
	x := mat.NewDense(200, 1, nil)
	for i := range 200 {
		x.Set(i, 0, 7)
	}
	res, err := changepoint.Scores(context.Background(), x, changepoint.DefaultAlpha, &changepoint.Settings{Window: 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Scores {
		if s.Value != 0 {
			t.Fatalf("score %+v on a constant series", s)
		}
	}
	if len(res.ChangePoints) != 0 {
		t.Errorf("change points %+v on a constant series", res.ChangePoints)
	}
}

// The score of a change peaks at the change's first row (within 2 rows:
// a mean shift of 4 standard deviations seen by windows of 40 rows), for any
// subsequence length: Time is the middle of the boundary's subsequences.
func TestPlacement(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	for _, k := range []int{1, 4, 10} {
		rnd := rand.New(rand.NewPCG(3, uint64(k)))
		rows, c := 200, 100
		x := mat.NewDense(rows, 1, nil)
		for i := range rows {
			v := rnd.NormFloat64()
			if i >= c {
				v += 4
			}
			x.Set(i, 0, v)
		}
		res, err := changepoint.Scores(context.Background(), x, changepoint.DefaultAlpha, &changepoint.Settings{Embed: k, Window: 40})
		if err != nil {
			t.Fatal(err)
		}
		top := slices.MaxFunc(res.Scores, func(a, b changepoint.Score) int { return cmp.Compare(a.Value, b.Value) })
		if abs(top.Time-c) > 2 {
			t.Errorf("k = %d: the highest score is at %d, want within 2 rows of %d", k, top.Time, c)
		}
	}
}

// Scores, a Detector fed row by row, and Detect on the scores agree, and
// the same seed gives the same scores. The threshold is given: on two
// columns the default one follows their correlation, which Detect, at one
// threshold, does not.
func TestStreamingMatchesBatch(t *testing.T) {
	t.Parallel()
	x := switchingCovariance(rand.New(rand.NewPCG(5, 6)), 400)
	s := changepoint.Settings{Window: 30, Step: 3, Threshold: changepoint.DefaultThreshold, Src: rand.NewPCG(7, 8)}
	res, err := changepoint.Scores(context.Background(), x, changepoint.DefaultAlpha, &s)
	if err != nil {
		t.Fatal(err)
	}
	s.Src = rand.NewPCG(7, 8)
	d, err := changepoint.NewDetector(2, changepoint.DefaultAlpha, &s)
	if err != nil {
		t.Fatal(err)
	}
	var scores, found []changepoint.Score
	for i := range 400 {
		sc, ok, err := d.Push(context.Background(), x.RawRowView(i))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			scores = append(scores, sc)
		}
		found = append(found, d.ChangePoints()...)
	}
	last, err := d.Flush()
	if err != nil {
		t.Fatal(err)
	}
	found = append(found, last...)
	if !slices.Equal(scores, res.Scores) || !slices.Equal(found, res.ChangePoints) {
		t.Errorf("streaming and batch differ")
	}
	if det := changepoint.Detect(res.Scores, changepoint.DefaultThreshold, 30); !slices.Equal(det, res.ChangePoints) {
		t.Errorf("Detect gives %+v, the Detector %+v", det, res.ChangePoints)
	}
	for i := 1; i < len(res.Scores); i++ {
		if res.Scores[i].Time-res.Scores[i-1].Time != 3 {
			t.Fatalf("times %d, %d are not Step apart", res.Scores[i-1].Time, res.Scores[i].Time)
		}
	}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	sc := func(v ...float64) []changepoint.Score {
		out := make([]changepoint.Score, len(v))
		for i, x := range v {
			out[i] = changepoint.Score{Time: 10 * i, Value: x}
		}
		return out
	}
	times := func(s []changepoint.Score) []int {
		var t []int
		for _, x := range s {
			t = append(t, x.Time)
		}
		return t
	}
	for _, c := range []struct {
		v    []float64
		thr  float64
		dist int
		want []int
	}{
		{[]float64{0, 1, 3, 2, 0, 0, 5, 0}, 0.5, 20, []int{20, 60}},
		{[]float64{0, 1, 3, 2, 0, 0, 5, 0}, 0.5, 40, []int{60}}, // 20 is within 40 of the higher 60
		{[]float64{0, 1, 3, 2, 0, 0, 5, 0}, 4, 20, []int{60}},   // 20 is below the threshold
		{[]float64{2, 2, 0, 0, 0}, 1, 10, []int{0}},             // ties go to the earliest
		{[]float64{0, 0, 0, 1, 3}, 1, 10, []int{40}},            // the end cuts the neighbourhood
		{[]float64{0, 3, 0, 3, 0}, 1, 20, []int{10}},            // equal peaks within reach: the first
		{[]float64{0, 3, 0, 0, 3}, 1, 20, []int{10, 40}},        // … and out of reach: both
		{[]float64{-1, -0.5, -2}, -1, 10, []int{10}},            // a negative threshold
		{[]float64{}, 0, 10, nil},
	} {
		if got := times(changepoint.Detect(sc(c.v...), c.thr, c.dist)); !slices.Equal(got, c.want) {
			t.Errorf("Detect(%v, %v, %d) = %v, want %v", c.v, c.thr, c.dist, got, c.want)
		}
	}
}

// TestSeriesThatStopsVarying checks a series that varies and then holds one
// value (a stuck sensor) for longer than both windows: the running sums
// that standardise the windows would keep a rounding residue of the varying
// rows, so the windows of the constant stretch must still read as
// constant, score 0 rather than fail, and the change to the constant value
// must be found within a window of where it happens.
func TestSeriesThatStopsVarying(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	rnd := rand.New(rand.NewPCG(3, 3))
	const varying, stuck = 300, 400
	x := mat.NewDense(varying+stuck, 1, nil)
	for i := range varying + stuck {
		v := 5.0
		if i < varying {
			v = rnd.NormFloat64()
		}
		x.Set(i, 0, v)
	}
	res, err := changepoint.Scores(context.Background(), x, changepoint.DefaultAlpha, &changepoint.Settings{Step: 5, Src: rand.NewPCG(1, 1)})
	if err != nil {
		t.Fatalf("a series that stops varying: %v", err)
	}
	const n, k = 50, 10 // the default window and embedding
	for _, s := range res.Scores {
		if s.Time-k/2-n >= varying && s.Value != 0 { // the before window starts n rows before the after window, which starts k/2 before Time
			t.Errorf("time %d: both windows hold the constant stretch, but the score is %g, not 0", s.Time, s.Value)
		}
	}
	found := false
	for _, c := range res.ChangePoints {
		found = found || math.Abs(float64(c.Time-varying)) <= n
	}
	if !found {
		t.Errorf("change points %v: none within %d rows of the change at row %d", res.ChangePoints, n, varying)
	}
}
