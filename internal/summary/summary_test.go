// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package summary

import (
	"math"
	"testing"
)

func TestMeanStdErr(t *testing.T) {
	// 1, 2, 3: mean 2, sd 1, stderr 1/√3.
	for _, scale := range []float64{1, 1e-300, 1e300, -1e290} {
		m, se := MeanStdErr([]float64{1 * scale, 2 * scale, 3 * scale})
		if math.Abs(m/scale-2) > 1e-14 || math.Abs(se/math.Abs(scale)-1/math.Sqrt(3)) > 1e-14 {
			t.Errorf("scale %g: %v ± %v", scale, m, se)
		}
	}
	if m, se := MeanStdErr([]float64{5}); m != 5 || se != 0 {
		t.Errorf("one value: %v ± %v", m, se)
	}
	if m, se := MeanStdErr([]float64{0, 0}); m != 0 || se != 0 {
		t.Errorf("zeros: %v ± %v", m, se)
	}
	if m, _ := MeanStdErr([]float64{1, math.Inf(1)}); !math.IsNaN(m) {
		t.Errorf("infinite value: mean %v", m)
	}
	if m, _ := MeanStdErr(nil); !math.IsNaN(m) {
		t.Errorf("no values: mean %v", m)
	}
}
