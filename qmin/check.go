// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package qmin

import (
	"fmt"

	"github.com/sublinear/pearson/internal/isnil"
)

// problemDim returns the dimension of p after checking that p is there:
// not nil, not a nil pointer (such as (*Dense)(nil)), not a Dense made
// without NewDense, and of dimension at least 1. Otherwise it returns an
// error wrapping ErrShape, so that a missing problem is an error rather
// than a panic deep inside a draw. See queryable for what is checked once
// the sizes are.
func problemDim(p Problem) (int, error) {
	if isnil.Is(p) {
		return 0, fmt.Errorf("qmin: %w: the problem is nil", ErrShape)
	}
	if t, ok := p.(*Dense); ok && isnil.Is(t.a) {
		return 0, fmt.Errorf("qmin: %w: the problem's matrix A is nil (make a Dense with NewDense)", ErrShape)
	}
	n := p.Dim()
	if n < 1 {
		return 0, fmt.Errorf("qmin: %w: dimension n = %d < 1", ErrShape, n)
	}
	return n, nil
}

// queryable returns an error wrapping ErrShape for a Funcs with a function
// missing, which every query would otherwise panic on.
func queryable(p Problem) error {
	switch t := p.(type) {
	case Funcs:
		return t.check()
	case *Funcs:
		return t.check()
	}
	return nil
}

// check reports a Funcs with a function missing.
func (f Funcs) check() error {
	for _, m := range []struct {
		name string
		nil  bool
	}{{"A", f.A == nil}, {"D", f.D == nil}, {"B", f.B == nil}} {
		if m.nil {
			return fmt.Errorf("qmin: %w: Funcs.%s is nil", ErrShape, m.name)
		}
	}
	return nil
}
