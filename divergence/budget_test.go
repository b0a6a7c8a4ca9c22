// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
)

// TestTwoSampleBudgets checks that the estimate and the test each have one
// budget: Settings.M is the estimate's alone (zero: DefaultM), and
// TwoSampleSettings.Points the test's (zero: TwoSamplePoints' rule, every
// row of both samples up to the cap), so that M no longer moves the test.
func TestTwoSampleBudgets(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(5, 6))
	p, q := make([]float64, 300), make([]float64, 300)
	for i := range p {
		p[i], q[i] = rnd.NormFloat64(), 0.5+rnd.NormFloat64()
	}
	run := func(m, points int) *TwoSampleResult {
		s := &TwoSampleSettings{Permutations: 20, Points: points}
		s.K, s.M, s.Draws, s.Src = 10, m, 2, rand.NewPCG(1, 2)
		res, err := TwoSampleTest(context.Background(), Column(p), Column(q), DefaultAlpha, s)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	rule := run(50, 0)
	if want := TwoSamplePoints(0, 300, 300); rule.M != want || rule.PE.M != 50 {
		t.Errorf("M 50, Points 0: the test averages over %d points (want the rule's %d), the estimate over %d (want 50)", rule.M, want, rule.PE.M)
	}
	if other := run(200, 0); other.M != rule.M || other.Statistic != rule.Statistic {
		t.Errorf("M 200 moved the test: %d points, statistic %g; with M 50: %d, %g", other.M, other.Statistic, rule.M, rule.Statistic)
	}
	if set := run(50, 100); set.M != 100 || set.PE.M != 50 {
		t.Errorf("Points 100: the test averages over %d points, the estimate over %d; want 100 and 50", set.M, set.PE.M)
	}
	if err := (&TwoSampleSettings{Points: -1}).Validate(); !errors.Is(err, ErrSettings) {
		t.Errorf("Points -1: %v, want ErrSettings", err)
	}
}
