// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package tabular

import (
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
)

// TestUnify: the same label has the same code in both files of a
// divergence, whatever order each file meets the labels in.
func TestUnify(t *testing.T) {
	tp := &dataset.Table{Name: "p", Columns: []string{"c", "x"}, Categories: [][]string{{"FR", "DE"}, nil}}
	tq := &dataset.Table{Name: "q", Columns: []string{"c", "x"}, Categories: [][]string{{"IT", "FR", "DE"}, nil}}
	xq := mat.NewDense(3, 2, []float64{0, 1, 1, 2, 2, 3})
	cats, err := Unify(tp, tq, xq)
	if err != nil || !slices.Equal(cats, []int{0}) {
		t.Fatalf("cats %v, %v", cats, err)
	}
	if want := []float64{2, 0, 1}; !slices.Equal(mat.Col(nil, 0, xq), want) {
		t.Errorf("codes %v, want %v (IT new, FR 0, DE 1)", mat.Col(nil, 0, xq), want)
	}
	tq.Categories = nil
	if _, err := Unify(tp, tq, xq); err == nil || !strings.Contains(err.Error(), `"c"`) {
		t.Errorf("text in p, numbers in q: %v", err)
	}
}
