// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sublinear/pearson/internal/testtier"
)

// mixedLaw is a distribution of (c, u): a category c with probabilities
// prob[c], and u | c ~ N(mean[c], 1).
type mixedLaw struct {
	prob, mean []float64
}

func (m mixedLaw) pdf(c int, u float64) float64 {
	return m.prob[c] * distuv.Normal{Mu: m.mean[c], Sigma: 1}.Prob(u)
}

// sample returns n rows (code, u), the category in column 0.
func (m mixedLaw) sample(n int, rnd *rand.Rand) *mat.Dense {
	x := mat.NewDense(n, 2, nil)
	for i := range n {
		c, r := 0, rnd.Float64()
		for c < len(m.prob)-1 && r >= m.prob[c] {
			r -= m.prob[c]
			c++
		}
		x.Set(i, 0, float64(c))
		x.Set(i, 1, m.mean[c]+rnd.NormFloat64())
	}
	return x
}

// trueMixedPE is PE_α(P‖Q) = ½ Σ_c ∫ p(c, u)²/q_α(c, u) du − ½, each
// category's integral by Gauss–Legendre quadrature over ±12 around the
// means: independent of the kernel estimator.
func trueMixedPE(alpha float64, p, q mixedLaw) float64 {
	sum := 0.0
	for c := range p.prob {
		lo := math.Min(p.mean[c], q.mean[c]) - 12
		hi := math.Max(p.mean[c], q.mean[c]) + 12
		sum += quad.Fixed(func(u float64) float64 {
			pp := p.pdf(c, u)
			qa := alpha*pp + (1-alpha)*q.pdf(c, u)
			if qa == 0 {
				return 0
			}
			return pp * pp / qa
		}, lo, hi, 400, quad.Legendre{}, 0)
	}
	return sum/2 - 0.5
}

func TestTrueMixedPE(t *testing.T) {
	t.Parallel()
	// With one category the truth is the numeric one (truePE); with equal
	// laws it is 0.
	p := mixedLaw{prob: []float64{1}, mean: []float64{0}}
	q := mixedLaw{prob: []float64{1}, mean: []float64{0.7}}
	want := truePE(0.5, normal{mean: []float64{0}, sd: []float64{1}}, normal{mean: []float64{0.7}, sd: []float64{1}})
	if got := trueMixedPE(0.5, p, q); math.Abs(got-want) > 1e-12 {
		t.Errorf("one category: %v, want %v", got, want)
	}
	m := mixedLaw{prob: []float64{0.2, 0.8}, mean: []float64{0, 1}}
	if got := trueMixedPE(0.5, m, m); math.Abs(got) > 1e-12 {
		t.Errorf("equal laws: %v, want 0", got)
	}
}

// mixedP and mixedQ differ both in the categories' shares and in the
// numeric coordinate's mean within categories.
var (
	mixedP = mixedLaw{prob: []float64{0.5, 0.3, 0.2}, mean: []float64{0, 1, -0.5}}
	mixedQ = mixedLaw{prob: []float64{0.3, 0.3, 0.4}, mean: []float64{0.5, 0, -0.5}}
)

// mixedPE estimates PE_α of mixedP against mixedQ from n rows of each,
// the category column marked Categorical.
func mixedPE(t *testing.T, alpha float64, n int, seed uint64) *PEResult {
	t.Helper()
	rnd := rand.New(rand.NewPCG(seed, 17))
	p := Categorical{Matrix: mixedP.sample(n, rnd), Columns: []int{0}}
	q := Categorical{Matrix: mixedQ.sample(n, rnd), Columns: []int{0}}
	res, err := RelativePE(context.Background(), p, q, alpha, &PESettings{Settings: Settings{Src: rand.NewPCG(seed, 3)}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestMixedPEQuick(t *testing.T) {
	t.Parallel()
	truth := trueMixedPE(0.5, mixedP, mixedQ)
	res := mixedPE(t, 0.5, 5000, 1)
	if d := res.PE - truth; math.Abs(d) > 4*res.StdErr || math.Abs(d) > 0.2*truth {
		t.Errorf("PE %.4f ± %.4f, truth %.4f", res.PE, res.StdErr, truth)
	}
	t.Logf("PE %.4f ± %.4f, truth %.4f", res.PE, res.StdErr, truth)
}

func TestMixedPESeeds(t *testing.T) {
	t.Parallel()
	testtier.Long(t, "20 estimates at n = 10⁴")
	for _, alpha := range []float64{DefaultAlpha} {
		truth := trueMixedPE(alpha, mixedP, mixedQ)
		const seeds = 20
		covered, mean := 0, 0.0
		for seed := range uint64(seeds) {
			res := mixedPE(t, alpha, 10000, seed+1)
			mean += res.PE / seeds
			if math.Abs(res.PE-truth) <= 2*res.StdErr {
				covered++
			}
		}
		t.Logf("α = %g: truth %.4f, mean %.4f (%+.1f%%), |error| ≤ 2·stderr in %d/%d", alpha, truth, mean, 100*(mean/truth-1), covered, seeds)
		if math.Abs(mean/truth-1) > 0.1 || covered < 18 {
			t.Errorf("α = %g: mean %.4f against truth %.4f, covered %d/%d", alpha, mean, truth, covered, seeds)
		}
	}
}

func TestCategoricalCodes(t *testing.T) {
	t.Parallel()
	x, y := mat.NewDense(40, 2, nil), mat.NewDense(40, 2, nil)
	for i := range 40 {
		x.Set(i, 0, float64(i%2))
		x.Set(i, 1, float64(i))
		y.Set(i, 0, float64(i%3))
		y.Set(i, 1, float64(i*i%7))
	}
	x.Set(7, 0, 0.5)
	_, err := RelativePE(context.Background(), Categorical{Matrix: x, Columns: []int{0}}, y, 0.5, nil)
	if !errors.Is(err, ErrSettings) {
		t.Errorf("a code of 0.5: %v, want ErrSettings", err)
	}
	_, err = RelativePE(context.Background(), Categorical{Matrix: y, Columns: []int{2}}, y, 0.5, nil)
	if !errors.Is(err, ErrSettings) {
		t.Errorf("column 2 of 2: %v, want ErrSettings", err)
	}
}

// TestCategoricalConstant: a category column with one category leaves the
// estimate bit for bit as without it: the delta kernel is 1 on every pair
// and the median heuristic reads the numeric columns only.
func TestCategoricalConstant(t *testing.T) {
	t.Parallel()
	one := mixedLaw{prob: []float64{1}, mean: []float64{0}}
	other := mixedLaw{prob: []float64{1}, mean: []float64{0.5}}
	rnd := rand.New(rand.NewPCG(1, 2))
	p, q := one.sample(2000, rnd), other.sample(2000, rnd)
	s := func() *PESettings { return &PESettings{Settings: Settings{Src: rand.NewPCG(3, 4)}} }
	with, err := RelativePE(context.Background(), Categorical{Matrix: p, Columns: []int{0}}, Categorical{Matrix: q, Columns: []int{0}}, 0.5, s())
	if err != nil {
		t.Fatal(err)
	}
	without, err := RelativePE(context.Background(), p.Slice(0, 2000, 1, 2), q.Slice(0, 2000, 1, 2), 0.5, s())
	if err != nil {
		t.Fatal(err)
	}
	if with.PE != without.PE || with.StdErr != without.StdErr || with.Sigma != without.Sigma {
		t.Errorf("with a constant category %v ± %v (σ %v), without %v ± %v (σ %v)", with.PE, with.StdErr, with.Sigma, without.PE, without.StdErr, without.Sigma)
	}
}

// trueCategorySMI is SMI(C, Y) for a category C with probabilities
// law.prob and Y | C = c ~ N(law.mean[c], 1):
//
//	SMI = ½ Σ_c p_c ∫ p(y|c)²/p(y) dy − ½,
//
// each category's integral by Gauss–Legendre quadrature.
func trueCategorySMI(law mixedLaw) float64 {
	py := func(y float64) float64 {
		s := 0.0
		for c := range law.prob {
			s += law.pdf(c, y)
		}
		return s
	}
	lo, hi := slices.Min(law.mean)-12, slices.Max(law.mean)+12
	sum := 0.0
	for c, pc := range law.prob {
		sum += quad.Fixed(func(y float64) float64 {
			cond := law.pdf(c, y) / pc
			return pc * cond * cond / py(y)
		}, lo, hi, 400, quad.Legendre{}, 0)
	}
	return sum/2 - 0.5
}

// categorySMI estimates SMI between the category column and the numeric
// one of n rows of mixedP, by LSMI and by Rank (the category one feature).
func categorySMI(t *testing.T, n int, seed uint64) (lsmi *LSMIResult, rank FeatureScore) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(seed, 29))
	xy := mixedP.sample(n, rnd)
	x := Categorical{Matrix: xy.Slice(0, n, 0, 1), Columns: []int{0}}
	y := xy.Slice(0, n, 1, 2)
	res, err := LSMI(context.Background(), x, y, &LSMISettings{Settings: Settings{Src: rand.NewPCG(seed, 5)}})
	if err != nil {
		t.Fatal(err)
	}
	rk, err := Rank(context.Background(), x, y, &RankSettings{LSMISettings: LSMISettings{Settings: Settings{Src: rand.NewPCG(seed, 5)}}})
	if err != nil {
		t.Fatal(err)
	}
	return res, rk.Features[0]
}

func TestCategorySMIQuick(t *testing.T) {
	t.Parallel()
	truth := trueCategorySMI(mixedP)
	res, rk := categorySMI(t, 3000, 1)
	for _, e := range []struct {
		name     string
		smi, std float64
	}{{"LSMI", res.SMI, res.StdErr}, {"Rank", rk.SMI, rk.StdErr}} {
		if d := e.smi - truth; math.Abs(d) > 4*e.std || math.Abs(d) > 0.2*truth {
			t.Errorf("%s: SMI %.4f ± %.4f, truth %.4f", e.name, e.smi, e.std, truth)
		}
		t.Logf("%s: SMI %.4f ± %.4f, truth %.4f", e.name, e.smi, e.std, truth)
	}
}

func TestCategorySMISeeds(t *testing.T) {
	t.Parallel()
	testtier.Long(t, "20 LSMI estimates at n = 5000")
	truth := trueCategorySMI(mixedP)
	const seeds = 20
	covered, mean := 0, 0.0
	for seed := range uint64(seeds) {
		res, _ := categorySMI(t, 5000, seed+1)
		mean += res.SMI / seeds
		if math.Abs(res.SMI-truth) <= 2*res.StdErr {
			covered++
		}
	}
	t.Logf("truth %.4f, mean %.4f (%+.1f%%), |error| ≤ 2·stderr in %d/%d", truth, mean, 100*(mean/truth-1), covered, seeds)
	if math.Abs(mean/truth-1) > 0.1 || covered < 18 {
		t.Errorf("mean %.4f against truth %.4f, covered %d/%d", mean, truth, covered, seeds)
	}
}
