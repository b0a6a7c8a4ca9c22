// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sublinear/pearson/internal/testtier"
)

// TestQuickAgainstTruth is the default tier's check of the estimates
// against values known independently, one seed per case at n = 10⁴ with
// the default settings: PE_½ of the pairs of normal distributions of
// truthCases (by quadrature) and SMI of a bivariate normal at ρ = 0.5
// (ρ²/(2(1−ρ²)); at ρ ≥ 0.7 the kernel model, when it wins, is biased low
// by more than its bar, which the long tier's TestLSMIClosedForm bounds). Each estimate must lie within 4·StdErr of the truth:
// the long tier measures that 2·StdErr covers it about nine times in ten
// (TestStdErrCoverage, TestLSMIClosedForm), so a bar that is right misses
// 4·StdErr far less than once in a thousand runs. The long tier's
// TestAgainstTruth and TestLSMIClosedForm bound the mean error over seeds.
func TestQuickAgainstTruth(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t)
	for i, c := range truthCases {
		rnd := rand.New(rand.NewPCG(uint64(i), 77))
		x, y := c.p.sample(10_000, rnd), c.q.sample(10_000, rnd)
		r, err := RelativePE(ctx, x, y, DefaultAlpha, &PESettings{Settings: Settings{Src: rand.NewPCG(uint64(i), 1)}})
		if err != nil {
			t.Fatal(err)
		}
		truth := truePE(DefaultAlpha, c.p, c.q)
		t.Logf("PE %s: truth %.4f, estimate %.4f ± %.4f", c.name, truth, r.PE, r.StdErr)
		if math.Abs(r.PE-truth) > 4*r.StdErr {
			t.Errorf("PE %s: %.4f ± %.4f, more than 4·StdErr from the truth %.4f", c.name, r.PE, r.StdErr, truth)
		}
	}
	for i, rho := range []float64{0.5} {
		x, y := bivariate(10_000, rho, rand.New(rand.NewPCG(uint64(i), 3)))
		r, err := LSMI(ctx, x, y, &LSMISettings{Settings: Settings{Src: rand.NewPCG(uint64(i), 1)}})
		if err != nil {
			t.Fatal(err)
		}
		truth := rho * rho / (2 * (1 - rho*rho))
		t.Logf("SMI ρ = %.1f: truth %.4f, estimate %.4f ± %.4f by the %s model", rho, truth, r.SMI, r.StdErr, r.Model)
		if math.Abs(r.SMI-truth) > 4*r.StdErr {
			t.Errorf("SMI ρ = %.1f: %.4f ± %.4f, more than 4·StdErr from the truth %.4f", rho, r.SMI, r.StdErr, truth)
		}
	}
}
