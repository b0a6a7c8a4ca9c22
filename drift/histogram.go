// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"cmp"
	"math"
	"slices"
)

// Distribution is a column's distribution in one table, for plots: the
// shares of its present values in bins (numeric) or categories.
type Distribution struct {
	// Edges are the bin edges of a numeric column, one more than Shares;
	// the first and last bins also hold the values beyond them.
	Edges []float64
	// Labels are the categories of a categorical column, one per share;
	// the last may be OtherLabel, the categories left out.
	Labels []string
	// Shares are the shares of the present values in each bin or
	// category.
	Shares []float64
}

const (
	// histogramBins is the number of bins of a numeric column's histogram.
	histogramBins = 30
	// maxBars is the number of categories plotted, the most frequent in
	// both tables together; the others are summed in OtherLabel.
	maxBars = 12
	// OtherLabel labels the categories a plot leaves out.
	OtherLabel = "(other)"
)

// histograms bins the values of ref and cur on common edges spanning the
// 0.5 % to 99.5 % quantiles of both together (pooled: their values,
// sorted), so that a few outliers do not squeeze the plot.
func histograms(ref, cur, pooled []float64) (Distribution, Distribution) {
	n := len(pooled)
	lo, hi := pooled[int(0.005*float64(n-1))], pooled[int(math.Ceil(0.995*float64(n-1)))]
	if lo == hi {
		lo, hi = pooled[0], pooled[n-1]
	}
	bins := histogramBins
	if lo == hi {
		lo, hi, bins = lo-0.5, hi+0.5, 1
	}
	edges := make([]float64, bins+1)
	for i := range edges {
		edges[i] = lo + (hi-lo)*float64(i)/float64(bins)
	}
	share := func(v []float64) []float64 {
		s := make([]float64, bins)
		for _, x := range v {
			b := int(float64(bins) * (x - lo) / (hi - lo))
			s[min(max(b, 0), bins-1)]++
		}
		for i := range s {
			s[i] /= float64(len(v))
		}
		return s
	}
	return Distribution{Edges: edges, Shares: share(ref)}, Distribution{Edges: edges, Shares: share(cur)}
}

// mergeSorted returns the values of the sorted a and b, sorted.
func mergeSorted(a, b []float64) []float64 {
	out := make([]float64, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0] < a[0] {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// bars returns the shares of the categories of ref and cur (codes into
// cats, −1 missing): the maxBars most frequent in both together, by
// decreasing frequency, then OtherLabel for the rest.
func bars(ref, cur []int32, cats []string) (Distribution, Distribution) {
	count := func(codes []int32) ([]float64, float64) {
		f := make([]float64, len(cats))
		n := 0.0
		for _, c := range codes {
			if c >= 0 {
				f[c]++
				n++
			}
		}
		return f, n
	}
	fr, nr := count(ref)
	fc, nc := count(cur)
	order := make([]int, len(cats))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(fr[b]/nr+fc[b]/nc, fr[a]/nr+fc[a]/nc)
	})
	shown := order[:min(len(order), maxBars)]
	labels := make([]string, 0, len(shown)+1)
	sr := make([]float64, 0, len(shown)+1)
	sc := make([]float64, 0, len(shown)+1)
	for _, c := range shown {
		labels, sr, sc = append(labels, cats[c]), append(sr, fr[c]/nr), append(sc, fc[c]/nc)
	}
	if len(order) > len(shown) {
		var or, oc float64
		for _, c := range order[len(shown):] {
			or, oc = or+fr[c], oc+fc[c]
		}
		labels, sr, sc = append(labels, OtherLabel), append(sr, or/nr), append(sc, oc/nc)
	}
	return Distribution{Labels: labels, Shares: sr}, Distribution{Labels: labels, Shares: sc}
}
