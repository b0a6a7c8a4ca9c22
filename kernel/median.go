// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package kernel

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/isnil"
	"github.com/sublinear/pearson/internal/spread"
)

// ErrConstant means every sampled point is the same, so that no kernel width
// can be derived from the data: the variable is constant (drop it), or a
// width must be given explicitly.
var ErrConstant = errors.New("all points are identical")

// DefaultMedianPoints is the number of points the median heuristic uses when
// asked for a non-positive number.
const DefaultMedianPoints = 1000

// MedianHeuristic returns the kernel width
//
//	σ = sqrt(½ · median ‖a − b‖²)
//
// over the pairs of distinct points a, b among at most maxPoints rows of x,
// drawn at random without replacement by rnd when x has more rows (maxPoints
// ≤ 0 means DefaultMedianPoints). With this σ the median pair has kernel value
// exp(−1). The median is the lower median. When more than half the pairs
// coincide (data with many ties) the median is taken over the pairs that
// differ; when all coincide the error wraps ErrConstant. The cost is
// O(p²·dim) for p points, whatever the number of rows.
func MedianHeuristic(x mat.Matrix, maxPoints int, rnd *rand.Rand) (float64, error) {
	if isnil.Is(x) {
		return 0, errors.New("kernel: the median heuristic needs points, not nil")
	}
	n, dim := x.Dims()
	if maxPoints <= 0 {
		maxPoints = DefaultMedianPoints
	}
	if n < 2 {
		return 0, fmt.Errorf("kernel: the median heuristic needs at least 2 points, got %d", n)
	}
	p := min(n, maxPoints)
	rows := indices.Range(n)
	if p < n {
		rows = indices.Shuffled(n, p, rnd)
	}
	pts := mat.NewDense(p, dim, nil)
	Gather(pts, x, rows)
	for i := range p {
		for j, v := range pts.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("kernel: row %d, column %d is %v", rows[i], j, v)
			}
		}
	}
	if dim == 1 {
		return medianOneColumn(pts.RawMatrix().Data[:p])
	}
	// Each distance is computed on halved coordinates, whose differences
	// cannot overflow, and, where the plain sum of squares overflows or
	// nears underflow, by a scaled norm: data of any magnitude (1e−300 or
	// 1e300, or both at once) gives the right median.
	pairs := make([]float64, 0, p*(p-1)/2)
	diff := make([]float64, dim)
	for i := range p {
		a := pts.RawRowView(i)
		for j := i + 1; j < p; j++ {
			ss := 0.0
			for t, v := range pts.RawRowView(j) {
				diff[t] = a[t]/2 - v/2
				ss += diff[t] * diff[t]
			}
			if ss >= 1e-280 && ss <= math.MaxFloat64 {
				pairs = append(pairs, math.Sqrt(ss))
			} else {
				pairs = append(pairs, floats.Norm(diff, 2))
			}
		}
	}
	med := lowerMedian(pairs)
	if med == 0 {
		nonzero := slices.DeleteFunc(pairs, func(v float64) bool { return v == 0 })
		if len(nonzero) == 0 {
			return 0, fmt.Errorf("kernel: median heuristic over %d points: %w", p, ErrConstant)
		}
		med = lowerMedian(nonzero)
	}
	// σ = ‖a − b‖/√2 = √2·‖a/2 − b/2‖ for the median pair, at most the
	// largest float.
	return math.Min(math.Sqrt2*med, math.MaxFloat64), nil
}

// medianOneColumn is MedianHeuristic's width for the points v of one
// column, with the same result bit for bit as over the list of pairwise
// distances |v_i/2 − v_j/2| (in one dimension the norm is the absolute
// difference, and √(d²) = |d| in floating point), without the list: in
// O(p log p) for the sort and O(p) per step of a bisection over the
// non-negative float64 values (at most 64 steps), counting the pairs at
// or below a distance with two pointers along the sorted halves, since a
// rounded difference grows with its larger term and shrinks with its
// smaller. Half a million distances and their selection cost ten times as
// much for 1000 points.
func medianOneColumn(v []float64) (float64, error) {
	h := make([]float64, len(v))
	for i, x := range v {
		h[i] = x / 2
	}
	slices.Sort(h)
	// atMost counts the pairs i < j with h[j] − h[i] ≤ d.
	atMost := func(d float64) int {
		c, lo := 0, 0
		for j := range h {
			for h[j]-h[lo] > d {
				lo++
			}
			c += j - lo
		}
		return c
	}
	pairs := len(h) * (len(h) - 1) / 2
	zero := atMost(0)
	if zero == pairs {
		return 0, fmt.Errorf("kernel: median heuristic over %d points: %w", len(h), ErrConstant)
	}
	// The lower median of every pair, or of the pairs that differ when it
	// is 0: the smallest d whose count reaches the rank.
	want := (pairs-1)/2 + 1
	if zero >= want {
		want = zero + (pairs-zero-1)/2 + 1
	}
	lo, hi := uint64(0), math.Float64bits(h[len(h)-1]-h[0]) // atMost(hi) = pairs
	for lo < hi {
		mid := lo + (hi-lo)/2
		if atMost(math.Float64frombits(mid)) >= want {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return math.Min(math.Sqrt2*math.Float64frombits(lo), math.MaxFloat64), nil
}

// lowerMedian returns the ⌈n/2⌉-th smallest of v, reordering v: the
// statistic stat.Quantile(0.5, stat.Empirical, v, nil) computes, by
// quickselect in O(n) instead of a sort in O(n log n). The median heuristic
// takes it over up to half a million pairwise distances, where the sort
// costs ten times as much (BenchmarkLowerMedian).
func lowerMedian(v []float64) float64 { return spread.OrderStat(v, (len(v)-1)/2) }
