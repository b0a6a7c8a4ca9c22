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
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

func randomPoints(n, dim int, rnd *rand.Rand) *mat.Dense {
	x := mat.NewDense(n, dim, nil)
	for i := range n {
		for j := range dim {
			x.Set(i, j, rnd.NormFloat64())
		}
	}
	return x
}

func TestAt(t *testing.T) {
	g := Gaussian{Sigma: 2}
	// ‖(1,2) − (4,6)‖² = 25: φ = exp(−25/8).
	if got, want := g.At([]float64{1, 2}, []float64{4, 6}), math.Exp(-25.0/8); math.Abs(got-want) > 1e-15 {
		t.Errorf("At = %v, want %v", got, want)
	}
	if got := g.At([]float64{3}, []float64{3}); got != 1 {
		t.Errorf("φ(x, x) = %v, want 1", got)
	}
}

func TestSqDistAndMatrix(t *testing.T) {
	// Every code path (dimension 1, direct loops, matrix product) against
	// the definition.
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, dim := range []int{1, 2, 5, gemmDim, 40} {
		x := randomPoints(37, dim, rnd)
		c := randomPoints(11, dim, rnd)
		c.SetRow(3, x.RawRowView(5)) // a centre equal to a point: distance 0
		var d, k mat.Dense
		SqDistTo(&d, x, c)
		g := Gaussian{Sigma: 0.7}
		g.MatrixTo(&k, x, c)
		for i := range 37 {
			for j := range 11 {
				want := 0.0
				for t := range dim {
					u := x.At(i, t) - c.At(j, t)
					want += u * u
				}
				if got := d.At(i, j); got < 0 || math.Abs(got-want) > 1e-12*(1+want) {
					t.Fatalf("dim %d: d[%d,%d] = %v, want %v", dim, i, j, got, want)
				}
				if got, want := k.At(i, j), g.At(x.RawRowView(i), c.RawRowView(j)); math.Abs(got-want) > 1e-13 {
					t.Fatalf("dim %d: φ[%d,%d] = %v, want %v", dim, i, j, got, want)
				}
			}
		}
		if d.At(5, 3) != 0 && dim < gemmDim {
			t.Errorf("dim %d: distance of a point to itself %v", dim, d.At(5, 3))
		}
	}
}

func TestSqDistFarFromOrigin(t *testing.T) {
	// Points with unit spread 10⁸ from the origin, in dimension 20 (the
	// matrix-product path): ‖x‖² ≈ 2·10¹⁷ would leave ~30 units of rounding
	// in a distance of ~40 without the shift to the first centre. The
	// offsets are multiples of 2⁻¹⁰, so x = 10⁸ + u is exact and the true
	// distance is that of the u, computed directly.
	rnd := rand.New(rand.NewPCG(9, 9))
	const dim, off = 20, 1e8
	u := mat.NewDense(30, dim, nil)
	for i := range 30 {
		for j := range dim {
			u.Set(i, j, math.Round(rnd.NormFloat64()*1024)/1024)
		}
	}
	x := mat.NewDense(30, dim, nil)
	x.Apply(func(_, _ int, v float64) float64 { return v + off }, u)
	var got mat.Dense
	SqDistTo(&got, x, x.Slice(0, 7, 0, dim).(*mat.Dense))
	for i := range 30 {
		for j := range 7 {
			want := sqDist(u.RawRowView(i), u.RawRowView(j))
			// The shifted coordinates are exact, so only the O(dim) roundings
			// of the products and sums remain.
			if math.Abs(got.At(i, j)-want) > 1e-12*(1+want) {
				t.Fatalf("d[%d,%d] = %v, want %v", i, j, got.At(i, j), want)
			}
		}
	}
	// A norm that overflows falls back to the direct distance: +Inf, never
	// NaN, and 0 for a point with itself.
	big := mat.NewDense(2, dim, nil)
	big.Set(0, 0, math.MaxFloat64)
	big.Set(1, 0, -math.MaxFloat64)
	var dBig mat.Dense
	SqDistTo(&dBig, big, big)
	if dBig.At(0, 0) != 0 || dBig.At(1, 1) != 0 || !math.IsInf(dBig.At(0, 1), 1) || !math.IsInf(dBig.At(1, 0), 1) {
		t.Errorf("huge points: distances %v", mat.Formatted(&dBig))
	}
}

func TestMoments(t *testing.T) {
	// Block-by-block moments equal the direct sums, across several blocks.
	rnd := rand.New(rand.NewPCG(2, 2))
	x := randomPoints(3*BlockRows+17, 3, rnd)
	c := randomPoints(9, 3, rnd)
	g := Gaussian{Sigma: 1.3}
	sum := make([]float64, 9)
	gram := mat.NewSymDense(9, nil)
	g.Moments(sum, gram, x, c)
	wantSum := make([]float64, 9)
	wantGram := make([]float64, 81)
	for r := range x.RawMatrix().Rows {
		for a := range 9 {
			pa := g.At(x.RawRowView(r), c.RawRowView(a))
			wantSum[a] += pa
			for b := range 9 {
				wantGram[9*a+b] += pa * g.At(x.RawRowView(r), c.RawRowView(b))
			}
		}
	}
	for a := range 9 {
		if math.Abs(sum[a]-wantSum[a]) > 1e-10*(1+wantSum[a]) {
			t.Errorf("sum[%d] = %v, want %v", a, sum[a], wantSum[a])
		}
		for b := range 9 {
			if w := wantGram[9*a+b]; math.Abs(gram.At(a, b)-w) > 1e-10*(1+w) {
				t.Errorf("gram[%d,%d] = %v, want %v", a, b, gram.At(a, b), w)
			}
		}
	}
	// nil destinations are allowed.
	g.Moments(nil, nil, x, c)
}

func TestGatherGenericMatrix(t *testing.T) {
	x := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	dst := mat.NewDense(3, 2, nil)
	Gather(dst, x.T(), []int{2, 0, 2}) // rows of xᵀ: (3,6), (1,4), (3,6)
	if want := []float64{3, 6, 1, 4, 3, 6}; !slices.Equal(dst.RawMatrix().Data, want) {
		t.Errorf("Gather = %v, want %v", dst.RawMatrix().Data, want)
	}
}

// directMedianSigma is the median heuristic by sorting every pair.
func directMedianSigma(x *mat.Dense) float64 {
	n, _ := x.Dims()
	var d []float64
	for i := range n {
		for j := i + 1; j < n; j++ {
			s := 0.0
			for t := range x.RawMatrix().Cols {
				u := x.At(i, t) - x.At(j, t)
				s += u * u
			}
			d = append(d, s)
		}
	}
	slices.Sort(d)
	return math.Sqrt(d[(len(d)-1)/2] / 2)
}

func TestMedianHeuristic(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 3))
	// Small sets: every point is used, so the result equals the direct
	// median, whatever the scale of the data.
	for _, n := range []int{2, 3, 10, 101} {
		x := randomPoints(n, 2, rnd)
		want := directMedianSigma(x)
		for _, scale := range []float64{1, 1e-150, 1e150} {
			xs := mat.DenseCopyOf(x)
			xs.Scale(scale, xs)
			got, err := MedianHeuristic(xs, 0, rnd)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got/scale-want) > 1e-12*want {
				t.Errorf("n=%d scale %g: σ = %v, want %v", n, scale, got, want*scale)
			}
		}
	}
	// A large 1-D standard normal sample: a − b ~ N(0, 2), so the median of
	// (a − b)² is 2·0.45494 (the median of χ²₁) and σ = √0.45494 = 0.67449.
	// With 1000 points the sample median of ~5·10⁵ dependent pairs is within
	// about 3% (its standard error is about 1%).
	x := randomPoints(200000, 1, rnd)
	got, err := MedianHeuristic(x, 1000, rnd)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-0.67449) > 0.03*0.67449 {
		t.Errorf("N(0,1): σ = %v, want 0.674 ± 3%%", got)
	}
}

func TestMedianHeuristicTiesAndConstants(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 4))
	// Nine zeros and one 2: 36 of 45 pairs tie; the pairs that differ are
	// all 4 apart in square: σ = √2.
	x := mat.NewDense(10, 1, []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 2})
	if got, err := MedianHeuristic(x, 0, rnd); err != nil || math.Abs(got-math.Sqrt2) > 1e-15 {
		t.Errorf("ties: σ = %v, %v; want √2", got, err)
	}
	for _, v := range []float64{0, 7.5} {
		c := mat.NewDense(5, 2, nil)
		for i := range 5 {
			c.SetRow(i, []float64{v, -v})
		}
		if _, err := MedianHeuristic(c, 0, rnd); !errors.Is(err, ErrConstant) {
			t.Errorf("constant %v: err = %v, want ErrConstant", v, err)
		}
	}
	// One huge value among unit-scale data must not crush the others:
	// 0, 0.1, …, 29.9 and 10³⁰⁸. The lower median over the 45150 pairs is
	// the 22575-th smallest distance; the 300 pairs with the huge value are
	// the largest, so it is the 22575-th smallest among the 44850 pairs of
	// the grid, where 300 − d/0.1 pairs lie d apart.
	vals := make([]float64, 301)
	for i := range 300 {
		vals[i] = float64(i) / 10
	}
	vals[300] = 1e308
	count, med := 0, 0
	for gap := 1; count < 22575; gap++ {
		count += 300 - gap
		med = gap
	}
	want := float64(med) / 10 / math.Sqrt2
	if got, err := MedianHeuristic(mat.NewDense(301, 1, vals), 0, rnd); err != nil || math.Abs(got-want) > 1e-12*want {
		t.Errorf("with 1e308 among small values: σ = %v, %v; want %v", got, err, want)
	}
	if _, err := MedianHeuristic(mat.NewDense(1, 1, []float64{1}), 0, rnd); err == nil {
		t.Error("one point: no error")
	}
	if _, err := MedianHeuristic(mat.NewDense(2, 1, []float64{1, math.NaN()}), 0, rnd); err == nil {
		t.Error("NaN: no error")
	}
}

func TestLowerMedian(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 5))
	for n := 1; n < 60; n++ {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(rnd.IntN(10)) // many ties
		}
		s := slices.Clone(v)
		slices.Sort(s)
		if got := lowerMedian(v); got != s[(n-1)/2] {
			t.Fatalf("n=%d: %v, want %v", n, got, s[(n-1)/2])
		}
	}
}

var sink float64

func BenchmarkMatrix(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, dim := range []int{1, 5, 50} {
		x := randomPoints(2000, dim, rnd)
		c := randomPoints(100, dim, rnd)
		dst := mat.NewDense(2000, 100, nil)
		b.Run(fmt.Sprintf("m=2000/k=100/dim=%d", dim), func(b *testing.B) {
			g := Gaussian{Sigma: 1}
			for b.Loop() {
				g.MatrixTo(dst, x, c)
			}
			sink = dst.At(0, 0)
		})
	}
}

func BenchmarkMoments(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 1))
	x := randomPoints(4000, 1, rnd)
	c := randomPoints(100, 1, rnd)
	sum := make([]float64, 100)
	gram := mat.NewSymDense(100, nil)
	b.Run("m=4000/k=100/dim=1", func(b *testing.B) {
		for b.Loop() {
			Gaussian{Sigma: 1}.Moments(sum, gram, x, c)
		}
	})
}

func BenchmarkMedianHeuristic(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 1))
	x := randomPoints(1_000_000, 1, rnd)
	for b.Loop() {
		s, err := MedianHeuristic(x, 1000, rnd)
		if err != nil {
			b.Fatal(err)
		}
		sink = s
	}
}

func BenchmarkMomentsLargeK(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 1))
	x := randomPoints(2048, 1, rnd)
	c := randomPoints(2000, 1, rnd)
	gram := mat.NewSymDense(2000, nil)
	for b.Loop() {
		Gaussian{Sigma: 1}.Moments(nil, gram, x, c)
	}
}

func TestAddGramLarge(t *testing.T) {
	// The tiled, parallel path (k ≥ 4 tiles) against plain sums.
	rnd := rand.New(rand.NewPCG(6, 6))
	k, b := 4*gramTile+13, 37
	a := randomPoints(k, b, rnd)
	gram := mat.NewSymDense(k, nil)
	AddGram(gram, a)
	AddGram(gram, a)
	for j := 0; j < k; j += 7 {
		for l := j; l < k; l += 5 {
			want := 0.0
			for i := range b {
				want += 2 * a.At(j, i) * a.At(l, i)
			}
			if math.Abs(gram.At(j, l)-want) > 1e-10*(1+math.Abs(want)) {
				t.Fatalf("gram[%d,%d] = %v, want %v", j, l, gram.At(j, l), want)
			}
		}
	}
}

func TestLowerMedianIsEmpiricalQuantile(t *testing.T) {
	// Small integer values: many ties, even and odd lengths.
	rnd := rand.New(rand.NewPCG(8, 8))
	for range 500 {
		v := make([]float64, 1+rnd.IntN(40))
		for i := range v {
			v[i] = float64(rnd.IntN(8))
		}
		want := stat.Quantile(0.5, stat.Empirical, slices.Sorted(slices.Values(v)), nil)
		if got := lowerMedian(slices.Clone(v)); got != want {
			t.Fatalf("lowerMedian(%v) = %v, stat.Quantile %v", v, got, want)
		}
	}
}

// BenchmarkLowerMedian compares quickselect with sorting for
// stat.Quantile over the pairs of the median heuristic's 1000 points.
func BenchmarkLowerMedian(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 1))
	v := make([]float64, 1000*999/2)
	for i := range v {
		v[i] = rnd.Float64()
	}
	w := make([]float64, len(v))
	b.Run("quickselect", func(b *testing.B) {
		for b.Loop() {
			copy(w, v)
			lowerMedian(w)
		}
	})
	b.Run("sort+stat.Quantile", func(b *testing.B) {
		for b.Loop() {
			copy(w, v)
			slices.Sort(w)
			stat.Quantile(0.5, stat.Empirical, w, nil)
		}
	})
}

// TestMatrixToBits checks the one-pass kernel matrix against the squared
// distances then FromSqDistTo, bit for bit, in each of SqDistTo's regimes.
func TestMatrixToBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 11))
	for _, dim := range []int{1, 3, gemmDim + 1} {
		x, c := mat.NewDense(37, dim, nil), mat.NewDense(9, dim, nil)
		for _, m := range []*mat.Dense{x, c} {
			r, _ := m.Dims()
			for i := range r {
				for j := range dim {
					m.Set(i, j, 3*rnd.NormFloat64())
				}
			}
		}
		for _, g := range []Gaussian{{Sigma: 0.3}, {Sigma: 2}, {Sigma: math.Inf(1)}} {
			var got, want mat.Dense
			g.MatrixTo(&got, x, c)
			SqDistTo(&want, x, c)
			g.FromSqDistTo(&want, &want)
			for i := range 37 {
				for j := range 9 {
					if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
						t.Fatalf("dim %d, σ %g: (%d, %d) is %v, want %v", dim, g.Sigma, i, j, got.At(i, j), want.At(i, j))
					}
				}
			}
		}
	}
}
