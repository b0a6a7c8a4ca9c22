// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package indices

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRange(t *testing.T) {
	if got := Range(4); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Errorf("Range(4) = %v", got)
	}
	if got := Range(0); len(got) != 0 {
		t.Errorf("Range(0) = %v", got)
	}
}

func TestSampleUniform(t *testing.T) {
	// Each of n indices appears with probability k/n in a draw without
	// replacement; over T draws its count is Binomial(T, k/n). Check every
	// count is within 5 standard deviations.
	const n, k, draws = 50, 10, 20000
	rnd := rand.New(rand.NewPCG(6, 6))
	for _, replace := range []bool{true, false} {
		counts := make([]int, n)
		for range draws {
			s := Sample(n, k, replace, rnd)
			if !replace && len(slices.Compact(slices.Sorted(slices.Values(s)))) != k {
				t.Fatalf("repeated index in %v", s)
			}
			for _, i := range s {
				counts[i]++
			}
		}
		mean := float64(draws * k / n)
		sd := math.Sqrt(mean * (1 - float64(k)/n))
		if replace {
			sd = math.Sqrt(float64(draws*k) * (1.0 / n) * (1 - 1.0/n))
		}
		for i, c := range counts {
			if math.Abs(float64(c)-mean) > 5*sd {
				t.Errorf("replace=%v: index %d drawn %d times, expected %.0f ± %.0f", replace, i, c, mean, sd)
			}
		}
	}
}

func TestShuffled(t *testing.T) {
	// The first position takes each index with probability 1/n.
	const n, k, draws = 10, 4, 20000
	rnd := rand.New(rand.NewPCG(7, 7))
	counts := make([]int, n)
	for range draws {
		s := Shuffled(n, k, rnd)
		if len(slices.Compact(slices.Sorted(slices.Values(s)))) != k {
			t.Fatalf("repeated index in %v", s)
		}
		counts[s[0]]++
	}
	mean, sd := float64(draws)/n, math.Sqrt(float64(draws)*(1.0/n)*(1-1.0/n))
	for i, c := range counts {
		if math.Abs(float64(c)-mean) > 5*sd {
			t.Errorf("index %d first %d times, expected %.0f ± %.0f", i, c, mean, sd)
		}
	}
	if got := Shuffled(5, 5, rnd); !slices.Equal(slices.Sorted(slices.Values(got)), Range(5)) {
		t.Errorf("Shuffled(5, 5) = %v, not a permutation", got)
	}
}

func TestSampleExcept(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 2))
	except := []int{3, 0, 9, 5}
	for _, m := range []int{1, 3, 6, 20} {
		rows := SampleExcept(10, m, except, rnd)
		if len(rows) != min(m, 6) {
			t.Errorf("m=%d: %d rows", m, len(rows))
		}
		seen := map[int]bool{}
		for _, r := range rows {
			if r < 0 || r >= 10 || slices.Contains(except, r) || seen[r] {
				t.Errorf("m=%d: bad or repeated row %d in %v", m, r, rows)
			}
			seen[r] = true
		}
	}
	// Uniform over the rows allowed: each of the 6 appears in a draw of 3
	// with probability ½; over 6000 draws, within 5 standard deviations.
	counts := map[int]int{}
	for range 6000 {
		for _, r := range SampleExcept(10, 3, except, rnd) {
			counts[r]++
		}
	}
	for r, c := range counts {
		if math.Abs(float64(c)-3000) > 5*math.Sqrt(6000*0.25) {
			t.Errorf("row %d drawn %d times of 6000, expected 3000", r, c)
		}
	}
}

func TestAllOrSample(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	if got := AllOrSample(3, 5, rnd); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("AllOrSample(3, 5) = %v", got)
	}
	if got := AllOrSample(10, 4, rnd); len(got) != 4 {
		t.Errorf("AllOrSample(10, 4) = %v", got)
	}
}
