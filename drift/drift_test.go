// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/testtier"
	"github.com/sublinear/pearson/qmin"
)

func TestAdjust(t *testing.T) {
	t.Parallel()
	p := []float64{0.01, 0.04, 0.03, 0.5, math.NaN()}
	for _, tc := range []struct {
		a    Adjustment
		want []float64
	}{
		{BenjaminiHochberg, []float64{0.04, 0.04 * 4 / 3, 0.04 * 4 / 3, 0.5, math.NaN()}},
		{Holm, []float64{0.04, 0.09, 0.09, 0.5, math.NaN()}},
		{NoAdjustment, p},
	} {
		q := adjust(p, tc.a)
		for i := range q {
			if math.IsNaN(tc.want[i]) != math.IsNaN(q[i]) || math.Abs(q[i]-tc.want[i]) > 1e-12 {
				t.Errorf("%v: q = %v, want %v", tc.a, q, tc.want)
				break
			}
		}
	}
}

func TestFisher(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		x, n, k, N int
		want       float64
	}{
		{3, 4, 4, 8, 0.4857142857142857}, // Fisher's tea-tasting table [[3 1] [1 3]]
		{4, 4, 4, 8, 0.028571428571428571},
		{0, 10, 0, 20, 1},
	} {
		if got := fisher(tc.x, tc.n, tc.k, tc.N); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("fisher(%d, %d, %d, %d) = %v, want %v", tc.x, tc.n, tc.k, tc.N, got, tc.want)
		}
	}
	// Small tables against the definition, summed over the whole support.
	lchoose := func(a, b int) float64 {
		x, _ := math.Lgamma(float64(a + 1))
		y, _ := math.Lgamma(float64(b + 1))
		z, _ := math.Lgamma(float64(a - b + 1))
		return x - y - z
	}
	for _, tc := range [][3]int{{10, 11, 24}, {30, 5, 100}, {7, 20, 27}, {50, 50, 100}} {
		n, k, N := tc[0], tc[1], tc[2]
		pmf := func(x int) float64 { return math.Exp(lchoose(k, x) + lchoose(N-k, n-x) - lchoose(N, n)) }
		for x := max(0, n+k-N); x <= min(k, n); x++ {
			want := 0.0
			for y := max(0, n+k-N); y <= min(k, n); y++ {
				if pmf(y) <= pmf(x)*(1+1e-7) {
					want += pmf(y)
				}
			}
			if got := fisher(x, n, k, N); math.Abs(got-math.Min(1, want)) > 1e-9 {
				t.Errorf("fisher(%d, %d, %d, %d) = %v, want %v", x, n, k, N, got, want)
			}
		}
	}
	// Large counts: a share of 10 % against 10.5 % over a million rows
	// each is far in the tail; equal shares are not.
	if p := fisher(100000, 1000000, 205000, 2000000); p > 1e-20 {
		t.Errorf("10%% against 10.5%% of a million rows: p = %v", p)
	}
	if p := fisher(100000, 1000000, 200000, 2000000); p < 0.99 {
		t.Errorf("equal shares of a million rows: p = %v", p)
	}
}

func TestCategoricalPE(t *testing.T) {
	t.Parallel()
	// PE_½ = ¼ Σ (p − q)²/(p + q).
	p, q := []int{5, 3, 2}, []int{2, 3, 5}
	want := 0.25 * (0.09/0.7 + 0 + 0.09/0.7)
	if got := categoricalPE(p, q, 10, 10, 0.5); math.Abs(got-want) > 1e-15 {
		t.Errorf("PE = %v, want %v", got, want)
	}
}

func TestColumnErrors(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		cols []Column
	}{
		{"none", nil},
		{"both kinds", []Column{{Name: "a", Values: []float64{1}, Categories: []string{"x"}}}},
		{"neither", []Column{{Name: "a"}}},
		{"infinite", []Column{{Name: "a", Values: []float64{1, math.Inf(1)}}}},
		{"ragged", []Column{{Name: "a", Values: []float64{1, 2}}, {Name: "b", Values: []float64{1}}}},
		{"twice", []Column{{Name: "a", Values: []float64{1}}, {Name: "a", Values: []float64{1}}}},
		{"missing without rows", []Column{{Name: "a", Values: []float64{1}, Missing: 1}}},
		{"rows below sample", []Column{{Name: "a", Values: []float64{1, 2}, Rows: 1}}},
		{"missing not counted", []Column{{Name: "a", Values: []float64{1, nan}, Rows: 10}}},
		{"present beyond rows", []Column{{Name: "a", Values: []float64{1, 2}, Rows: 10, Missing: 9}}},
	} {
		_, err := NewReference(tc.cols, nil)
		if !errors.Is(err, ErrColumn) && !errors.Is(err, ErrNoColumns) {
			t.Errorf("%s: error %v", tc.name, err)
		}
	}
	for _, s := range []Settings{{Level: 2}, {ColumnK: -1}, {ColumnK: qmin.MaxK + 1}} {
		_, err := NewReference([]Column{{Name: "a", Values: []float64{1}}}, &s)
		if !errors.Is(err, divergence.ErrSettings) {
			t.Errorf("%+v: error %v", s, err)
		}
	}
	ref, _ := NewReference([]Column{{Name: "a", Values: []float64{1, 2}}}, nil)
	_, err := ref.Compare(context.Background(), []Column{{Name: "a", Categories: []string{"x", "y"}}}, nil)
	if !errors.Is(err, ErrMismatch) {
		t.Errorf("numeric against categorical: error %v", err)
	}
	_, err = ref.Compare(context.Background(), []Column{{Name: "b", Values: []float64{1, 2}}}, nil)
	if !errors.Is(err, ErrNoColumns) {
		t.Errorf("no common column: error %v", err)
	}
}

// TestDegenerateColumns checks that columns the estimator cannot handle get
// a note, not an error: one value almost everywhere, no values at all.
func TestDegenerateColumns(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 1))
	n := 400
	ref := normalTable(n, 2, nil, rnd)
	cur := normalTable(n, 2, nil, rnd)
	flags := func(p float64) Column {
		v := make([]float64, n)
		for i := range v {
			if rnd.Float64() < p {
				v[i] = 1
			}
		}
		return Column{Name: "flag", Values: v}
	}
	ref, cur = append(ref, flags(0.02)), append(cur, flags(0.3))
	ones := func() Column {
		v := make([]float64, n)
		for i := range v {
			v[i] = 1
		}
		return Column{Name: "ones", Values: v}
	}
	ref, cur = append(ref, ones()), append(cur, ones())
	empty := make([]float64, n)
	for i := range empty {
		empty[i] = math.NaN()
	}
	ref = append(ref, Column{Name: "empty", Values: normalTable(n, 1, nil, rnd)[0].Values})
	cur = append(cur, Column{Name: "empty", Values: empty, Rows: n, Missing: n})
	res, err := Compare(context.Background(), ref, cur, fastSettings(2))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Columns {
		switch c.Name {
		case "flag":
			if !c.Drifted {
				t.Errorf("flag column: %+v", c)
			}
		case "ones":
			if c.Note == "" || c.Drifted || c.PValue != 1 {
				t.Errorf("ones column: %+v", c)
			}
		case "empty":
			if c.Note == "" || !c.Drifted || c.MissingCur != 1 {
				t.Errorf("empty column: %+v", c)
			}
		}
	}
}

// summary prints what a comparison decided, NaN-safe, for equality checks.
func summary(res *Result) string {
	s := fmt.Sprintf("%v %d/%d\n", res.Drift, res.Drifted, res.Compared)
	for _, c := range append(res.Columns, *res.Joint) {
		s += fmt.Sprintf("%s %v %v %v %v %v %d %v %v %v %v\n", c.Name, c.Kind, c.Divergence, c.StdErr, c.PValue, c.QValue,
			c.Permutations, c.MissingPValue, c.Drifted, c.Ref, c.Cur)
	}
	return s
}

// BenchmarkCompare compares 10⁶ rows × cols numeric columns, reference
// and current, as the command line sees them: samples of SampleRows rows
// standing for the 10⁶ rows of each table, a sub-benchmark per number of
// columns (-bench 'Compare/cols=100'). Three columns drift (those below
// cols of them), by 0.5, 0.4 and 1 standard deviation: PE_½ ≈ δ²/8 is
// 0.031, 0.02 and 0.12, all above the threshold 0.01.
func BenchmarkCompare(b *testing.B) {
	for _, cols := range []int{20, 100} {
		b.Run(fmt.Sprintf("cols=%d", cols), func(b *testing.B) { benchmarkCompare(b, cols) })
	}
}

func benchmarkCompare(b *testing.B, cols int) {
	const rows = 1_000_000
	s := new(Settings)
	n := s.sampleRows()
	rnd := rand.New(rand.NewPCG(1, 2))
	ref := normalTable(n, cols, nil, rnd)
	shift := map[int]float64{3: 0.5, 40: 0.4, 77: 1}
	want := 0
	for j := range shift {
		if j < cols {
			want++
		}
	}
	cur := normalTable(n, cols, shift, rnd)
	for j := range ref {
		ref[j].Rows, cur[j].Rows = rows, rows
	}
	r, err := NewReference(ref, s)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		res, err := r.Compare(context.Background(), cur, s)
		if err != nil {
			b.Fatal(err)
		}
		if res.Drifted != want {
			b.Errorf("%d columns drifted, want %d", res.Drifted, want)
		}
	}
}

// TestDefaultPermutations checks the second stage's default: enough for
// one drifted column among m to pass the adjustment, never fewer than
// DefaultPermutations, never more than divergence.MaxPermutations.
func TestDefaultPermutations(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		m     int
		level float64
		want  int
	}{
		{1, 0.05, DefaultPermutations},
		{24, 0.05, DefaultPermutations},
		{60, 0.05, 2400},
		{100, 0.05, 4000},
		{100, 0.01, 20000},
		{10_000, 1e-6, divergence.MaxPermutations},
	} {
		p, err := (&Settings{Level: c.level}).resolve()
		if err != nil {
			t.Fatal(err)
		}
		if p.forColumns(c.m); p.permutations != c.want {
			t.Errorf("%d columns at level %g: %d permutations, want %d", c.m, c.level, p.permutations, c.want)
		}
	}
	p, err := (&Settings{Permutations: 199}).resolve()
	if err != nil {
		t.Fatal(err)
	}
	if p.forColumns(100); p.permutations != 199 {
		t.Errorf("Permutations 199 asked: %d used", p.permutations)
	}
}

// TestJointColumnsOnDifferentScales checks that the joint row sees a
// change of correlation between a column on scale 1 and one on scale 10⁵
// (in dollars, say) with the margins unchanged: joint() scales each column
// by its median and MAD over both tables, so neither swamps the other
// (TestJointRobustScale adds an outlier the standard deviation cannot take). 1000 rows, correlation 0 → 0.5: at this size the joint row's
// p-value is at its floor in the power study (20 of 20 at level 0.05); it
// must be at most 0.01 here.
func TestJointColumnsOnDifferentScales(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	rnd := rand.New(rand.NewPCG(12, 12))
	const n = 1000
	table := func(rho float64) []Column {
		a, b := make([]float64, n), make([]float64, n)
		for i := range n {
			z1, z2 := rnd.NormFloat64(), rnd.NormFloat64()
			a[i] = z1
			b[i] = 5e5 + 1e5*(rho*z1+math.Sqrt(1-rho*rho)*z2)
		}
		return []Column{{Name: "years", Values: a}, {Name: "dollars", Values: b}}
	}
	s := &Settings{}
	s.Src = rand.NewPCG(1, 2)
	res, err := Compare(context.Background(), table(0), table(0.5), s)
	if err != nil {
		t.Fatal(err)
	}
	if j := res.Joint; j == nil || !j.Drifted || j.PValue > 0.01 {
		t.Fatalf("joint row: %+v, want drifted with p ≤ 0.01", j)
	}
}
