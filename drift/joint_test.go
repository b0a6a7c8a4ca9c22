// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/testtier"
)

// yearsDollars returns two columns of n rows: "years" standard normal and
// "dollars" 5·10⁵ + 10⁵·(ρ·years + √(1 − ρ²)·z), z standard normal: their
// correlation ρ, their scales 1 and 10⁵.
func yearsDollars(n int, rho float64, rnd *rand.Rand) []Column {
	a, b := make([]float64, n), make([]float64, n)
	for i := range n {
		z1, z2 := rnd.NormFloat64(), rnd.NormFloat64()
		a[i] = z1
		b[i] = 5e5 + 1e5*(rho*z1+math.Sqrt(1-rho*rho)*z2)
	}
	return []Column{{Name: "years", Values: a}, {Name: "dollars", Values: b}}
}

// correlatedPE is the truth PE_½(N(0, [1 ρ; ρ 1]) ‖ N(0, I)) =
// ½∫p²/(½p + ½q) − ½ by a 2-D Gauss–Legendre product rule over ±10
// standard deviations (200 nodes a side). PE is invariant under any
// invertible map applied to both distributions, so it is the truth in
// dollars as in standard units.
func correlatedPE(rho float64) float64 {
	det := 1 - rho*rho
	f := func(x, y float64) float64 {
		p := math.Exp(-(x*x-2*rho*x*y+y*y)/(2*det)) / (2 * math.Pi * math.Sqrt(det))
		q := math.Exp(-(x*x+y*y)/2) / (2 * math.Pi)
		if p == 0 {
			return 0
		}
		return p * p / (0.5*p + 0.5*q)
	}
	outer := func(x float64) float64 {
		return quad.Fixed(func(y float64) float64 { return f(x, y) }, -10, 10, 200, quad.Legendre{}, 0)
	}
	return 0.5*quad.Fixed(outer, -10, 10, 200, quad.Legendre{}, 0) - 0.5
}

// meanSDJoint is the former joint(): each column standardised by the
// reference's mean and standard deviation, written here as the reference
// method the robust scale is measured against.
func meanSDJoint(ref, cur []Column) (r, c mat.Matrix) {
	cols := len(ref)
	mean, sd := make([]float64, cols), make([]float64, cols)
	for j, col := range ref {
		mean[j], sd[j] = moments(col.Values)
	}
	build := func(t []Column) mat.Matrix {
		n := len(t[0].Values)
		x := mat.NewDense(n, cols, nil)
		for j, col := range t {
			for i, v := range col.Values {
				x.Set(i, j, (v-mean[j])/sd[j])
			}
		}
		return x
	}
	return build(ref), build(cur)
}

// TestJointRobustScale checks the joint row on the two columns of
// yearsDollars, on scales 1 and 10⁵, whose correlation goes from 0 to 0.5
// with the margins unchanged, when the reference holds one value of 10⁹
// dollars (a typing error, say):
//
//   - scaled by the median and MAD (joint), the row drifts with p ≤ 0.01
//     (at 1000 rows the joint row's power at this change is 20 of 20 in
//     the power study) and its estimate is within 4 standard errors and
//     25% of the truth by quadrature, 0.0342 (measured: 0.0351 ± 0.0047;
//     the margin is that of one run, not of a coverage study);
//   - scaled by the reference's mean and standard deviation (meanSDJoint,
//     the former rule) with the same test, the outlier inflates the sd of
//     dollars 300-fold, the column shrinks to nothing in the kernel, and
//     the same data show no change: p > 0.05 and an estimate below a
//     tenth of the robust one.
//
// A third column, constant in both tables, is left out of the joint row
// and the result says so.
func TestJointRobustScale(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	rnd := rand.New(rand.NewPCG(12, 13))
	const n = 1000
	ref, cur := yearsDollars(n, 0, rnd), yearsDollars(n, 0.5, rnd)
	ref[1].Values[0] = 1e9
	version := func() Column {
		v := make([]float64, n)
		for i := range v {
			v[i] = 3
		}
		return Column{Name: "version", Values: v}
	}
	ref, cur = append(ref, version()), append(cur, version())
	s := &Settings{}
	s.Src = rand.NewPCG(1, 2)
	res, err := Compare(context.Background(), ref, cur, s)
	if err != nil {
		t.Fatal(err)
	}
	j := res.Joint
	truth := correlatedPE(0.5)
	t.Logf("robust joint: PE %.4g ± %.2g (truth %.4g), p %.3g; scaling: %s", j.Divergence, j.StdErr, truth, j.PValue, res.JointScaling())
	if !j.Drifted || j.PValue > 0.01 {
		t.Errorf("robust scale: joint row %s with p %.3g, want drifted with p ≤ 0.01", j.Status(), j.PValue)
	}
	if e := math.Abs(j.Divergence - truth); e > 4*j.StdErr || e > 0.25*truth {
		t.Errorf("robust scale: joint PE %.4g ± %.2g, truth %.4g", j.Divergence, j.StdErr, truth)
	}
	if len(res.JointScales) != 3 || res.JointScales[2].Rule != "const" || res.JointScales[1].Rule != "mad" ||
		math.Abs(res.JointScales[1].Spread/1e5-1) > 0.1 || math.Abs(res.JointScales[0].Spread-1) > 0.1 {
		t.Errorf("joint scales %+v: want years ≈ 1 and dollars ≈ 1e5 by mad, version constant", res.JointScales)
	}

	mr, mc := meanSDJoint(ref[:2], cur[:2])
	old, err := twoStage(context.Background(), mc, mr, defaults(t), divergence.DefaultK, 199, divergence.DefaultM, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("mean/sd joint: PE %.4g ± %.2g, p %.3g", old.PE.PE, old.PE.StdErr, old.PValue)
	if old.PValue <= 0.05 || old.PE.PE > j.Divergence/10 {
		t.Errorf("mean/sd scale: p %.3g, PE %.4g: the reference method was expected to miss the change (see the comment)", old.PValue, old.PE.PE)
	}
}

// TestJointCalibration checks the joint row's false positives when nothing
// changed: two tables drawn from one distribution of three columns on
// unlike scales (yearsDollars and a Cauchy column, whose standard
// deviation does not exist), 400 rows each. The scales are computed from
// both tables pooled, the same under every relabelling, so the permutation
// p-value is exact: the share of p ≤ 0.05 must stay within three binomial
// standard errors of 0.05 (20 tables by default, 200 in the long tier).
func TestJointCalibration(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	tables := testtier.Pick(20, 200)
	const n = 400
	rejected := 0
	for r := range tables {
		rnd := rand.New(rand.NewPCG(uint64(r), 29))
		table := func() []Column {
			c := yearsDollars(n, 0.3, rnd)
			v := make([]float64, n)
			for i := range v {
				v[i] = math.Tan(math.Pi * (rnd.Float64() - 0.5))
			}
			return append(c, Column{Name: "cauchy", Values: v})
		}
		s := fastSettings(uint64(r))
		res, err := Compare(context.Background(), table(), table(), s)
		if err != nil {
			t.Fatal(err)
		}
		if res.Joint.PValue <= 0.05 {
			rejected++
		}
	}
	rate := float64(rejected) / float64(tables)
	t.Logf("joint p ≤ 0.05 in %d of %d tables (%.3f; bound %.3f)", rejected, tables, rate, binomialBound(0.05, tables))
	if rate > binomialBound(0.05, tables) {
		t.Errorf("joint row: false positives at rate %.3f over %d tables, beyond %.3f", rate, tables, binomialBound(0.05, tables))
	}
}

// TestJointOutlierStudy is the study behind TestJointRobustScale, over 20
// seeds: the correlation of yearsDollars goes from 0 to 0.5 (1000 rows a
// table), with and without one reference value of 10⁹ dollars. The joint
// row, scaled by the median and MAD, must find every change (p ≤ 0.05);
// the former rule (meanSDJoint, the same test) is logged beside it, and
// must find none of those with the outlier at more than the level's rate
// (three binomial standard errors above 0.05). Its estimates are logged
// against the truth by quadrature.
func TestJointOutlierStudy(t *testing.T) {
	t.Parallel()
	testtier.Long(t, "40 comparisons of 1000 rows")
	testtier.SkipUnderRace(t)
	const n, seeds = 1000, 20
	truth := correlatedPE(0.5)
	for _, outlier := range []bool{false, true} {
		var robust, old, err2 int
		var sum float64
		for seed := range uint64(seeds) {
			rnd := rand.New(rand.NewPCG(seed, 41))
			ref, cur := yearsDollars(n, 0, rnd), yearsDollars(n, 0.5, rnd)
			if outlier {
				ref[1].Values[0] = 1e9
			}
			s := &Settings{}
			s.Src = rand.NewPCG(seed, 2)
			res, err := Compare(context.Background(), ref, cur, s)
			if err != nil {
				t.Fatal(err)
			}
			j := res.Joint
			if j.PValue <= 0.05 {
				robust++
			}
			if math.Abs(j.Divergence-truth) <= 2*j.StdErr {
				err2++
			}
			sum += j.Divergence
			mr, mc := meanSDJoint(ref, cur)
			o, err := twoStage(context.Background(), mc, mr, defaults(t), divergence.DefaultK, 199, divergence.DefaultM, rand.New(rand.NewPCG(seed, 3)))
			if err != nil {
				t.Fatal(err)
			}
			if o.PValue <= 0.05 {
				old++
			}
		}
		t.Logf("outlier %v: robust scale found %d of %d (mean estimate %.4g, truth %.4g by quadrature; within 2 stderr of it in %d), mean/sd scale %d of %d", outlier, robust, seeds, sum/seeds, truth, err2, old, seeds)
		if robust < seeds {
			t.Errorf("outlier %v: the robust joint row found %d of %d changes", outlier, robust, seeds)
		}
		if outlier && float64(old)/seeds > binomialBound(0.05, seeds) {
			t.Errorf("the mean/sd rule found %d of %d with the outlier: the study no longer shows what it claims", old, seeds)
		}
	}
}

// TestJointConstantInReference: a column constant in the reference (3 on
// every row) that takes the value 4 on a quarter of the current rows
// (MAD and IQR of both tables pooled are 0) is scaled by its root mean
// square deviation, 0.35 over both tables, with the other two columns
// unchanged; the joint row sees the change, and its scaling says which
// spread the column had. The column's own row sees it too.
func TestJointConstantInReference(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	rnd := rand.New(rand.NewPCG(4, 5))
	const n = 500
	ref, cur := yearsDollars(n, 0, rnd), yearsDollars(n, 0, rnd)
	rv, cv := make([]float64, n), make([]float64, n)
	for i := range n {
		rv[i], cv[i] = 3, 3
		if rnd.IntN(4) == 0 {
			cv[i] = 4
		}
	}
	ref, cur = append(ref, Column{Name: "v", Values: rv}), append(cur, Column{Name: "v", Values: cv})
	res, err := Compare(context.Background(), ref, cur, fastSettings(1))
	if err != nil {
		t.Fatal(err)
	}
	// About 1 in 8 pooled values is 4: the root mean square deviation from
	// the median 3 is √(1/8) = 0.354, within 0.05 at 1000 values (its
	// binomial standard error is about 0.015).
	v := res.JointScales[2]
	if v.Rule != "sd" || math.Abs(v.Spread-math.Sqrt(0.125)) > 0.05 || !strings.Contains(res.JointScaling(), `"v": MAD and IQR 0, standard deviation instead`) {
		t.Errorf("v: %+v, scaling %q; want its rms deviation, about 0.354, by sd", v, res.JointScaling())
	}
	if !res.Joint.Drifted || !res.Columns[2].Drifted {
		t.Errorf("joint row %s, column v %s: want both drifted", res.Joint.Status(), res.Columns[2].Status())
	}
}
