// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"math"
	"runtime"

	"github.com/sublinear/pearson/kernel"
)

// Bounds of memory. The Memory methods bound, in bytes, what an estimate
// holds at its peak beyond its samples, from its settings and the sizes of the samples alone, so that a
// caller can refuse settings that would exhaust the machine before any work.
// The bounds are upper bounds of the estimators' allocations (the live heap;
// the process's resident size adds the runtime's own and the samples), and
// they grow with the settings as the work does: with
//
//	w = the workers (Settings.Workers, or GOMAXPROCS),
//	k = the centres (K capped at the centre sample), k_cv = min(k, n/2),
//	m = the averaging points (M capped at the samples), f = the folds,
//	D = the draws, G = the width grid, B = the permutations, d = the columns,
//
// each estimate holds, in 8-byte words,
//
//	draws kept:        D·k·(4 + d)                   (centres, weights, the ratio's centres)
//	each draw:         w·(10k² + k·(BlockRows + d))  (kernel averages and the k×k solve)
//	cross-validation:  w·(8f + 4)·k_cv² + m·d        (every fold's moments at one width)
//
// with Settings.Exact solving one problem of k = n instead of the draws:
// 7n² + 2n·(BlockRows + d + 3) words (see exactWords), the heap at its
// peak under the collector's default target rather than the live data. LSMI adds w·2k·m for the
// kernel values of a draw's pairs (2k·BlockRows when exact) and G·(2k_cv·m + 2f·k_cv²) for its
// cross-validation's per-width caches; a permutation test adds its design,
// |PermutationSigmaScales|·(2k·m + 3k²), w·(k·m + 3k²) of scratch (k there is
// IndependenceTest's ⌈√K⌉ centres of each variable), and
// B·(|PermutationSigmaScales| + 4) for the null distribution (a two-sample
// test also 4d² + 3m·d for its mean part, see meanWords); Rank runs w features
// at once, each an LSMI (with its test), and caches the target's kernel
// values for every draw and the widths the features chose (at most 3),
// 3D·(k·m/2 + k²).
//
// The formulas describe the implementation, not a contract: they change
// with it, and the tests check them against the allocations measured.

// words is the size of a float64 or an int, in bytes.
const words = 8

// workers returns the number of goroutines the settings ask for.
func (s *Settings) workers() float64 {
	if s.Workers > 0 {
		return float64(s.Workers)
	}
	return float64(runtime.GOMAXPROCS(0))
}

// gridSize returns the number of kernel widths cross-validation may try on
// one axis: the grid, and its widening (up to six more) when it is the
// default.
func gridSize(given, def []float64) float64 {
	if given != nil {
		return float64(len(given))
	}
	return float64(len(def) + 6)
}

// estimateWords is the common part of the bound: the draws kept, each
// draw's working set and the cross-validation, for nc candidate centres
// among n points of d columns, with cv telling whether σ or λ is
// cross-validated.
func (s *Settings) estimateWords(nc, n, d int, cv bool) (words float64, k, kcv, m float64) {
	w := s.workers()
	k = float64(min(s.K, nc))
	kcv = math.Min(k, float64(nc/2)) // Exact or not
	draws := float64(s.Draws)
	m = math.Min(float64(s.M), float64(n))
	fd := float64(d)
	var total float64
	if s.Exact {
		// One solve of the n×n problem.
		k, m = float64(nc), float64(n)
		total = k*(4+fd) + exactWords(k, fd)
	} else {
		total = draws*k*(4+fd) + w*(10*k*k+k*(kernel.BlockRows+fd))
	}
	if cv {
		f := float64(s.Folds)
		total += w*(8*f+4)*kcv*kcv + m*fd
	}
	return total, k, kcv, m
}

// exactWords bounds, in words, the heap of the all-centre solution of k
// centres of d columns (Settings.Exact) at its peak. The solve holds at
// once the restricted k×k problem, the two kernel Gram matrices of its
// moments (gonum's symmetric matrices take k² words each) and a block of
// kernel values, k·BlockRows, with the centres and three k-vectors:
// 3k² + k·(BlockRows + d + 3) words live. The Cholesky factor (k² more)
// comes after the moments are dropped, but the collector, at GOGC = 100
// (the default), lets the heap grow to twice what was live at its last
// cycle before it runs again, and an allocation of k² words may cross
// that goal before the cycle starts: 2·live + k². The collector's trace
// of changepoint --stream --exact --window 5000 (issue 36) shows 593 MiB
// live (3.1k²) and the heap at 1187 MiB (6.2k²) as the next window's
// solve begins; the former bound of 6k² + k·BlockRows words was 1174 MiB
// and let such a run start under a limit of address space it then
// exhausts.
func exactWords(k, d float64) float64 {
	live := 3*k*k + k*(kernel.BlockRows+d+3)
	return 2*live + k*k
}

// Memory returns a bound, in bytes, of what RelativePE holds beyond its
// samples for np numerator and nq denominator points of d columns (see the
// formulas above).
func (s *PESettings) Memory(np, nq, d int) float64 {
	if s == nil {
		s = &PESettings{}
	}
	s = s.resolved()
	t, _, _, _ := s.estimateWords(np, np+nq, d, s.Sigma == 0 || s.Lambda == 0)
	return words * t
}

// Memory returns a bound, in bytes, of what TwoSampleTest holds beyond its
// samples for np numerator and nq denominator points of d columns: the
// estimate's, and the permutation test's (see the formulas above).
func (s *TwoSampleSettings) Memory(np, nq, d int) float64 {
	if s == nil {
		s = &TwoSampleSettings{}
	}
	s = s.resolved()
	t, _, _, _ := s.PESettings.Settings.estimateWords(np, np+nq, d, s.Sigma == 0 || s.Lambda == 0)
	k := float64(min(s.K, (np+nq)/2))
	m := math.Min(float64(TwoSamplePoints(s.Points, np, nq)), float64(np+nq))
	return words * (t + testWords(&s.Settings, k, m, s.Permutations) + meanWords(m, float64(d)))
}

// meanWords is the mean part of a two-sample test on m averaging points of
// d columns (groupSums.addMean): the centred copy of the points and their
// whitened features (m·d each, and m·d in the permutation rows), the d×d
// covariance, its eigenvectors, the decomposition's copy and the
// whitening matrix: 4d² + 3md words, which at d = 10⁴ columns is 3.2 GB.
func meanWords(m, d float64) float64 { return 4*d*d + 3*m*d }

// testWords is a permutation test's share: its design at each width, each
// worker's scratch and the null distribution.
func testWords(s *Settings, k, m float64, b int) float64 {
	g := float64(len(PermutationSigmaScales()))
	return g*(2*k*m+3*k*k) + s.workers()*(k*m+3*k*k) + float64(b)*(g+40)
}

// lsmiWords is LSMI's share beyond the common part.
func (s *LSMISettings) lsmiWords(k, kcv, m float64, cv bool) float64 {
	t := s.workers() * 2 * k * m
	if s.Exact {
		t = 2 * k * kernel.BlockRows // block by block
	}
	if cv {
		f := float64(s.Folds)
		t += 2 * gridSize(s.SigmaScales, DefaultLSMISigmaScales()) * (2*kcv*m + 2*f*kcv*kcv)
	}
	return t
}

func (s *LSMISettings) cv() bool { return s.SigmaX == 0 || s.SigmaY == 0 || s.Lambda == 0 }

// Memory returns a bound, in bytes, of what LSMI holds beyond its samples
// for n paired rows of dx and dy columns (see the formulas above).
func (s *LSMISettings) Memory(n, dx, dy int) float64 {
	if s == nil {
		s = &LSMISettings{}
	}
	s = s.resolved()
	t, k, kcv, m := s.estimateWords(n, n, dx+dy, s.cv())
	return words * (t + s.lsmiWords(k, kcv, m, s.cv()))
}

// Memory returns a bound, in bytes, of what IndependenceTest holds beyond
// its samples for n paired rows of dx and dy columns: the estimate's, and
// the permutation test's (see the formulas above).
func (s *IndependenceSettings) Memory(n, dx, dy int) float64 {
	if s == nil {
		s = &IndependenceSettings{}
	}
	s = s.resolved()
	k := float64(testCentres(s.K, n)) // x-centres, and as many y-centres
	m := math.Min(float64(s.M), float64(n))
	return s.LSMISettings.Memory(n, dx, dy) + words*testWords(&s.Settings, k, m, s.Permutations)
}

// Memory returns a bound, in bytes, of what Rank holds beyond its samples
// for n rows of p feature columns and dy target columns: w features scored
// at once, each an LSMI (and its test with PValuePermutations), and the
// target's kernel values cached for every draw and width (see the formulas
// above).
func (s *RankSettings) Memory(n, p, dy int) float64 {
	if s == nil {
		s = &RankSettings{}
	}
	s = s.resolved()
	one := s.LSMISettings.Memory(n, 1, dy)
	if s.PValuePermutations > 0 {
		one = (&IndependenceSettings{LSMISettings: s.LSMISettings, Permutations: s.PValuePermutations}).Memory(n, 1, dy)
	}
	k := float64(min(s.K, n))
	m := math.Min(float64(s.M), float64(n))
	// The final draws of the features share the target's kernel values at
	// the widths they chose: a few, of the grid's.
	g := math.Min(3, gridSize(s.SigmaScales, DefaultLSMISigmaScales()))
	cache := float64(s.Draws) * g * (k*m/2 + k*k)
	return math.Min(s.workers(), float64(p))*one + words*(cache+float64(p)*64)
}
