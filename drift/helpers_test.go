// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// normalTable returns cols numeric columns of n rows, standard normal,
// column j shifted by shift[j] (if given).
func normalTable(n, cols int, shift map[int]float64, rnd *rand.Rand) []Column {
	t := make([]Column, cols)
	for j := range t {
		v := make([]float64, n)
		for i := range v {
			v[i] = rnd.NormFloat64() + shift[j]
		}
		t[j] = Column{Name: fmt.Sprintf("x%02d", j), Values: v}
	}
	return t
}

// categoricalColumn returns n labels drawn with probabilities p over
// "a", "b", "c", …
func categoricalColumn(name string, n int, p []float64, rnd *rand.Rand) Column {
	v := make([]string, n)
	for i := range v {
		u, c := rnd.Float64(), 0
		for c < len(p)-1 && u >= p[c] {
			u -= p[c]
			c++
		}
		v[i] = string(rune('a' + c))
	}
	return Column{Name: name, Categories: v}
}

// fastSettings are cheap estimator settings for the statistical tests,
// whose subject is the calibration of the p-values, not the estimate.
func fastSettings(seed uint64) *Settings {
	s := &Settings{}
	s.K, s.M, s.Points, s.Draws = 30, 600, 600, 2
	s.SigmaScales = []float64{0.25, 0.5, 1, 2, 4}
	s.LambdaScales = []float64{1e-3, 1e-2, 1e-1}
	s.Src = rand.NewPCG(seed, 7)
	return s
}

// defaults are the resolved parameters of the zero Settings.
func defaults(t testing.TB) *params {
	p, err := (&Settings{}).resolve()
	if err != nil {
		t.Fatal(err)
	}
	return p
}
