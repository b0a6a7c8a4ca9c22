// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package spread puts a column of numbers on a unit scale robustly: by its
// median and its median absolute deviation, so that neither one outlier nor
// a constant column breaks the scale. It is the one rule by which pearson
// scales the columns of a multi-column estimate: the command line's
// --standardize and drift's joint row.
package spread

import (
	"math"
	"slices"
)

// Rule names the spread a Scale uses.
type Rule string

// The spreads Of uses, in the order it tries them.
const (
	// MAD is 1.4826 × the median absolute deviation from the median.
	MAD Rule = "mad"
	// IQR is the interquartile range / 1.349, when the MAD is 0 (more than
	// half the values equal).
	IQR Rule = "iqr"
	// SD is the root mean square deviation from the median, when the IQR
	// is 0 as well (more than three quarters of the values equal).
	SD Rule = "sd"
	// Constant is a column of one value: only centred.
	Constant Rule = "const"
)

// Formula says what a Scale does with MAD, as outputs write it.
const Formula = "(x − median)/(1.4826·MAD)"

// Fallback says in words what a column's scale did instead of Formula:
// "MAD 0, IQR/1.349 instead", "MAD and IQR 0, standard deviation instead",
// "constant, only centred"; "" for MAD and any other rule.
func (r Rule) Fallback() string {
	switch r {
	case IQR:
		return "MAD 0, IQR/1.349 instead"
	case SD:
		return "MAD and IQR 0, standard deviation instead"
	case Constant:
		return "constant, only centred"
	}
	return ""
}

// MADNormal is 1/Φ⁻¹(¾): the median absolute deviation times MADNormal is
// the standard deviation of a normal distribution; so is the interquartile
// range divided by IQRNormal = 2Φ⁻¹(¾) = 1.349.
const (
	MADNormal = 1.482602218505602
	IQRNormal = 1.3489795003921634
)

// Huge is the magnitude from which Of first divides a column by a power of
// two: a difference of two values beyond it may overflow.
const Huge = 0x1p1000

// MaxMagnitude is the largest magnitude Apply returns: pearson's
// estimators take values up to ±1e300, beyond which kernel widths
// overflow.
const MaxMagnitude = 1e300

// Scale is the affine map x ↦ (x/Pow2 − Centre)/Spread of a column: Pow2
// is a power of two, 1 unless the column holds values beyond ±Huge, so that
// x/Pow2 is exact and x/Pow2 − Centre cannot overflow; Rule says which
// spread Spread is.
type Scale struct {
	Pow2, Centre, Spread float64
	Rule                 Rule
}

// Identity is the Scale that leaves values as they are (of no Rule).
var Identity = Scale{Pow2: 1, Centre: 0, Spread: 1}

// Apply returns (x/Pow2 − Centre)/Spread, held within ±MaxMagnitude: an
// outlier many orders of magnitude out, whose kernel values with every
// other point are 0 all the same, neither overflows nor turns into ±Inf.
func (s Scale) Apply(x float64) float64 {
	v := (x/s.Pow2 - s.Centre) / s.Spread
	return math.Max(-MaxMagnitude, math.Min(MaxMagnitude, v))
}

// Units returns the spread in the units of the data: what one unit after
// Apply is worth; +Inf when it exceeds the largest float64 (values of both
// signs near ±1.8e308, where Spread in units of Pow2 stays finite).
func (s Scale) Units() float64 { return s.Spread * s.Pow2 }

// Of returns the robust scale of the values v, which it sorts (and, for
// values beyond ±Huge, divides by Pow2) in place:
//
//	centre = median,  spread = 1.4826·MAD = 1.4826 · median |xᵢ − median|,
//
// which is the standard deviation for normal data and which neither one
// outlier nor a minority of repeated values can break (its breakdown point
// is ½). When more than half the values are equal (the MAD is 0), the
// spread is the interquartile range over 1.349; when that is 0 too, the
// root mean square deviation from the median; a constant column has spread
// 1 (only centred). Quantiles interpolate between order statistics (type
// 7). O(n log n). v must hold finite values, at least one.
func Of(v []float64) Scale {
	if len(v) == 0 {
		panic("spread: Of of no values")
	}
	top := 0.0
	for _, u := range v {
		top = math.Max(top, math.Abs(u))
	}
	pow2 := 1.0
	if top > Huge {
		_, e := math.Frexp(top)
		pow2 = math.Ldexp(1, e-1) // |x|/pow2 < 2
		for i := range v {
			v[i] /= pow2
		}
	}
	slices.Sort(v)
	med := Quantile(v, 0.5)
	dev := make([]float64, len(v))
	for i, u := range v {
		dev[i] = math.Abs(u - med)
	}
	slices.Sort(dev)
	s, rule := MADNormal*Quantile(dev, 0.5), MAD
	if s == 0 {
		s, rule = (Quantile(v, 0.75)-Quantile(v, 0.25))/IQRNormal, IQR
	}
	if s == 0 {
		s, rule = sdAbout(v, med), SD
	}
	if s == 0 {
		s, rule = 1, Constant
	}
	return Scale{Pow2: pow2, Centre: med, Spread: s, Rule: rule}
}

// Quantile returns the p-quantile of the sorted values s, by linear
// interpolation between order statistics (type 7); s must not be empty.
func Quantile(s []float64, p float64) float64 {
	h := p * float64(len(s)-1)
	lo := int(math.Floor(h))
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// sdAbout returns the root mean square deviation of v about c, scaled by
// the largest deviation first so that it neither overflows nor underflows.
func sdAbout(v []float64, c float64) float64 {
	big := 0.0
	for _, u := range v {
		big = math.Max(big, math.Abs(u-c))
	}
	if big == 0 {
		return 0
	}
	ss := 0.0
	for _, u := range v {
		d := (u - c) / big
		ss += d * d
	}
	return big * math.Sqrt(ss/float64(len(v)))
}

// OrderStat returns the k-th smallest of v, counted from 0 (what v sorted
// holds at k), reordering v: quickselect, O(n) on average where a sort is
// O(n log n). v must hold no NaN and 0 ≤ k < len(v).
func OrderStat(v []float64, k int) float64 {
	lo, hi := 0, len(v)-1
	for lo < hi {
		// Hoare partition around the middle element.
		pivot := v[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for v[i] < pivot {
				i++
			}
			for v[j] > pivot {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return v[k]
		}
	}
	return v[k]
}
