// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// values holds what fuzzed samples are made of: repeats, constants, extreme
// magnitudes (1e−150 … 1e150) and non-finite values.
var values = []float64{0, 0, 1, 1, -1, 2.5, 1e-150, -1e-150, 1e150, -1e150, 3, 3, 1e-8, 42, math.NaN(), math.Inf(-1)}

func sampleFrom(data []byte, off, rows, cols int, scale float64) *mat.Dense {
	x := mat.NewDense(rows, cols, nil)
	for i := range rows {
		for j := range cols {
			v := 0.0
			if len(data) > 0 {
				v = values[int(data[(off+i*cols+j)%len(data)])%len(values)]
			}
			x.Set(i, j, v*scale)
		}
	}
	return x
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func hasNonFinite(x *mat.Dense) bool {
	for _, v := range x.RawMatrix().Data {
		if !finite(v) {
			return true
		}
	}
	return false
}

// FuzzEstimators checks that RelativePE, LSMI and Rank return an error or
// finite numbers, and never panic, on tiny samples of every kind.
func FuzzEstimators(f *testing.F) {
	f.Add([]byte{2, 4, 5, 10, 11, 3}, uint8(6), uint8(5), uint8(1), false, 1.0)
	f.Add([]byte{0, 1}, uint8(3), uint8(3), uint8(2), true, 1e-100)
	f.Add([]byte{8, 9, 6, 7, 2, 3, 12}, uint8(9), uint8(4), uint8(1), false, 1e100)
	f.Add([]byte{14}, uint8(4), uint8(4), uint8(1), true, 1.0)
	f.Fuzz(func(t *testing.T, data []byte, npb, nqb, dimb uint8, fixed bool, scale float64) {
		if !finite(scale) {
			scale = 1
		}
		np, nq, dim := 1+int(npb%14), 1+int(nqb%14), 1+int(dimb%3)
		p := sampleFrom(data, 0, np, dim, scale)
		q := sampleFrom(data, 7, nq, dim, scale)
		s := Settings{K: 4, M: 16, Draws: 2, Folds: 2, Src: rand.NewPCG(1, 1)}
		var sigma, sigmaX, sigmaY float64
		if fixed {
			s.Lambda, sigma, sigmaX, sigmaY = 0.5, 1, 1, 2
		}
		ps := PESettings{Settings: s, Sigma: sigma}
		ls := LSMISettings{Settings: s, SigmaX: sigmaX, SigmaY: sigmaY}
		if r, err := RelativePE(ctx, p, q, DefaultAlpha, &ps); err == nil {
			if !finite(r.PE) || !finite(r.StdErr) || !finite(r.Sigma) || !finite(r.Lambda) {
				t.Fatalf("RelativePE: %+v", r)
			}
			// RelativePE reads only the rows it draws (constant time), so a
			// non-finite value elsewhere goes unseen until Eval reads
			// every row; Eval must fail then, and only then.
			w, err := r.Ratio.Eval(p)
			if (err != nil) != hasNonFinite(p) {
				t.Fatalf("Ratio.Eval on the sample itself: %v", err)
			}
			for _, v := range w {
				if !finite(v) || v < 0 {
					t.Fatalf("ratio %v", v)
				}
			}
		}
		if r, err := TwoSampleTest(ctx, p, q, DefaultAlpha, &TwoSampleSettings{PESettings: ps, Permutations: 5}); err == nil && (!finite(r.Statistic) || !(r.PValue > 0 && r.PValue <= 1)) {
			t.Fatalf("TwoSampleTest: %v %v", r.Statistic, r.PValue)
		}
		if np == nq {
			if r, err := LSMI(ctx, p, q, &ls); err == nil && (!finite(r.SMI) || !finite(r.StdErr)) {
				t.Fatalf("LSMI: %+v", r)
			}
			if r, err := Rank(ctx, p, q.Slice(0, nq, 0, 1), &RankSettings{LSMISettings: ls, PValuePermutations: 5}); err == nil {
				for _, fs := range r.Features {
					if !finite(fs.SMI) || fs.Tested && !(fs.PValue > 0 && fs.PValue <= 1) {
						t.Fatalf("Rank: %+v", fs)
					}
				}
			}
		}
	})
}

// FuzzCopula reaches LSMI's Gaussian-copula model, which FuzzEstimators'
// samples (at most 14 rows) never do: it needs more than MaxClasses distinct
// values per column. The values are the input's 8-byte chunks read as
// float64, cycled over up to 201 rows in a different order for each column,
// so that ties, repeated and constant columns, extreme magnitudes and
// non-finite values all occur. fitCopula and LSMI with Model ModelCopula
// must return an error, a refusal (ok false) or finite numbers.
func FuzzCopula(f *testing.F) {
	seed := make([]byte, 0, 8*40)
	for i := range 40 {
		seed = binary.LittleEndian.AppendUint64(seed, math.Float64bits(float64(i*i%37)-0.5*float64(i)))
	}
	f.Add(seed, uint8(120), uint8(0))
	f.Add(seed, uint8(60), uint8(1))
	f.Add(seed[:8*21], uint8(200), uint8(3))
	f.Add(append(binary.LittleEndian.AppendUint64(nil, math.Float64bits(1e308)), seed[8:]...), uint8(80), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, rows, shape uint8) {
		var vals []float64
		for len(data) >= 8 && len(vals) < 256 {
			vals = append(vals, math.Float64frombits(binary.LittleEndian.Uint64(data)))
			data = data[8:]
		}
		if len(vals) == 0 {
			return
		}
		n, dy := int(rows)%200+2, int(shape)%2+1
		same := shape&2 != 0 // y's first column repeats x
		x, y := mat.NewDense(n, 1, nil), mat.NewDense(n, dy, nil)
		for i := range n {
			x.Set(i, 0, vals[i%len(vals)])
			for c := range dy {
				v := vals[(i*7+c*3+1)%len(vals)]
				if same && c == 0 {
					v = x.At(i, 0)
				}
				y.Set(i, c, v)
			}
		}
		px, err := newPoints("x", x)
		if err != nil {
			return
		}
		py, err := newPoints("y", y)
		if err != nil {
			return
		}
		if c, ok, err := fitCopula(ctx, px, py, rand.New(rand.NewPCG(1, 2))); err == nil && ok && (!finite(c.smi) || !finite(c.stderr) || c.smi < -0.5) {
			t.Fatalf("fitCopula: %+v", c)
		}
		s := &LSMISettings{Settings: Settings{K: 10, M: 40, Draws: 2, Folds: 2}, Model: ModelCopula}
		if r, err := LSMI(ctx, x, y, s); err == nil && (!finite(r.SMI) || !finite(r.StdErr) || r.Model != ModelCopula) {
			t.Fatalf("LSMI: %+v", r)
		}
	})
}
