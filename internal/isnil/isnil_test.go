// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package isnil

import (
	"io"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestIs(t *testing.T) {
	var nilReader io.Reader
	var nilDense *mat.Dense
	var nilMatrix mat.Matrix = nilDense
	for _, c := range []struct {
		name string
		x    any
		want bool
	}{
		{"nil", nil, true},
		{"nil interface", nilReader, true},
		{"typed nil pointer", nilMatrix, true},
		{"nil func", (func())(nil), true},
		{"nil slice", []float64(nil), true},
		{"dense", mat.NewDense(1, 1, nil), false},
		{"empty dense", &mat.Dense{}, false},
		{"reader", strings.NewReader(""), false},
		{"int", 0, false},
		{"struct", struct{}{}, false},
	} {
		if got := Is(c.x); got != c.want {
			t.Errorf("%s: Is = %v, want %v", c.name, got, c.want)
		}
	}
}
