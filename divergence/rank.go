// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/adjust"
	"github.com/sublinear/pearson/internal/isnil"
	"github.com/sublinear/pearson/internal/parallel"
)

// FeatureScore is the dependence of the target on one feature.
type FeatureScore struct {
	// Column is the feature's column in the features matrix, from 0.
	Column int
	// Rank is the feature's place, from 1 for the highest SMI.
	Rank int
	// SMI and StdErr are the LSMI estimate of SMI(feature, target) and its
	// standard error.
	SMI, StdErr float64
	// Model is the model of the feature's LSMI estimate (LSMIResult.Model);
	// empty with a Note.
	Model string
	// DesignEffect is that of the feature's LSMI estimate
	// (LSMIResult.DesignEffect) when the target's rows were drawn in two
	// stages (Subsample.Units); zero otherwise.
	DesignEffect float64
	// SigmaX, SigmaY and Lambda are the widths on the feature and the
	// target and the regularisation chosen for this feature.
	SigmaX, SigmaY, Lambda float64
	// Tested reports that a permutation test was run
	// (RankSettings.PValuePermutations > 0); PValue is then its p-value,
	// and QValue its Benjamini–Hochberg adjustment over every tested
	// feature: declaring the features with QValue ≤ q dependent keeps the
	// expected share of false discoveries at most q (for independent or
	// positively dependent p-values).
	Tested bool
	PValue float64
	QValue float64
	// Note explains a score that is not an estimate, such as a constant
	// feature's zero.
	Note string
	// Warnings are those of the feature's LSMI estimate.
	Warnings []string
	// LowerBound is the LSMI estimate's LowerBound: SMI is better read as
	// a lower bound.
	LowerBound bool
}

// RankResult is a ranking of features by their dependence with a target.
type RankResult struct {
	// Features holds one score per feature, by decreasing SMI (ties by
	// column).
	Features []FeatureScore
	// Permutations is the number of permutations behind each p-value
	// (zero when none were asked for).
	Permutations int
}

// Rank scores the dependence of target (n rows, any number of columns) on
// each column of features (n rows) by LSMI, with widths and λ
// cross-validated for each feature, and sorts the features by decreasing
// SMI. With RankSettings.PValuePermutations > 0 each feature also gets the p-value of
// IndependenceTest. A constant feature scores 0 with a note instead of
// stopping the ranking; a constant target is an error wrapping ErrConstant.
//
// Features run concurrently on Settings.Workers goroutines, each with its
// own generator seeded in column order from Settings.Src, so the ranking does
// not depend on the number of workers. Settings.Progress, if set, is called
// as features finish.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func Rank(ctx context.Context, features, target mat.Matrix, s *RankSettings) (*RankResult, error) {
	isnil.Context(ctx, "divergence.Rank")
	if s == nil {
		s = &RankSettings{}
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	s = s.resolved()
	if err := checkMatrix("features", features); err != nil {
		return nil, err
	}
	py, err := newPoints("target", target)
	if err != nil {
		return nil, err
	}
	if c, ok := features.(Categorical); ok {
		if sub, ok := c.Matrix.(Subsample); ok { // one order of the wrappers
			c.Matrix, sub.Matrix = sub.Matrix, c
			features = sub
		}
	}
	n, p := features.Dims()
	if sub, ok := features.(Subsample); ok {
		n, p = sub.Matrix.Dims()
	}
	if n != py.n {
		return nil, fmt.Errorf("divergence: %w: features have %d rows but the target has %d", ErrDimension, n, py.n)
	}
	if sub, ok := features.(Subsample); ok && sub.Units != nil && py.units == nil {
		// The features' two-stage design, when only they carry it, is the
		// target's: their rows are paired.
		if py.draws, err = checkUnits("features", sub.Units, sub.UnitDraws, n); err != nil {
			return nil, err
		}
		if err := checkStrata("features", sub.UnitStrata, py.draws); err != nil {
			return nil, err
		}
		py.units, py.strata = sub.Units, sub.UnitStrata
	}
	if p < 1 {
		return nil, fmt.Errorf("divergence: %w: no feature columns", ErrDimension)
	}
	if err := s.checkExact(py.n, "rows"); err != nil {
		return nil, err
	}
	rnd := rand.New(s.Src)
	// The target's scale, computed once.
	if py, err = scaled(rnd, py, s.SigmaY); err != nil {
		return nil, fmt.Errorf("divergence: the target: %w", err)
	}
	// One cross-validation design and one set of draws for every feature:
	// the target's kernel statistics are computed once, and the features
	// are compared on the same rows.
	sh := &lsmiShared{y: newMemo[drawKey, drawY]()}
	if s.SigmaX == 0 || s.SigmaY == 0 || s.Lambda == 0 {
		if sh.cv, err = newLSMICV(py, &s.Settings, rnd); err != nil {
			return nil, err
		}
	}
	sh.seed = [2]uint64{rnd.Uint64(), rnd.Uint64()}
	seeds := make([][2]uint64, p)
	for j := range seeds {
		seeds[j] = [2]uint64{rnd.Uint64(), rnd.Uint64()}
	}
	inner := *s
	inner.Workers, inner.Progress = 1, nil
	scores := make([]FeatureScore, p)
	errs := make([]error, p)
	var mu sync.Mutex
	done := 0
	parallel.For(p, parallel.Workers(s.Workers), func(j int) {
		if ctx.Err() != nil {
			return
		}
		scores[j], errs[j] = rankFeature(ctx, features, j, py, &inner, rand.New(rand.NewPCG(seeds[j][0], seeds[j][1])), sh)
		if s.Progress != nil {
			mu.Lock()
			done++
			s.Progress(done, p)
			mu.Unlock()
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	benjaminiHochberg(scores)
	slices.SortStableFunc(scores, func(a, b FeatureScore) int { return cmp.Compare(b.SMI, a.SMI) })
	for i := range scores {
		scores[i].Rank = i + 1
	}
	return &RankResult{Features: scores, Permutations: s.PValuePermutations}, nil
}

// lsmiShared is what the features of a ranking share, so that the target's
// kernel statistics are computed once and the features are compared on the
// same rows: the cross-validation design, the seed of the estimate's draws,
// and the y side of those draws.
type lsmiShared struct {
	cv   *lsmiCV // nil when the widths and λ are fixed
	seed [2]uint64
	y    *memo[drawKey, drawY]
}

// rankFeature scores column j of features against the target.
func rankFeature(ctx context.Context, features mat.Matrix, j int, target *points, s *RankSettings, rnd *rand.Rand, sh *lsmiShared) (FeatureScore, error) {
	var col mat.Matrix
	if sub, ok := features.(Subsample); ok {
		// Without the design, checked once with the target's.
		col = Subsample{Matrix: columnCategorical(features, j, columnOf(withoutCategorical(sub.Matrix), j)), Rows: sub.Rows}
	} else {
		col = columnCategorical(features, j, columnOf(withoutCategorical(features), j))
	}
	name := fmt.Sprintf("feature %d", j)
	px, err := newPoints(name, col)
	if err != nil {
		return FeatureScore{}, err
	}
	fs := FeatureScore{Column: j}
	var lr *LSMIResult
	px, err = scaled(rnd, px, s.SigmaX)
	switch {
	case err != nil:
	case s.PValuePermutations > 0:
		var it *IndependenceResult
		it, err = independenceTest(ctx, px, target, &IndependenceSettings{LSMISettings: s.LSMISettings, Permutations: s.PValuePermutations}, rnd, sh)
		if it != nil {
			lr, fs.Tested, fs.PValue = it.LSMI, true, it.PValue
		}
	default:
		lr, err = lsmi(ctx, px, target, &s.LSMISettings, rnd, sh)
	}
	switch {
	case errors.Is(err, ErrConstant):
		fs.Note = "constant feature: no dependence can be measured; SMI taken as 0"
		if s.PValuePermutations > 0 {
			fs.Tested, fs.PValue = true, 1
		}
		return fs, nil
	case err != nil:
		return FeatureScore{}, err
	}
	fs.SMI, fs.StdErr, fs.DesignEffect, fs.Model = lr.SMI, lr.StdErr, lr.DesignEffect, lr.Model
	fs.SigmaX, fs.SigmaY, fs.Lambda = lr.SigmaX, lr.SigmaY, lr.Lambda
	fs.Warnings, fs.LowerBound = lr.Warnings, lr.LowerBound
	return fs, nil
}

// columnOf returns column j of m as an n×1 matrix, without copying when m
// is a *mat.Dense.
func columnOf(m mat.Matrix, j int) mat.Matrix {
	if d, ok := m.(*mat.Dense); ok {
		r, _ := d.Dims()
		return d.Slice(0, r, j, j+1)
	}
	return columnView{m, j}
}

// columnView is column j of a matrix.
type columnView struct {
	m mat.Matrix
	j int
}

func (c columnView) Dims() (int, int) {
	r, _ := c.m.Dims()
	return r, 1
}

func (c columnView) At(i, _ int) float64 { return c.m.At(i, c.j) }

func (c columnView) T() mat.Matrix { return mat.Transpose{Matrix: c} }

// benjaminiHochberg sets the QValue of every tested feature, the
// Benjamini–Hochberg adjustment of the tested p-values (adjust.BenjaminiHochberg).
func benjaminiHochberg(scores []FeatureScore) {
	var tested []int
	var p []float64
	for i, f := range scores {
		if f.Tested {
			tested, p = append(tested, i), append(p, f.PValue)
		}
	}
	for j, q := range adjust.BenjaminiHochberg(p) {
		scores[tested[j]].QValue = q
	}
}
