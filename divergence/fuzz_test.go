// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"bytes"
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

// maxCopulaValues bounds the values FuzzCopula makes of its input.
const maxCopulaValues = 32

// copulaScales are the magnitudes of copulaValue's draws.
var copulaScales = []float64{1, 1, 1e-8, 1e8, 1e-150, 1e150, 1e-310, 1e307}

// copulaValue makes the value of byte b at position i of FuzzCopula's
// input: by its low 3 bits, a normal draw (distinct for each b and i)
// times a magnitude of its high 3 bits, a small integer (ties), NaN or
// +Inf, or ±1e308 and the smallest subnormal.
func copulaValue(b byte, i int) float64 {
	switch b & 7 {
	case 5:
		return float64(b >> 3)
	case 6:
		if b&8 == 0 {
			return math.NaN()
		}
		return math.Inf(1)
	case 7:
		switch b >> 6 {
		case 0:
			return 1e308
		case 1:
			return -1e308
		}
		return 5e-324
	}
	return rand.New(rand.NewPCG(uint64(b), uint64(i))).NormFloat64() * copulaScales[b>>5]
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
		// RelativePEValue and TunePE give RelativePE's PE and choice, or
		// fail where it does.
		s.Src = rand.NewPCG(1, 1)
		r, errPE := RelativePE(ctx, p, q, DefaultAlpha, &PESettings{Settings: s, Sigma: sigma})
		s.Src = rand.NewPCG(1, 1)
		v, errV := RelativePEValue(ctx, p, q, DefaultAlpha, &PESettings{Settings: s, Sigma: sigma})
		if (errPE == nil) != (errV == nil) || errPE == nil && v != r.PE {
			t.Fatalf("RelativePEValue %v (%v) against RelativePE's %+v (%v)", v, errV, r, errPE)
		}
		s.Src = rand.NewPCG(1, 1)
		if tuned, err := TunePE(ctx, p, q, DefaultAlpha, &PESettings{Settings: s, Sigma: sigma}); err == nil && (!finite(tuned.Sigma) || !finite(tuned.Lambda)) {
			t.Fatalf("TunePE: %+v", tuned)
		}
		s.Src = rand.NewPCG(1, 1)
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
// values per column. Each byte of the input makes a value (copulaValue),
// cycled over up to 65 rows in a different order for each column, so that
// ties, repeated and constant columns, extreme magnitudes, subnormal and
// non-finite values all occur. fitCopula and LSMI with Model ModelCopula
// must return an error, a refusal (ok false) or finite numbers.
//
// A value is one byte, not the eight of a float64, the input is cut at
// maxCopulaValues and the rows at 65 (201 before): the engine minimises
// every new interesting input by O(n²) deletions, for up to 60 s each,
// which on inputs of up to 2 KB at a few dozen runs a second stalled it at
// 5–9 runs in 45 s (issue 27).
func FuzzCopula(f *testing.F) {
	seed := make([]byte, 32) // normal draws at unit scale, 32 distinct values
	for i := range seed {
		seed[i] = byte(i%5 | (i%2)<<5)
	}
	ties := bytes.Clone(seed)
	ties[3], ties[9], ties[17] = 5|3<<3, 5|3<<3, 5|4<<3
	f.Add(seed, uint8(62), uint8(0))
	f.Add(seed, uint8(60), uint8(1))
	f.Add(seed[:21], uint8(200), uint8(3))
	f.Add(ties, uint8(50), uint8(0))
	f.Add(append([]byte{7}, seed[1:]...), uint8(80), uint8(2)) // 1e308
	f.Fuzz(func(t *testing.T, data []byte, rows, shape uint8) {
		vals := make([]float64, 0, maxCopulaValues)
		for i, b := range data[:min(len(data), maxCopulaValues)] {
			vals = append(vals, copulaValue(b, i))
		}
		if len(vals) == 0 {
			return
		}
		n, dy := int(rows)%64+2, int(shape)%2+1
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
