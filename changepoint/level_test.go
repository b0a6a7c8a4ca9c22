// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLevelStatistic checks the level rule's test of a split against a
// reference written here from its definition with QR least squares on the
// N-row design: V the long-run variance σ²(1 + ρ)/(1 − ρ) of the
// residuals of constant, t, t² and step; the polynomial degree raised
// while the next term lowers the residual sum of squares by more than
// V·ln N; the statistic the step's drop of the residual sum of squares in
// that model over V.
func TestLevelStatistic(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(5, 6))
	const n = 300
	for _, c := range []struct {
		name        string
		ramp, shift float64
		curve       float64
		b           int
	}{
		{"step", 0, 1.5, 0, 140},
		{"ramp", 4, 0, 0, 150},
		{"curve and step", 0, 2.5, 6, 210},
		{"curve", 0, 0, 20, 100},
		{"noise", 0, 0, 0, 200},
	} {
		x := mat.NewDense(n, 1, nil)
		e := 0.0
		for i := range n {
			e = 0.4*e + rnd.NormFloat64()
			u := float64(i) / n
			v := e + c.ramp*u + c.curve*(u-0.5)*(u-0.5)
			if i >= c.b {
				v += c.shift
			}
			x.Set(i, 0, v)
		}
		sg := &segmenter{x: x, rows: n, dim: 1}
		col := sg.levelColumn(0, 0, n)
		got := col.final(c.b)

		// The reference.
		design := func(cols []int) *mat.Dense {
			d := mat.NewDense(n, len(cols), nil)
			for i := range n {
				tt := 2*float64(i)/float64(n-1) - 1
				all := []float64{0, 1, tt, tt*tt - 1.0/3}
				if i >= c.b {
					all[0] = 1
				}
				for j, k := range cols {
					d.Set(i, j, all[k])
				}
			}
			return d
		}
		y := mat.NewVecDense(n, col.y)
		lsq := func(cols []int) (float64, []float64) {
			d := design(cols)
			var qr mat.QR
			qr.Factorize(d)
			var beta, fitted mat.VecDense
			if err := qr.SolveVecTo(&beta, false, y); err != nil {
				t.Fatal(err)
			}
			fitted.MulVec(d, &beta)
			r := make([]float64, n)
			ss := 0.0
			for i := range r {
				r[i] = y.AtVec(i) - fitted.AtVec(i)
				ss += r[i] * r[i]
			}
			return ss, r
		}
		step := [3]float64{}
		for p := range 3 {
			step[p], _ = lsq([]int{0, 1, 2, 3}[:p+2])
		}
		_, r := lsq([]int{0, 1, 2, 3})
		var s2, s1 float64
		for i := range r {
			s2 += r[i] * r[i]
			if i > 0 {
				s1 += r[i] * r[i-1]
			}
		}
		rho := math.Max(0, s1/s2)
		v := s2 / n * (1 + rho) / (1 - rho)
		p := 0
		for p < 2 && step[p]-step[p+1] > v*math.Log(n) {
			p++
		}
		none, _ := lsq([]int{1, 2, 3}[:p+1])
		want := math.Max(0, none-step[p]) / v
		if rho > maxLevelRho {
			want = 0
		}
		if math.Abs(got-want) > 1e-8*math.Max(1, want) {
			t.Errorf("%s: statistic %v, reference %v", c.name, got, want)
		}
		t.Logf("%s: χ² %.2f at row %d (polynomial degree %d)", c.name, got, c.b, p)
		switch c.name {
		case "step", "curve and step":
			if !(got > 4*math.Log(n)) {
				t.Errorf("%s: χ² %.2f, want above the one-column penalty %.1f", c.name, got, 4*math.Log(n))
			}
		case "ramp", "curve":
			if p == 0 || got > 4*math.Log(n) {
				t.Errorf("%s: degree %d, χ² %.2f: read as a step", c.name, p, got)
			}
		}
	}
}

// TestLevelQuiet checks that the level rule finds nothing in a steady
// ramp, a quadratic curve, a random walk or a season of period 24, and
// finds a shift of 1.5 spreads in AR(1) noise at its row (±5).
func TestLevelQuiet(t *testing.T) {
	t.Parallel()
	const n = 500
	logT := math.Log(n)
	for _, c := range []struct {
		name string
		gen  func(i int, e, walk float64) float64
		want int // the shift's row, or -1
	}{
		{"ramp", func(i int, e, _ float64) float64 { return e + 6*float64(i)/n }, -1},
		{"quadratic", func(i int, e, _ float64) float64 { u := float64(i) / n; return e + 12*u*u }, -1},
		{"random walk", func(_ int, _, walk float64) float64 { return walk }, -1},
		{"season", func(i int, e, _ float64) float64 { return e + 3*math.Sin(2*math.Pi*float64(i)/24) }, -1},
		{"shift", func(i int, e, _ float64) float64 {
			if i >= 320 {
				return e + 1.5
			}
			return e
		}, 320},
	} {
		miss := 0
		for seed := range 10 {
			rnd := rand.New(rand.NewPCG(uint64(seed), 41))
			x := mat.NewDense(n, 1, nil)
			e, walk := 0.0, 0.0
			for i := range n {
				e = 0.3*e + rnd.NormFloat64()
				walk += rnd.NormFloat64()
				x.Set(i, 0, c.gen(i, e, walk))
			}
			sg := &segmenter{x: x, rows: n, dim: 1}
			got, err := sg.levelChanges(context.Background(), nil, 25, levelPenaltyPerParam*2*logT, math.Inf(1))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.want < 0 && len(got) > 0:
				t.Errorf("%s, seed %d: changes %v", c.name, seed, got)
			case c.want >= 0 && (len(got) != 1 || got[0].Time-c.want > 5 || c.want-got[0].Time > 5):
				miss++
				t.Logf("%s, seed %d: changes %v", c.name, seed, got)
			}
		}
		if miss > 1 {
			t.Errorf("%s: missed or misplaced in %d of 10 series, want at most 1", c.name, miss)
		}
	}
}

// TestAdjacentShare checks adjacentShare against the variance of the
// difference of two adjacent means of L rows computed from the AR(1)
// covariance matrix ρ^|i−j|, over its asymptotic value 2(1 + ρ)/((1 − ρ)L).
func TestAdjacentShare(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ rho, L float64 }{{0.5, 20}, {0.3, 10}, {0.5, 5}, {0.8, 40}, {0.1, 3}} {
		L := int(c.L)
		v := 0.0
		for i := range 2 * L {
			for j := range 2 * L {
				ai, aj := 1.0, 1.0
				if i >= L {
					ai = -1
				}
				if j >= L {
					aj = -1
				}
				v += ai * aj * math.Pow(c.rho, math.Abs(float64(i-j))) / (c.L * c.L)
			}
		}
		want := math.Max(0.5, v/(2*(1+c.rho)/((1-c.rho)*c.L)))
		if got := adjacentShare(c.rho, c.L); math.Abs(got-want) > 1e-12 {
			t.Errorf("adjacentShare(%g, %g) = %.15f, want %.15f", c.rho, c.L, got, want)
		}
	}
	if got := adjacentShare(0, 20); got != 1 {
		t.Errorf("adjacentShare(0, 20) = %g, want 1", got)
	}
}
