// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSpreadDeviance checks the split spreadChanges picks and its scaled
// deviance against a direct evaluation of the Gamma quasi-likelihood at
// every admissible split, written here from the definition: the deviance
// Σ 2·[−ln(y/μ) + (y − μ)/μ] of one mean against two, over the pooled
// Pearson dispersion of the two-mean fit, at the best split divided by the
// long-run factor (1 + ρ)/(1 − ρ) of AR(1) residuals.
func TestSpreadDeviance(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(3, 4))
	const rows, minLen = 120, 10
	x := mat.NewDense(rows, 2, nil)
	for r := range rows {
		sd := 1.0
		if r >= 70 {
			sd = 2.5
		}
		x.Set(r, 0, sd*rnd.NormFloat64())
		x.Set(r, 1, rnd.NormFloat64()+0.01*float64(r))
	}
	sg := &segmenter{x: x, rows: rows, dim: 2}
	// The reference: y(r) = |x(r) − x(r−1)|, capped at 8 times the
	// column's median absolute difference, rows s+1 … b−1 and b+1 … e−1.
	var caps [2]float64
	for c := range 2 {
		var d []float64
		for r := 1; r < rows; r++ {
			d = append(d, math.Abs(x.At(r, c)-x.At(r-1, c)))
		}
		slices.Sort(d)
		caps[c] = 8 * d[len(d)/2] // 119 differences: the middle one

	}
	deviance := func(b int) (total, top float64) {
		for c := range 2 {
			var y1, y2 []float64
			for r := 1; r < rows; r++ {
				y := math.Min(caps[c], math.Abs(x.At(r, c)-x.At(r-1, c)))
				switch {
				case r < b:
					y1 = append(y1, y)
				case r > b:
					y2 = append(y2, y)
				}
			}
			mean := func(v []float64) float64 {
				s := 0.0
				for _, y := range v {
					s += y
				}
				return s / float64(len(v))
			}
			dev := func(v []float64, mu float64) float64 {
				d := 0.0
				for _, y := range v {
					d += -math.Log(y/mu) + (y-mu)/mu // y > 0: continuous data
				}
				return 2 * d
			}
			m1, m2 := mean(y1), mean(y2)
			m := mean(append(append([]float64{}, y1...), y2...))
			pearson := 0.0
			for _, y := range y1 {
				pearson += (y - m1) * (y - m1) / (m1 * m1)
			}
			for _, y := range y2 {
				pearson += (y - m2) * (y - m2) / (m2 * m2)
			}
			phi := pearson / float64(len(y1)+len(y2)-2)
			dc := (dev(y1, m) + dev(y2, m) - dev(y1, m1) - dev(y2, m2)) / phi
			total += dc
			top = math.Max(top, dc)
		}
		return total, top
	}
	// longRun is (1 + ρ)/(1 − ρ), ρ in [0, 0.95] the lag-1 autocorrelation of the
	// differences relative to their local mean (25 on either side, on the
	// same side of b), pairs within one side.
	longRun := func(b int) float64 {
		var num, den float64
		for c := range 2 {
			for _, side := range [][2]int{{1, b - 1}, {b + 1, rows - 1}} {
				var r []float64
				for i := side[0]; i <= side[1]; i++ {
					r = append(r, math.Min(caps[c], math.Abs(x.At(i, c)-x.At(i-1, c))))
				}
				// Each relative to the mean of those within 25 on its side.
				rel := func(i int) float64 {
					mu, n := 0.0, 0
					for j := max(0, i-25); j <= min(len(r)-1, i+25); j++ {
						mu += r[j]
						n++
					}
					mu /= float64(n)
					return (r[i] - mu) / mu
				}
				for i := range r {
					v := rel(i)
					den += v * v
					if i > 0 {
						num += v * rel(i-1)
					}
				}
			}
		}
		rho := math.Max(0, math.Min(0.95, num/den))
		return (1 + rho) / (1 - rho)
	}
	bestB, best := 0, math.Inf(-1)
	oneB, one := 0, math.Inf(-1)
	for b := 1 + minLen; rows-1-b >= minLen; b++ {
		v, top := deviance(b)
		if v > best {
			bestB, best = b, v
		}
		if top > one {
			oneB, one = b, top
		}
	}
	best /= longRun(bestB)
	one /= longRun(oneB)
	inf := math.Inf(1)
	got, err := sg.spreadChanges(context.Background(), nil, minLen, best-1e-9, inf)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("%d changes, want the one split at the penalty just under its deviance", len(got))
	}
	if got[0].Time != bestB || math.Abs(got[0].Calibrated-best) > 1e-9*best {
		t.Errorf("split %d with deviance %.12g, want %d with %.12g", got[0].Time, got[0].Calibrated, bestB, best)
	}
	if abs := got[0].Time - 70; abs < -5 || abs > 5 {
		t.Errorf("split at %d, the change is at 70", got[0].Time)
	}
	if got, _ := sg.spreadChanges(context.Background(), nil, minLen, best+1e-6, inf); len(got) != 0 {
		t.Errorf("changes %v above a penalty over the best deviance", got)
	}
	// Each column alone: the best split of the largest column's deviance,
	// found at a penalty just under it (the summed one out of reach).
	got, err = sg.spreadChanges(context.Background(), nil, minLen, 1e300, one-1e-9)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Time != oneB {
		t.Fatalf("one column: changes %v, want one at %d (deviance %.12g)", got, oneB, one)
	}
	if got, _ := sg.spreadChanges(context.Background(), nil, minLen, 1e300, one+1e-6); len(got) != 0 {
		t.Errorf("one column: changes %v above a penalty over the best deviance", got)
	}
}
