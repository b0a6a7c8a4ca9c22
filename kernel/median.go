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

	"gonum.org/v1/gonum/mat"
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
	n, dim := x.Dims()
	if maxPoints <= 0 {
		maxPoints = DefaultMedianPoints
	}
	if n < 2 {
		return 0, fmt.Errorf("kernel: the median heuristic needs at least 2 points, got %d", n)
	}
	p := min(n, maxPoints)
	rows := make([]int, p)
	if p == n {
		for i := range rows {
			rows[i] = i
		}
	} else {
		// A partial Fisher–Yates shuffle over a map: O(p) whatever n is.
		swapped := make(map[int]int, 2*p)
		at := func(i int) int {
			if v, ok := swapped[i]; ok {
				return v
			}
			return i
		}
		for i := range p {
			j := i + rnd.IntN(n-i)
			rows[i] = at(j)
			swapped[j] = at(i)
		}
	}
	pts := mat.NewDense(p, dim, nil)
	Gather(pts, x, rows)
	// Distances are computed on points scaled to at most 1 in magnitude, so
	// that data of any magnitude (1e−150 or 1e150) neither underflows nor
	// overflows; σ is scaled back.
	scale := 0.0
	for i := range p {
		for j := range dim {
			v := pts.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("kernel: row %d, column %d is %v", rows[i], j, v)
			}
			scale = math.Max(scale, math.Abs(v))
		}
	}
	if scale == 0 {
		return 0, fmt.Errorf("kernel: median heuristic over %d points: %w", p, ErrConstant)
	}
	raw := pts.RawMatrix()
	for i := range raw.Data {
		raw.Data[i] /= scale
	}
	d := mat.NewDense(p, p, nil)
	SqDistTo(d, pts, pts)
	pairs := make([]float64, 0, p*(p-1)/2)
	for i := range p {
		for j := i + 1; j < p; j++ {
			pairs = append(pairs, d.At(i, j))
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
	return scale * math.Sqrt(med/2), nil
}

// lowerMedian returns the ⌈n/2⌉-th smallest of v, reordering v.
func lowerMedian(v []float64) float64 {
	k := (len(v) - 1) / 2
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
