// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
)

// withDesign returns x, the estimators' matrix of the kept rows of in, with
// in's two-stage design attached (divergence.Subsample.Units) when it was
// sampled in units: the estimators then add the variance between units to
// their error bars and report the design effect themselves, by the
// ultimate-cluster estimate over their influences (docs/DESIGN.md §7).
func withDesign(x mat.Matrix, in sample) mat.Matrix {
	if in.units == nil {
		return x
	}
	s, ok := x.(divergence.Subsample)
	if !ok {
		r, _ := x.Dims()
		s = divergence.Subsample{Matrix: x, Rows: r}
	}
	s.Units, s.UnitDraws, s.UnitStrata = in.units, in.draws, in.strata
	return s
}

// withGroupDesign is withDesign for one of two groups of one file, whose
// unit draws the other group's rows share (divergence.Subsample.SharedDraws).
func withGroupDesign(x mat.Matrix, in sample) mat.Matrix {
	if in.units == nil {
		return x
	}
	s := withDesign(x, in).(divergence.Subsample)
	s.SharedDraws = true
	return s
}
