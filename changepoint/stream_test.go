// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/changepoint"
	"github.com/sublinear/pearson/internal/testtier"
)

// streamRun feeds a Detector row by row and returns, for the first change
// point it reports within tol rows of c, the row after which it was
// reported (-1 if none), and the number of change points reported elsewhere.
func streamRun(t *testing.T, y []float64, c, tol int, s changepoint.Settings) (reported, elsewhere int) {
	d, err := changepoint.NewDetector(1, changepoint.DefaultAlpha, &s)
	if err != nil {
		t.Fatal(err)
	}
	reported = -1
	take := func(row int, cps []changepoint.Score) {
		for _, p := range cps {
			if reported < 0 && abs(p.Time-c) <= tol {
				reported = row
			} else {
				elsewhere++
			}
		}
	}
	for i, v := range y {
		if _, _, err := d.Push(context.Background(), []float64{v}); err != nil {
			t.Fatal(err)
		}
		take(i, d.ChangePoints())
	}
	last, err := d.Flush()
	if err != nil {
		t.Fatal(err)
	}
	take(len(y), last)
	return reported, elsewhere
}

// cusum returns the first row at which a two-sided CUSUM for a shift of
// the mean of unit-variance noise by ±δ from 0 (the pre-change mean and
// variance known) alarms, or -1: reference value δ/2, decision interval h.
func cusum(y []float64, delta, h float64) int {
	var up, down float64
	for i, v := range y {
		up = math.Max(0, up+v-delta/2)
		down = math.Max(0, down-v-delta/2)
		if up > h || down > h {
			return i
		}
	}
	return -1
}

// TestStreamDelay measures the streaming detector's detection and delay
// against two references on 8 series of 400 rows of unit white noise whose
// mean shifts by 2 at row 200: the estimate afresh at every row (M and
// Draws given: divergence.RelativePE with σ and λ cross-validated at every
// row, the detector of the previous releases) and a two-sided CUSUM that
// knows the pre-change mean and variance and the size of the shift
// (reference δ/2 = 1, h = 3: an average run of about 1000 rows without a
// change by Siegmund's approximation, the detectors' false-alarm rate,
// and a delay of about 4 rows), the optimal detector of a known shift.
//
// A window detector reports a change once its score has peaked and the
// MinDistance rows after the peak are in: the peak comes when the change
// is at the boundary of the windows, n + k − 1 = 59 rows after it, and the
// report MinDistance = 50 rows later, about 109 rows after the change
// whatever the estimate. So the incremental estimate must find at least as
// many of the 8 changes within ±10 rows as the estimate afresh, less one,
// report them with a median delay within 5 rows of it (the peak's position
// moves by a few rows with the noise), and report no more changes
// elsewhere than it, plus one. The CUSUM's delay is logged: the price of
// not knowing what changes.
func TestStreamDelay(t *testing.T) {
	testtier.Long(t, "about 25 s: the estimate afresh at every row of 8 series")
	testtier.SkipUnderRace(t)
	t.Parallel()
	const rows, c, tol, series = 400, 200, 10, 8
	var found, foundRef, else1, elseRef, cusumHits int
	var delay, delayRef, delayCusum []int
	for i := range series {
		rnd := rand.New(rand.NewPCG(36, uint64(i)))
		y := make([]float64, rows)
		for j := range y {
			y[j] = rnd.NormFloat64()
			if j >= c {
				y[j] += 2
			}
		}
		r, e := streamRun(t, y, c, tol, changepoint.Settings{})
		rr, er := streamRun(t, y, c, tol, changepoint.Settings{M: changepoint.DefaultM, Draws: changepoint.DefaultDraws})
		else1 += e
		elseRef += er
		if r >= 0 {
			found++
			delay = append(delay, r-c)
		}
		if rr >= 0 {
			foundRef++
			delayRef = append(delayRef, rr-c)
		}
		if a := cusum(y, 2, 3); a >= c {
			cusumHits++
			delayCusum = append(delayCusum, a-c)
		}
	}
	med := func(v []int) int {
		if len(v) == 0 {
			return -1
		}
		s := slices.Clone(v)
		slices.Sort(s)
		return s[len(s)/2]
	}
	t.Logf("incremental: %d of %d found, median delay %d rows, %d elsewhere", found, series, med(delay), else1)
	t.Logf("afresh:      %d of %d found, median delay %d rows, %d elsewhere", foundRef, series, med(delayRef), elseRef)
	t.Logf("CUSUM (known shift): %d of %d alarms after the change, median delay %d rows", cusumHits, series, med(delayCusum))
	if found < foundRef-1 {
		t.Errorf("incremental finds %d changes, afresh %d", found, foundRef)
	}
	if found > 0 && foundRef > 0 && abs(med(delay)-med(delayRef)) > 5 {
		t.Errorf("median delays %d and %d rows differ by more than 5", med(delay), med(delayRef))
	}
	if else1 > elseRef+1 {
		t.Errorf("incremental reports %d changes elsewhere, afresh %d", else1, elseRef)
	}
}

// BenchmarkColumnThreshold measures the streaming default's threshold on
// several columns (Detector.Threshold, columnThreshold): the change points
// it reports in 2 × 20 000 rows of white and AR(2) noise, one column and
// 2–10 columns independent or sharing one factor (correlation ρ between
// any two), at the default settings, on series other than those the curve
// was fitted on; and, in 40 series of 600 rows, how often a 1-sd mean shift
// in a column on scale 1 beside one on scale 10⁵ is found within 50 rows
// (Window 50, Step 2: TestChangepointSmallColumnShift's series), against
// the one-column DefaultThreshold. About 13 s of CPU; docs/RESULTS.md
// records it.
func BenchmarkColumnThreshold(b *testing.B) {
	for b.Loop() {
		for _, c := range []struct {
			dim int
			rho float64
		}{{1, 0}, {2, 0}, {2, 0.5}, {2, 0.9}, {2, 0.99}, {3, 0}, {5, 0}, {5, 0.9}, {10, 0}} {
			alarms, scored := 0, 0
			var thr float64
			for i, ar := range []bool{false, true} {
				const rows = 20000
				x := mat.NewDense(rows, c.dim, nil)
				f := noise(rand.New(rand.NewPCG(11, uint64(i))), rows, ar)
				for j := range c.dim {
					e := noise(rand.New(rand.NewPCG(12+uint64(j), uint64(i))), rows, ar)
					for r := range rows {
						x.Set(r, j, math.Sqrt(c.rho)*f.At(r, 0)+math.Sqrt(1-c.rho)*e.At(r, 0))
					}
				}
				d, err := changepoint.NewDetector(c.dim, changepoint.DefaultAlpha, nil)
				if err != nil {
					b.Fatal(err)
				}
				row := make([]float64, c.dim)
				for r := range rows {
					mat.Row(row, r, x)
					if _, ok, err := d.Push(context.Background(), row); err != nil {
						b.Fatal(err)
					} else if ok {
						scored++
						thr += d.Threshold()
					}
					alarms += len(d.ChangePoints())
				}
				last, err := d.Flush()
				if err != nil {
					b.Fatal(err)
				}
				alarms += len(last)
			}
			b.Logf("%2d columns, ρ = %.2f: %2d false alarms in %d scored rows (%.2f in 1000), mean threshold %.2f",
				c.dim, c.rho, alarms, scored, 1000*float64(alarms)/float64(scored), thr/float64(scored))
		}
		var found, foundOne [2]int
		for seed := range uint64(40) {
			rnd := rand.New(rand.NewPCG(100+seed, 9))
			x := mat.NewDense(600, 2, nil)
			for r := range 600 {
				x.Set(r, 0, rnd.NormFloat64())
				if r >= 300 {
					x.Set(r, 0, x.At(r, 0)+1)
				}
				x.Set(r, 1, 5e5+1e5*rnd.NormFloat64())
			}
			for cols := range 2 {
				in := mat.Matrix(x)
				if cols == 1 {
					in = x.Slice(0, 600, 0, 1)
				}
				for one, thr := range []float64{0, changepoint.DefaultThreshold} {
					res, err := changepoint.Scores(context.Background(), in, changepoint.DefaultAlpha, &changepoint.Settings{Window: 50, Step: 2, Threshold: thr})
					if err != nil {
						b.Fatal(err)
					}
					for _, p := range res.ChangePoints {
						if abs(p.Time-300) <= 50 {
							if one == 0 {
								found[cols]++
							} else {
								foundOne[cols]++
							}
							break
						}
					}
				}
			}
		}
		b.Logf("1-sd shift beside a column on scale 10⁵, 40 series: found in %d (at DefaultThreshold %d); the small column alone %d (%d)",
			found[0], foundOne[0], found[1], foundOne[1])
	}
}
