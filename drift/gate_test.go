// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestWasserstein checks the shape effect size against closed forms: a
// sample moved by δ is δ/sd away exactly; a normal sample scaled by s is
// |s − 1|·E|Z| = |s − 1|·√(2/π) sd away (the quantile coupling is the
// optimal one in one dimension), to within the sampling error of 2·10⁴
// points (about 0.01).
func TestWasserstein(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 2))
	ref := make([]float64, 20000)
	for i := range ref {
		ref[i] = rnd.NormFloat64()
	}
	_, sd := moments(ref)
	moved, scaled := make([]float64, len(ref)), make([]float64, len(ref))
	for i, x := range ref {
		moved[i], scaled[i] = x+0.3, 1.2*x
	}
	if got, want := wasserstein(ref, moved), 0.3/sd; math.Abs(got-want) > 1e-9 {
		t.Errorf("shift: W1 %g sd, want %g", got, want)
	}
	if got, want := wasserstein(ref, scaled), 0.2*math.Sqrt(2/math.Pi)*1/sd; math.Abs(got-want) > 1e-9*want+0.2*0.01 {
		t.Errorf("scale: W1 %g sd, want %g", got, want)
	}
	if got := wasserstein(ref, ref); got != 0 {
		t.Errorf("same sample: W1 %g, want 0", got)
	}
}

// TestGate checks the two rules of a CI gate on a result with 1 of 4
// columns drifted.
func TestGate(t *testing.T) {
	t.Parallel()
	res := &Result{Columns: []ColumnResult{{Name: "a", Drifted: true, QValue: 0.01}, {Name: "b"}, {Name: "c"}, {Name: "d"}},
		Compared: 4, Drifted: 1, Share: 0.25, DriftShare: 0.5}
	if fails, why := res.Fails(AnyColumn); !fails || !strings.Contains(why, `1 of 4 columns drifted: "a"`) {
		t.Errorf("AnyColumn: %v %q", fails, why)
	}
	if fails, _ := res.Fails(DriftShare); fails {
		t.Error("DriftShare fails at share 0.25 < 0.5")
	}
	res.Drift = true
	if fails, why := res.Fails(DriftShare); !fails || !strings.Contains(why, "reaches the drift share 0.5") {
		t.Errorf("DriftShare: %v %q", fails, why)
	}
	if why := res.CannotJudge(AnyColumn); why != "" {
		t.Errorf("every column judged, yet %q", why)
	}
	// A column with no test: the column rule cannot judge the batch, the
	// share rule can.
	res.Columns = append(res.Columns, ColumnResult{Name: "e", PValue: math.NaN(), MissingPValue: math.NaN(), Note: "cannot judge: 3 present values"})
	res.Unjudged = 1
	if why := res.CannotJudge(AnyColumn); !strings.Contains(why, `1 of 5 columns ("e"): cannot judge: 3 present values`) {
		t.Errorf("AnyColumn with an unjudged column: %q", why)
	}
	if why := res.CannotJudge(DriftShare); why != "" {
		t.Errorf("DriftShare with 4 columns compared: %q", why)
	}
	for _, g := range []Gate{AnyColumn, DriftShare} {
		if back, ok := ParseGate(g.String()); !ok || back != g {
			t.Errorf("ParseGate(%q) = %v, %v", g, back, ok)
		}
	}
}
