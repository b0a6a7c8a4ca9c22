// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestBadSamplesAreErrors calls every estimator with the samples that used
// to panic (issue 27): ragged points given to Rows, a (*mat.Dense)(nil), a
// Subsample of nothing. Each is a user's data, so each must be an error
// wrapping the sentinel named, and never a panic.
func TestBadSamplesAreErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	good := Rows([][]float64{{1, 2}, {2, 1}, {3, 5}, {4, 4}, {5, 0}, {6, 2}})
	ragged := Rows([][]float64{{1, 2}, {2, 1}, {3}})
	var nilDense *mat.Dense
	s := Settings{K: 3, M: 6, Draws: 2}
	for _, bad := range []struct {
		name string
		x    mat.Matrix
		want error
		text string
	}{
		{"ragged", ragged, ErrDimension, "point 2 has 1 values, point 0 has 2"},
		{"(*mat.Dense)(nil)", nilDense, ErrTooFew, "is nil"},
		{"nil", nil, ErrTooFew, "is nil"},
		{"Subsample of nil", Subsample{Rows: 10}, ErrTooFew, "is nil"},
		{"Subsample of (*mat.Dense)(nil)", Subsample{Matrix: nilDense, Rows: 10}, ErrTooFew, "is nil"},
	} {
		for _, c := range []struct {
			name string
			call func(x mat.Matrix) error
		}{
			{"RelativePE p", func(x mat.Matrix) error {
				_, err := RelativePE(ctx, x, good, 0.5, &PESettings{Settings: s})
				return err
			}},
			{"RelativePE q", func(x mat.Matrix) error {
				_, err := RelativePE(ctx, good, x, 0.5, &PESettings{Settings: s})
				return err
			}},
			{"NewPEProblem", func(x mat.Matrix) error {
				_, err := NewPEProblem(x, good, 0.5, &PESettings{Settings: Settings{K: 3, M: 6, Draws: 2, Lambda: 0.1}, Sigma: 1})
				return err
			}},
			{"TwoSampleTest", func(x mat.Matrix) error {
				_, err := TwoSampleTest(ctx, good, x, 0.5, &TwoSampleSettings{PESettings: PESettings{Settings: s}, Permutations: 3})
				return err
			}},
			{"LSMI x", func(x mat.Matrix) error { _, err := LSMI(ctx, x, good, &LSMISettings{Settings: s}); return err }},
			{"LSMI y", func(x mat.Matrix) error { _, err := LSMI(ctx, good, x, &LSMISettings{Settings: s}); return err }},
			{"IndependenceTest", func(x mat.Matrix) error {
				_, err := IndependenceTest(ctx, x, good, &IndependenceSettings{LSMISettings: LSMISettings{Settings: s}, Permutations: 3})
				return err
			}},
			{"Rank features", func(x mat.Matrix) error {
				_, err := Rank(ctx, x, Column([]float64{1, 2, 3, 4, 5, 6}), &RankSettings{LSMISettings: LSMISettings{Settings: s}})
				return err
			}},
			{"Rank target", func(x mat.Matrix) error {
				_, err := Rank(ctx, good, x, &RankSettings{LSMISettings: LSMISettings{Settings: s}})
				return err
			}},
		} {
			t.Run(c.name+"/"+bad.name, func(t *testing.T) {
				var err error
				func() {
					defer func() {
						if r := recover(); r != nil {
							err = fmt.Errorf("panic: %v", r)
						}
					}()
					err = c.call(bad.x)
				}()
				if !errors.Is(err, bad.want) || !strings.Contains(err.Error(), bad.text) {
					t.Errorf("error %v, want one wrapping %v saying %q", err, bad.want, bad.text)
				}
			})
		}
	}
}
