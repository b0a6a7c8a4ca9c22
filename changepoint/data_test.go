// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/changepoint"
)

// The synthetic series of Liu, Yamada, Collier & Sugiyama (2013), §4.1,
// after Kawahara & Sugiyama (2012): a change every segLen = 100 rows, the
// N-th segment (from 1) covering rows 100(N−1) … 100N − 1.
const segLen = 100

func segment(t int) int { return t/segLen + 1 }

// ar2 is y(t) = 0.6 y(t−1) − 0.5 y(t−2) + ε(t), y(0) = y(1) = 0.
func ar2(eps []float64) *mat.Dense {
	y := make([]float64, len(eps))
	for t := 2; t < len(eps); t++ {
		y[t] = 0.6*y[t-1] - 0.5*y[t-2] + eps[t]
	}
	return mat.NewDense(len(y), 1, y)
}

// jumpingMean: AR(2) with ε(t) ~ N(μ_N, 1.5²), μ_1 = 0, μ_N = μ_{N−1} + N/16.
func jumpingMean(rnd *rand.Rand, rows int) *mat.Dense {
	mu := make([]float64, segment(rows-1)+1)
	for n := 2; n < len(mu); n++ {
		mu[n] = mu[n-1] + float64(n)/16
	}
	eps := make([]float64, rows)
	for t := range eps {
		eps[t] = mu[segment(t)] + 1.5*rnd.NormFloat64()
	}
	return ar2(eps)
}

// scalingVariance: AR(2) with ε(t) ~ N(0, σ_N²), σ_N = 1 for odd N and
// ln(e + N/4) for even N.
func scalingVariance(rnd *rand.Rand, rows int) *mat.Dense {
	return scaledAR2(rnd, rows, (*rand.Rand).NormFloat64)
}

// scaledAR2 is the scaling-variance recipe with ε(t) = σ_N·u(t), u(t) the
// draws of unit, which must have mean 0 and variance 1.
func scaledAR2(rnd *rand.Rand, rows int, unit func(*rand.Rand) float64) *mat.Dense {
	eps := make([]float64, rows)
	for t := range eps {
		n, sd := segment(t), 1.0
		if n%2 == 0 {
			sd = math.Log(math.E + float64(n)/4)
		}
		eps[t] = sd * unit(rnd)
	}
	return ar2(eps)
}

// heavyScalingVariance is the scaling-variance recipe with heavy-tailed
// innovations: ε(t) = σ_N·T(t)/√3, T(t) Student's t with 3 degrees of
// freedom (variance 3), so that ε has the paper's σ_N² as its variance but
// no fourth moment, and the sample variance is an inefficient estimate of
// the spread.
func heavyScalingVariance(rnd *rand.Rand, rows int) *mat.Dense {
	return scaledAR2(rnd, rows, func(rnd *rand.Rand) float64 {
		z := rnd.NormFloat64()
		var chi2 float64
		for range 3 {
			g := rnd.NormFloat64()
			chi2 += g * g
		}
		return z / math.Sqrt(chi2/3) / math.Sqrt(3)
	})
}

// laplaceScalingVariance is the scaling-variance recipe with Laplace
// innovations of variance σ_N² (scale σ_N/√2): tails heavier than the
// Gaussian's, with every moment finite.
func laplaceScalingVariance(rnd *rand.Rand, rows int) *mat.Dense {
	return scaledAR2(rnd, rows, func(rnd *rand.Rand) float64 {
		e := rnd.ExpFloat64() / math.Sqrt2
		if rnd.IntN(2) == 0 {
			e = -e
		}
		return e
	})
}

// contaminated returns a draw of the unit-variance contaminated normal
// (1−p)·N(0, a²) + p·N(0, b²), p = 0.06, a = 0.5, b² = (1 − (1−p)a²)/p ≈ 12.75:
// the bulk half as wide as N(0, 1)'s, the variance restored by rare large
// values (kurtosis ≈ 29).
func contaminated(rnd *rand.Rand) float64 {
	const p, a = 0.06, 0.5
	if rnd.Float64() < p {
		return math.Sqrt((1-(1-p)*a*a)/p) * rnd.NormFloat64()
	}
	return a * rnd.NormFloat64()
}

// switchingKurtosisAR is the AR(2) recipe whose innovations are
// kurtosisSwitch's rows.
func switchingKurtosisAR(rnd *rand.Rand, rows int) *mat.Dense {
	return ar2(kurtosisSwitch(rnd, rows))
}

// switchingKurtosis: independent rows, kurtosisSwitch's.
func switchingKurtosis(rnd *rand.Rand, rows int) *mat.Dense {
	return mat.NewDense(rows, 1, kurtosisSwitch(rnd, rows))
}

// kurtosisSwitch returns rows values, N(0, 1) in odd segments and the
// contaminated normal in even ones: a change of spread at equal variance.
func kurtosisSwitch(rnd *rand.Rand, rows int) []float64 {
	y := make([]float64, rows)
	for t := range y {
		if segment(t)%2 == 1 {
			y[t] = rnd.NormFloat64()
		} else {
			y[t] = contaminated(rnd)
		}
	}
	return y
}

// switchingCovariance: 2-D, independent rows, unit variances and
// correlation −(4/5 + (N−2)/500) for odd N, +(4/5 + (N−2)/500) for even N.
func switchingCovariance(rnd *rand.Rand, rows int) *mat.Dense {
	x := mat.NewDense(rows, 2, nil)
	for t := range rows {
		n := segment(t)
		c := 4.0/5 + float64(n-2)/500
		if n%2 == 1 {
			c = -c
		}
		z1, z2 := rnd.NormFloat64(), rnd.NormFloat64()
		x.Set(t, 0, z1)
		x.Set(t, 1, c*z1+math.Sqrt(1-c*c)*z2)
	}
	return x
}

// switchingShape is not the paper's: independent rows of mean 0 and
// variance 1 whose distribution switches between N(0, 1) in odd segments
// and the bimodal mixture ½N(−0.9, 0.19) + ½N(0.9, 0.19) in even ones, a
// change that neither the mean nor the variance shows.
func switchingShape(rnd *rand.Rand, rows int) *mat.Dense {
	y := make([]float64, rows)
	for t := range y {
		if segment(t)%2 == 1 {
			y[t] = rnd.NormFloat64()
			continue
		}
		m := 0.9
		if rnd.IntN(2) == 0 {
			m = -0.9
		}
		y[t] = m + math.Sqrt(0.19)*rnd.NormFloat64()
	}
	return mat.NewDense(rows, 1, y)
}

// switchingAutocorrelation is not the paper's either: the AR(1) series
// y(t) = φ y(t−1) + √(1−φ²) ε(t), ε(t) ~ N(0, 1), with φ = 0.5 in odd
// segments and −0.5 in even ones, whose rows all have mean 0 and variance 1:
// only the serial dependence changes.
func switchingAutocorrelation(rnd *rand.Rand, rows int) *mat.Dense {
	y := make([]float64, rows)
	sd := math.Sqrt(1 - 0.5*0.5)
	for t := 1; t < rows; t++ {
		phi := 0.5
		if segment(t)%2 == 0 {
			phi = -0.5
		}
		y[t] = phi*y[t-1] + sd*rnd.NormFloat64()
	}
	return mat.NewDense(rows, 1, y)
}

// benchmarks are the series, by name: the paper's three, and two whose
// mean and variance never change.
var benchmarks = []struct {
	name  string
	gen   func(*rand.Rand, int) *mat.Dense
	paper bool
}{
	{"jumping mean", jumpingMean, true},
	{"scaling variance", scalingVariance, true},
	{"switching covariance", switchingCovariance, true},
	{"switching shape", switchingShape, false},
	{"switching autocorrelation", switchingAutocorrelation, false},
	{"switching kurtosis", switchingKurtosisAR, false},
}

// changes returns the true change points of a series of the given rows:
// the first row of every segment after the first.
func changes(rows int) []int {
	var c []int
	for t := segLen; t < rows; t += segLen {
		c = append(c, t)
	}
	return c
}

// near reports whether t lies within tol rows of a change point.
func near(t int, cps []int, tol int) bool {
	i := sort.SearchInts(cps, t-tol)
	return i < len(cps) && cps[i] <= t+tol
}

// rocAUC is the area under the ROC curve of the scores as a classifier of
// times within tol rows of a change point (positives) against the rest: the
// probability that a positive outscores a negative, ties counting half.
// Only times whose windows could see the change are counted: those at
// least margin rows from either end of the series.
func rocAUC(scores []changepoint.Score, cps []int, tol int) float64 {
	type lv struct {
		v   float64
		pos bool
	}
	all := make([]lv, len(scores))
	for i, s := range scores {
		all[i] = lv{s.Value, near(s.Time, cps, tol)}
	}
	slices.SortFunc(all, func(a, b lv) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	// Mann–Whitney: sum of the positives' mid-ranks.
	var rankSum float64
	var np, nn int
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		mid := float64(i+j+1) / 2
		for _, x := range all[i:j] {
			if x.pos {
				rankSum += mid
				np++
			} else {
				nn++
			}
		}
		i = j
	}
	return (rankSum - float64(np)*float64(np+1)/2) / (float64(np) * float64(nn))
}

// match counts the detections within tol rows of a change point, each
// change point matched at most once, and the change points matched.
func match(det []int, cps []int, tol int) (hits int) {
	used := make([]bool, len(cps))
	for _, t := range det {
		for i, c := range cps {
			if !used[i] && abs(t-c) <= tol {
				used[i] = true
				hits++
				break
			}
		}
	}
	return hits
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// precisionRecall scores detected change points against the true ones.
func precisionRecall(det []changepoint.Score, cps []int, tol int) (precision, recall float64) {
	t := make([]int, len(det))
	for i, d := range det {
		t[i] = d.Time
	}
	hits := match(t, cps, tol)
	if len(det) > 0 {
		precision = float64(hits) / float64(len(det))
	}
	return precision, float64(hits) / float64(len(cps))
}

// paperAUC is the area under the curve of Liu et al. (2013) §4.1, after
// Kawahara & Sugiyama (2012): alarms are the local maxima of the score above
// a threshold η, an alarm less than dedup rows after the previous alarm is
// dropped, and as η falls from the highest peak, TPR = n_cr/n_cp (change
// points with an alarm within tol) is plotted against
// "FPR" = (n_al − n_cr)/n_al (n_al alarms), which is 1 − precision. The
// area is the trapezoid over the points sorted by FPR, with (0, 0) and
// (1, 1) added.
func paperAUC(scores []changepoint.Score, cps []int, tol, dedup int) float64 {
	var pk []changepoint.Score
	for i := 1; i+1 < len(scores); i++ {
		if scores[i].Value > scores[i-1].Value && scores[i].Value >= scores[i+1].Value {
			pk = append(pk, scores[i])
		}
	}
	levels := make([]float64, len(pk))
	for i, p := range pk {
		levels[i] = p.Value
	}
	slices.Sort(levels)
	levels = slices.Compact(levels)
	type pt struct{ x, y float64 }
	curve := []pt{{0, 0}, {1, 1}}
	for _, eta := range levels {
		var alarms []int
		for _, p := range pk {
			if p.Value >= eta && (len(alarms) == 0 || p.Time-alarms[len(alarms)-1] >= dedup) {
				alarms = append(alarms, p.Time)
			}
		}
		ncr := 0
		for _, c := range cps {
			for _, a := range alarms {
				if abs(a-c) <= tol {
					ncr++
					break
				}
			}
		}
		curve = append(curve, pt{float64(len(alarms)-min(ncr, len(alarms))) / float64(len(alarms)), float64(ncr) / float64(len(cps))})
	}
	slices.SortFunc(curve, func(a, b pt) int {
		if a.x != b.x {
			if a.x < b.x {
				return -1
			}
			return 1
		}
		if a.y < b.y {
			return -1
		}
		if a.y > b.y {
			return 1
		}
		return 0
	})
	area := 0.0
	for i := 1; i < len(curve); i++ {
		area += (curve[i].x - curve[i-1].x) * (curve[i].y + curve[i-1].y) / 2
	}
	return area
}

// baseline is the simple detector the density-ratio score is compared
// with: at each time t, over the w rows before and the w rows from t on,
// the sum over columns of the difference of the means in units of the
// pooled standard deviation plus the difference of the log-variances.
// It sees changes of mean and of spread of each column, but not of the
// correlation between columns or of the serial dependence.
func baseline(x *mat.Dense, w int) []changepoint.Score {
	rows, dim := x.Dims()
	var out []changepoint.Score
	stats := func(c, from int) (m, v float64) {
		for t := from; t < from+w; t++ {
			m += x.At(t, c)
		}
		m /= float64(w)
		for t := from; t < from+w; t++ {
			d := x.At(t, c) - m
			v += d * d
		}
		return m, v / float64(w-1)
	}
	for t := w; t+w <= rows; t++ {
		s := 0.0
		for c := range dim {
			m0, v0 := stats(c, t-w)
			m1, v1 := stats(c, t)
			s += math.Abs(m1-m0)/math.Sqrt((v0+v1)/2) + math.Abs(math.Log(v1/v0))
		}
		out = append(out, changepoint.Score{Time: t, Value: s})
	}
	return out
}

// robustBaseline is baseline with the median for the mean and the median
// absolute deviation (MAD) for the standard deviation: at each time t the
// sum over columns of |Δ median| in units of the pooled MAD plus
// |Δ log MAD²|, the robust counterpart of the difference of log-variances,
// which heavy tails do not throw about.
func robustBaseline(x *mat.Dense, w int) []changepoint.Score {
	rows, dim := x.Dims()
	var out []changepoint.Score
	buf := make([]float64, w)
	stats := func(c, from int) (med, mad float64) {
		for i := range buf {
			buf[i] = x.At(from+i, c)
		}
		med = median(buf)
		for i := range buf {
			buf[i] = math.Abs(buf[i] - med)
		}
		return med, median(buf)
	}
	for t := w; t+w <= rows; t++ {
		s := 0.0
		for c := range dim {
			m0, d0 := stats(c, t-w)
			m1, d1 := stats(c, t)
			s += math.Abs(m1-m0)/math.Sqrt((d0*d0+d1*d1)/2) + math.Abs(2*math.Log(d1/d0))
		}
		out = append(out, changepoint.Score{Time: t, Value: s})
	}
	return out
}

// median returns the median of v, which it sorts.
func median(v []float64) float64 {
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}
