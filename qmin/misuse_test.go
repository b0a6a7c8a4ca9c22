// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package qmin

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestBadInputsAreErrors calls every entry point with the inputs that used
// to panic (issue 27: nil problems and matrices, a nil *Dense, Funcs without
// its functions, sample sizes from data): each must return an error
// wrapping the sentinel named, with the package's prefix, and never panic.
func TestBadInputsAreErrors(t *testing.T) {
	one := mat.NewSymDense(1, []float64{1})
	ok, err := NewDense(mat.NewDense(2, 2, []float64{2, 0, 0, 2}), []float64{1, 1}, []float64{1, -1})
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name string
		want error
		call func() error
	}{
		{"NewDense(nil)", ErrShape, func() error { _, err := NewDense(nil, nil, nil); return err }},
		{"NewDense((*mat.Dense)(nil))", ErrShape, func() error { _, err := NewDense((*mat.Dense)(nil), nil, nil); return err }},
		{"Estimate(nil)", ErrShape, func() error { _, err := Estimate(nil, nil); return err }},
		{"Estimate((*Dense)(nil))", ErrShape, func() error { _, err := Estimate((*Dense)(nil), nil); return err }},
		{"Estimate(&Dense{})", ErrShape, func() error { _, err := Estimate(&Dense{}, nil); return err }},
		{"Estimate(Funcs without A)", ErrShape, func() error {
			_, err := Estimate(Funcs{N: 3, D: func(int) float64 { return 1 }, B: func(int) float64 { return 1 }}, nil)
			return err
		}},
		{"Exact(nil)", ErrShape, func() error { _, err := Exact(nil, nil); return err }},
		{"Exact((*Dense)(nil))", ErrShape, func() error { _, err := Exact((*Dense)(nil), nil); return err }},
		{"Nystrom(nil)", ErrShape, func() error { _, err := Nystrom(nil, NystromStable, nil); return err }},
		{"Nystrom(Funcs{N: 4})", ErrShape, func() error { _, err := Nystrom(Funcs{N: 4}, NystromStable, &Settings{K: 2}); return err }},
		{"Restricted(nil)", ErrShape, func() error { _, _, err := Restricted(nil, []int{0}, nil); return err }},
		{"MinimizeQuadratic(nil)", ErrShape, func() error { _, err := MinimizeQuadratic(nil, []float64{1}, nil); return err }},
		{"MinimizeQuadratic((*mat.SymDense)(nil))", ErrShape, func() error {
			_, err := MinimizeQuadratic((*mat.SymDense)(nil), []float64{1}, nil)
			return err
		}},
		{"MinimizeQuadratic(c nil)", ErrShape, func() error { _, err := MinimizeQuadratic(one, nil, nil); return err }},
		{"Sample(k > n)", ErrSettings, func() error { _, err := Sample(3, 5, false, rnd); return err }},
		{"Sample(k < 0)", ErrSettings, func() error { _, err := Sample(3, -1, true, rnd); return err }},
		{"Sample(n = 0, replace)", ErrSettings, func() error { _, err := Sample(0, 2, true, rnd); return err }},
		{"Sample(nil rand)", ErrSettings, func() error { _, err := Sample(3, 2, true, nil); return err }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v", r)
					}
				}()
				err = c.call()
			}()
			if !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), "qmin: ") {
				t.Errorf("error %v, want one wrapping %v", err, c.want)
			}
		})
	}
	// The valid inputs next to them still work.
	if idx, err := Sample(3, 3, false, rnd); err != nil || len(idx) != 3 {
		t.Errorf("Sample(3, 3): %v, %v", idx, err)
	}
	if _, err := Estimate(ok, &Settings{K: 2, Draws: 2}); err != nil {
		t.Errorf("Estimate on a valid problem: %v", err)
	}
}
