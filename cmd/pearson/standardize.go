// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
)

// affine is the transform x ↦ (x/scale − centre)/spread of each column;
// scale is a power of two, 1 unless the column holds values beyond
// ±hugeValue, so that x/scale is exact and x/scale − centre cannot
// overflow. how says, per column, which spread was used (see standardize).
type affine struct {
	scale, centre, spread []float64
	how                   []string
}

// hugeValue is the magnitude from which standardize first divides a
// column by a power of two: a difference of two values then overflows.
const hugeValue = 0x1p1000

// madNormal is 1/Φ⁻¹(¾): the median absolute deviation times madNormal is
// the standard deviation of a normal distribution; so is the interquartile
// range divided by 2Φ⁻¹(¾) = 1.349.
const (
	madNormal = 1.482602218505602
	iqrNormal = 1.3489795003921634
)

// Spreads standardize uses, in the order it tries them.
const (
	spreadMAD      = "mad"      // 1.4826 × median absolute deviation from the median
	spreadIQR      = "iqr"      // interquartile range / 1.349, when the MAD is 0
	spreadSD       = "sd"       // standard deviation, when the IQR is 0 as well
	spreadConst    = "const"    // a constant column: only centred
	spreadCategory = "category" // category codes: left as they are
)

// apply transforms a row in place. A value beyond ±maxMagnitude after the
// transform (an outlier many orders of magnitude out) is held at
// ±maxMagnitude, where its kernel values with every other point are 0 all
// the same.
func (a *affine) apply(row []float64) {
	if a == nil {
		return
	}
	for j := range row {
		v := (row[j]/a.scale[j] - a.centre[j]) / a.spread[j]
		row[j] = math.Max(-maxMagnitude, math.Min(maxMagnitude, v))
	}
}

// spreads returns each column's spread in the units of the data, what a
// standardised unit is worth.
func (a *affine) spreads() []float64 {
	out := make([]float64, len(a.spread))
	for j, s := range a.spread {
		out[j] = s * a.scale[j]
	}
	return out
}

// describe says what was done, for the output's "standardized" key:
// "median/MAD per column", naming the columns that fell back on another
// spread (names are the columns' names).
func (a *affine) describe(names []string) string {
	s := "(x − median)/(1.4826·MAD) per column"
	for j, h := range a.how {
		switch h {
		case spreadIQR:
			s += fmt.Sprintf("; %s: MAD 0, IQR/1.349 instead", quoteShort(names[j]))
		case spreadSD:
			s += fmt.Sprintf("; %s: MAD and IQR 0, standard deviation instead", quoteShort(names[j]))
		case spreadConst:
			s += fmt.Sprintf("; %s: constant, only centred", quoteShort(names[j]))
		case spreadCategory:
			s += fmt.Sprintf("; %s: categories, not scaled", quoteShort(names[j]))
		}
	}
	return s
}

// standardize scales each column of the matrices, in place, by a robust
// centre and spread of their rows pooled, and returns the transform:
//
//	x ↦ (x − median) / (1.4826·MAD),
//
// the median absolute deviation from the median, which is the standard
// deviation for normal data and which neither one outlier nor a minority of
// repeated values can break. When more than half the values are equal (the
// MAD is 0), the spread is the interquartile range over 1.349; when that is
// 0 too, the standard deviation; a constant column is only centred. Values
// beyond ±hugeValue are first divided by a power of two, so that values
// near ±1e308 neither overflow nor lose the spread. O(n log n) per column
// in the rows kept, which are at most the reservoir unless every row is
// asked for.
func standardize(xs ...*mat.Dense) *affine { return standardizeExcept(nil, xs...) }

// standardizeExcept is standardize but for the columns cats, which hold
// category codes and are left as they are (the delta kernel has no scale).
func standardizeExcept(cats []int, xs ...*mat.Dense) *affine {
	_, cols := xs[0].Dims()
	total := 0
	for _, x := range xs {
		r, _ := x.Dims()
		total += r
	}
	a := &affine{scale: make([]float64, cols), centre: make([]float64, cols), spread: make([]float64, cols), how: make([]string, cols)}
	v := make([]float64, 0, total)
	dev := make([]float64, total)
	for j := range cols {
		if slices.Contains(cats, j) {
			a.scale[j], a.centre[j], a.spread[j], a.how[j] = 1, 0, 1, spreadCategory
			continue
		}
		v = v[:0]
		top := 0.0
		for _, x := range xs {
			r, _ := x.Dims()
			for i := range r {
				u := x.At(i, j)
				v = append(v, u)
				top = math.Max(top, math.Abs(u))
			}
		}
		scale := 1.0
		if top > hugeValue {
			_, e := math.Frexp(top)
			scale = math.Ldexp(1, e-1) // |x|/scale < 2
			for i := range v {
				v[i] /= scale
			}
		}
		slices.Sort(v)
		med := quantileSorted(v, 0.5)
		for i, u := range v {
			dev[i] = math.Abs(u - med)
		}
		slices.Sort(dev[:len(v)])
		spread, how := madNormal*quantileSorted(dev[:len(v)], 0.5), spreadMAD
		if spread == 0 {
			spread, how = (quantileSorted(v, 0.75)-quantileSorted(v, 0.25))/iqrNormal, spreadIQR
		}
		if spread == 0 {
			spread, how = sdAbout(v, med), spreadSD
		}
		if spread == 0 {
			spread, how = 1, spreadConst
		}
		a.scale[j], a.centre[j], a.spread[j], a.how[j] = scale, med, spread, how
	}
	for _, x := range xs {
		r, _ := x.Dims()
		for i := range r {
			a.apply(x.RawRowView(i))
		}
	}
	return a
}

// quantileSorted returns the p-quantile of the sorted values s, by linear
// interpolation between order statistics (type 7); s must not be empty.
func quantileSorted(s []float64, p float64) float64 {
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

// standardizeFlag is --standardize: on by default, for the estimates that
// take several columns at once.
func standardizeFlag() cli.Flag {
	return &cli.BoolFlag{Name: "standardize", Value: true, Usage: "scale each column by its median and median absolute deviation (pooled over both samples) before estimating, so that no column dominates the kernel distances for being in larger units; on by default where an estimate takes several columns at once (a single column is left as it is unless --standardize is given, and a fixed --sigma is then in standardised units); --standardize=false turns it off"}
}

// standardizes reports whether a set of cols columns is standardised:
// always with --standardize given, never with --standardize=false, and by
// default when there are several.
func standardizes(c *cli.Context, cols int) bool {
	if c.IsSet("standardize") {
		return c.Bool("standardize")
	}
	return cols > 1
}

// minIDRows is the fewest rows on which a column of distinct integers is
// taken for an identifier.
const minIDRows = 20

// idLike reports whether column j of x looks like a row identifier:
// distinct integers on every row, at least minIDRows of them, and either
// increasing in the order kept or spanning less than twice the rows of the
// data set (pop): numbers that label rows rather than measure anything, and
// that tell every row apart in the kernel.
func idLike(x *mat.Dense, j, pop int) bool {
	r, _ := x.Dims()
	if r < minIDRows {
		return false
	}
	v := make([]float64, r)
	increasing := true
	for i := range r {
		u := x.At(i, j)
		if u != math.Trunc(u) || math.IsInf(u, 0) {
			return false
		}
		if i > 0 && u <= v[i-1] {
			increasing = false
		}
		v[i] = u
	}
	slices.Sort(v)
	for i := 1; i < r; i++ {
		if v[i] == v[i-1] {
			return false
		}
	}
	return increasing || v[r-1]-v[0] < 2*float64(max(pop, r))
}

// idWarnings returns a warning for each column (names) that looks like a
// row identifier (idLike) in one of the samples, with what to do.
func idWarnings(names []string, samples ...sample) []string {
	var w []string
	for j, name := range names {
		for _, s := range samples {
			if idLike(s.x, j, s.rows) {
				w = append(w, fmt.Sprintf("column %s holds distinct integers on every row, like a row identifier: as a feature it tells every row apart and measures nothing; leave it out with --exclude %s", quoteShort(name), name))
				break
			}
		}
	}
	return w
}

// excludeFlag is --exclude, beside --columns (or --features).
func excludeFlag(of string) cli.Flag {
	return &cli.StringFlag{Name: "exclude", Usage: fmt.Sprintf("comma-separated `COLS` to leave out of %s (an identifier, say)", of)}
}

// excludeListed returns the columns named less those excluded; each
// excluded column must be among them.
func excludeListed(c *cli.Context, columns, exclude []string, flag string) ([]string, error) {
	for _, e := range exclude {
		if !slices.Contains(columns, e) {
			return nil, usagef(c, "--exclude %s: not among the columns of --%s", quoteShort(e), flag)
		}
	}
	return slices.DeleteFunc(slices.Clone(columns), func(s string) bool { return slices.Contains(exclude, s) }), nil
}

// keptColumns returns the columns (names, the default selection read) less
// those excluded, and an error naming an excluded column that is neither
// among them nor among the columns the default selection left out
// (skipped).
func keptColumns(file string, names, exclude []string, skipped []dataset.Skipped) ([]string, error) {
	others := make([]string, len(skipped))
	for i, s := range skipped {
		others[i] = s.Column
	}
	for _, e := range exclude {
		if !slices.Contains(names, e) && !slices.Contains(others, e) {
			return nil, fmt.Errorf("%s: --exclude %s: no such column (its columns: %s)", file, quoteShort(e), strings.Join(quoteAll(append(slices.Clone(names), others...)), ", "))
		}
	}
	keep := slices.DeleteFunc(slices.Clone(names), func(s string) bool { return slices.Contains(exclude, s) })
	if len(keep) == 0 {
		return nil, fmt.Errorf("%s: --exclude leaves no column", file)
	}
	return keep, nil
}
