// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sublinear/pearson/internal/testtier"
)

// TestParquetPENearZero measures RelativePE's error bar on two-stage
// samples of 1 000 kept rows from files of 131 072 rows, P from a shuffled
// file or a drifting one (timeOrdered), Q from the shuffled file, at 64
// independent units and at the default 8 row-group draws (one per stratum,
// paired): with P and Q alike (PE between the files 0) and with P's mean
// drifting. The data's share of StdErr is Var(ψ)/n over the n kept rows
// (not over the file's rows, which made StdErr 0.39–0.68 of the spread
// near PE = 0 and miss ≈ 0.007 on the drifting file, docs/RESULTS.md):
// StdErr must not fall short of the estimates' spread and ±t·StdErr must
// cover their mean about 95 % of the time. σ and λ fixed. Long tier: 200
// samples per design, about a minute.
func TestParquetPENearZero(t *testing.T) {
	testtier.Long(t, "a coverage study of RelativePE over 200 two-stage samples per design")
	t.Parallel()
	const size, units, reps = 1000, 64, 200
	shuffled, _ := timeOrdered(t, "normal")
	q := openSeek(t, shuffled)
	type design struct{ d, kind int }
	for _, kind := range []string{"normal", "drift"} {
		path, _ := timeOrdered(t, kind)
		for _, ds := range []design{{64, designPPS}, {8, designStrata}} {
			d := ds.d
			p := openSeek(t, path)
			p.rgDraws, p.rgDesign = d, ds.kind
			q.rgDraws, q.rgDesign = d, ds.kind
			pe, se, deff, kept, df := peOverSamples(t, p, q, size, units, reps, rand.NewPCG(37, uint64(d*10+ds.kind)), 39)
			mu, spread, rms, coverT, cover2 := peCoverage(pe, se, df)
			cT := float64(coverT) / reps
			t.Logf("%-6s D = %2d %-20s kept %d per sample, PE mean %.4f, spread %.4f, StdErr rms %.4f (StdErr/spread %.2f), design effect %.2f, coverage ±2·StdErr %.3f, ±t(%d)·StdErr %.3f (%d samples)",
				kind, d, rgDesignName[ds.kind], kept/(2*reps), mu, spread, rms, rms/spread, deff, float64(cover2)/reps, df, cT, reps)
			// The spread's relative SE is 1/√(2·reps) = 5 %.
			if r := rms / spread; r < 0.8 {
				t.Errorf("%s, D = %d, %s: StdErr %.4f for a spread of %.4f", kind, d, rgDesignName[ds.kind], rms, spread)
			}
			if cT < 0.95-4*math.Sqrt(0.95*0.05/reps) {
				t.Errorf("%s, D = %d, %s: coverage %.3f", kind, d, rgDesignName[ds.kind], cT)
			}
		}
	}
}
