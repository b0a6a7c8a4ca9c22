// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/summary"
)

// linearIrrelevant draws n rows of x (d standard normal columns) and
// y = ρ·(x₁ + … + x_r)/√r + √(1 − ρ²)·ε: the last d − r columns of x are
// irrelevant, and (x, y) is jointly normal with the one canonical
// correlation ρ, so SMI(X; Y) = ρ²/(2(1 − ρ²)) whatever d and r.
func linearIrrelevant(n, d, r int, rho float64, rnd *rand.Rand) (x, y *mat.Dense) {
	x, y = mat.NewDense(n, d, nil), mat.NewDense(n, 1, nil)
	for i := range n {
		s := 0.0
		for j := range d {
			v := rnd.NormFloat64()
			x.Set(i, j, v)
			if j < r {
				s += v
			}
		}
		y.Set(i, 0, rho*s/math.Sqrt(float64(r))+math.Sqrt(1-rho*rho)*rnd.NormFloat64())
	}
	return x, y
}

// irrelevantCase is one case of TestLSMIIrrelevantColumnsStudy.
type irrelevantCase struct {
	name     string
	truth    float64
	relevant int  // the leading columns of x that carry information
	meets    bool // whether LSMI meets issue 24's targets on it
	data     func(rnd *rand.Rand) (x, y *mat.Dense)
}

// irrelevantCases are issue 24's "3–5 columns with 1–2 irrelevant" for
// LSMI, n = 10⁴: normal cases whose SMI has a closed form (linearIrrelevant)
// and the issue's own sine case (truth by quadrature, sineSMI).
func irrelevantCases() []irrelevantCase {
	const n = 10_000
	normal := func(d, r int) func(rnd *rand.Rand) (x, y *mat.Dense) {
		return func(rnd *rand.Rand) (x, y *mat.Dense) { return linearIrrelevant(n, d, r, 0.5, rnd) }
	}
	return []irrelevantCase{
		{"normal ρ = 0.5, x 2 columns, 1 irrelevant", 1.0 / 6, 1, true, normal(2, 1)},
		{"normal ρ = 0.5, x 3 columns, 2 irrelevant", 1.0 / 6, 1, true, normal(3, 1)},
		{"normal ρ = 0.5, x 5 columns, 2 irrelevant", 1.0 / 6, 3, true, normal(5, 3)},
		{"sine, x 3 columns, 1 irrelevant", sineSMI(), 2, false, func(rnd *rand.Rand) (x, y *mat.Dense) { return sineData(n, 3, rnd) }},
	}
}

// irrelevantSummary is what TestLSMIIrrelevantColumnsStudy measures of one
// case and model over the seeds.
type irrelevantSummary struct {
	meanErr        float64 // mean relative error
	within10, in2  int     // seeds within 10% of the truth, within 2·StdErr
	seSpread       float64 // mean StdErr over the seeds' spread
	meanSE, spread float64 // mean StdErr, the seeds' standard deviation
	models         map[string]int
	irrelevantWide int // seeds on which every irrelevant column got factor 64 or more
}

func (s irrelevantSummary) String() string {
	return fmt.Sprintf("mean error %+.1f%%, within 10%% %d, within 2·StdErr %d, StdErr/spread %.2f (%.4f/%.4f), reported %v, irrelevant columns wide %d",
		100*s.meanErr, s.within10, s.in2, s.seSpread, s.meanSE, s.spread, s.models, s.irrelevantWide)
}

// studyIrrelevant runs LSMI with model on seeds fresh data sets of c.
func studyIrrelevant(t *testing.T, c irrelevantCase, model string, seeds int) irrelevantSummary {
	t.Helper()
	s := irrelevantSummary{models: map[string]int{}}
	est := make([]float64, seeds)
	var meanSE float64
	for seed := range seeds {
		x, y := c.data(rand.New(rand.NewPCG(uint64(seed), 51)))
		r, err := LSMI(ctx, x, y, &LSMISettings{Model: model, Settings: Settings{Src: rand.NewPCG(uint64(seed), 52)}})
		if err != nil {
			t.Fatal(err)
		}
		e := r.SMI/c.truth - 1
		s.meanErr += e / float64(seeds)
		if math.Abs(e) <= 0.1 {
			s.within10++
		}
		if math.Abs(r.SMI-c.truth) <= 2*r.StdErr {
			s.in2++
		}
		s.models[r.Model]++
		est[seed] = r.SMI
		meanSE += r.StdErr / float64(seeds)
		wide := r.FactorsX != nil
		for j := c.relevant; j < len(r.FactorsX); j++ {
			wide = wide && r.FactorsX[j] >= 64
		}
		if wide {
			s.irrelevantWide++
		}
	}
	_, se := summary.MeanStdErr(est)
	s.meanSE, s.spread = meanSE, se*math.Sqrt(float64(seeds))
	s.seSpread = s.meanSE / s.spread
	return s
}

// TestLSMIIrrelevantColumnsStudy measures issue 24's targets for LSMI with
// irrelevant columns of x (irrelevantCases), 10 seeds each at n = 10⁴, new
// data and new draws on every seed, with the default model choice
// (docs/RESULTS.md, "LSMI: accuracy, error bar and speed", has the numbers,
// and those of the kernel model alone, measured with this test at commit
// 11686c2).
//
// The targets — the mean within 10% of the truth and the truth
// within 2·StdErr in 90% of runs — are asserted where they
// hold: the normal cases with the default model (measured on seeds 0–9
// +4.0%, +5.5%, +1.7%; 10 of 10 each). They do not hold for the sine case
// (−22%, 0 of 10): the kernel model's basis of k² = 10⁴ functions, fitted on
// M/2 = 2000 pairs, cannot follow a ridge of width 0.4 over two relevant
// columns (docs/RESULTS.md, LSMI section: at no setting of σx, σy and λ does
// its noise-free value come within 14% of the truth). There the test
// asserts what holds, as a guard against regressions: the irrelevant
// column found (factor 64) in at least 9 of 10 runs and the mean error
// within 30%.
func TestLSMIIrrelevantColumnsStudy(t *testing.T) {
	t.Parallel()
	longStudies(t)
	// 10 seeds a case (20 before: the study's tables are in RESULTS.md):
	// "at least 90% within 2·StdErr" is asserted as at least 8 of 10, one
	// binomial SE (0.95 runs) under 9, which a case at 90% coverage passes
	// with probability 0.93; the irrelevant column found in at least 9 of 10.
	const seeds = 10
	for _, c := range irrelevantCases() {
		s := studyIrrelevant(t, c, "", seeds)
		t.Logf("%s (truth %.5f): %v", c.name, c.truth, s)
		if !c.meets {
			if s.irrelevantWide < seeds-1 || math.Abs(s.meanErr) > 0.3 {
				t.Errorf("%s: irrelevant column found in %d of %d runs, mean error %+.1f%%; want at least %d and within 30%%", c.name, s.irrelevantWide, seeds, 100*s.meanErr, seeds-1)
			}
		} else if s.in2 < seeds-2 || math.Abs(s.meanErr) > 0.1 {
			t.Errorf("%s: %d of %d within 2·StdErr, mean error %+.1f%%; want at least %d and within 10%%", c.name, s.in2, seeds, 100*s.meanErr, seeds-2)
		}
	}
}
