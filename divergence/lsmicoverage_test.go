// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sublinear/pearson/internal/summary"
)

// TestLSMITuningCoverage measures whether LSMI's standard error covers the
// tuning: every draw cross-validates σx, σy and λ on its own rows, so the
// seeds' spread of the estimate (new data and new draws on every seed)
// should match the mean StdErr, and the truth lie within 2·StdErr in about
// 95% of the seeds. Cases: Y = sin 3X + 0.3ε (SMI 0.85887 by a midpoint
// rule, see TestLSMISine) and a bivariate normal with ρ = 0.5 (closed form
// ρ²/(2(1 − ρ²)) = 1/6), n = 10⁴, the kernel model, 20 seeds each. With one
// tuning shared by the draws (before), the ratio StdErr/spread was 0.67 on
// the sine and coverage 5 of 10. Require 17 of 20 (a 95% rate gives 19 ± 1)
// and the ratio above 0.75.
func TestLSMITuningCoverage(t *testing.T) {
	t.Parallel()
	longStudies(t)
	const seeds, n = 20, 10_000
	for _, c := range []struct {
		name  string
		truth float64
		gen   func(rnd *rand.Rand) (x, y []float64)
	}{
		{"sine", 0.85887, func(rnd *rand.Rand) (x, y []float64) {
			x, y = make([]float64, n), make([]float64, n)
			for i := range n {
				x[i] = rnd.NormFloat64()
				y[i] = math.Sin(3*x[i]) + 0.3*rnd.NormFloat64()
			}
			return x, y
		}},
		{"normal ρ = 0.5", 1.0 / 6, func(rnd *rand.Rand) (x, y []float64) {
			x, y = make([]float64, n), make([]float64, n)
			for i := range n {
				a, b := rnd.NormFloat64(), rnd.NormFloat64()
				x[i], y[i] = a, 0.5*a+math.Sqrt(0.75)*b
			}
			return x, y
		}},
	} {
		in := 0
		est := make([]float64, seeds)
		var meanSE, relErr float64
		for seed := range seeds {
			x, y := c.gen(rand.New(rand.NewPCG(uint64(seed), 31)))
			r, err := LSMI(ctx, Column(x), Column(y), &LSMISettings{Model: ModelKernel, Settings: Settings{Src: rand.NewPCG(uint64(seed), 32)}})
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(r.SMI-c.truth) <= 2*r.StdErr {
				in++
			}
			est[seed] = r.SMI
			meanSE += r.StdErr / seeds
			relErr += (r.SMI/c.truth - 1) / seeds
		}
		_, se := summary.MeanStdErr(est)
		spread := se * math.Sqrt(seeds)
		t.Logf("%s: %d of %d within 2·StdErr; mean error %+.1f%%; seeds' spread %.4f, mean StdErr %.4f (ratio %.2f)", c.name, in, seeds, 100*relErr, spread, meanSE, meanSE/spread)
		if in < 17 || meanSE/spread < 0.75 {
			t.Errorf("%s: %d of %d within 2·StdErr, StdErr/spread %.2f; want at least 17 and 0.75", c.name, in, seeds, meanSE/spread)
		}
	}
}
