// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package tabular

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestFromColumns: in-memory columns become the table a read gives, and
// the rules apply to them as to a file: a text column is a category
// column whose labels Unify codes alike in both tables, an identifier
// column is flagged, and the scaling leaves categories as they are.
func TestFromColumns(t *testing.T) {
	t.Parallel()
	n := 40
	id, x, c := make([]float64, n), make([]float64, n), make([]string, n)
	for i := range n {
		id[i], x[i], c[i] = float64(i+1), float64(i%5), []string{"FR", "DE", ""}[i%3]
	}
	tp, err := FromColumns("p", []Column{{Name: "id", Values: id}, {Name: "x", Values: x}, {Name: "c", Labels: c}})
	if err != nil {
		t.Fatal(err)
	}
	rev := slices.Clone(c)
	slices.Reverse(rev)
	tq, err := FromColumns("q", []Column{{Name: "id", Values: id}, {Name: "x", Values: x}, {Name: "c", Labels: rev}})
	if err != nil {
		t.Fatal(err)
	}
	if got := CategoryColumns(tp, tp.Columns); !slices.Equal(got, []int{2}) || !slices.Equal(tp.Categories[2], []string{"FR", "DE"}) {
		t.Errorf("categories %v, labels %q", got, tp.Categories[2])
	}
	xp := mat.NewDense(n, 3, tp.Groups[0].Data)
	xq := mat.NewDense(n, 3, tq.Groups[0].Data)
	if !math.IsNaN(xp.At(2, 2)) {
		t.Errorf("a missing label: %g, want NaN", xp.At(2, 2))
	}
	if _, err := FromColumns("bad", []Column{{Name: "a", Values: id}, {Name: "b", Values: x[:3]}}); err == nil {
		t.Error("columns of different lengths accepted")
	}
	w := IDWarnings([]string{"id", "x"}, []*mat.Dense{xp.Slice(0, n, 0, 2).(*mat.Dense)}, []int{n})
	if len(w) != 1 {
		t.Errorf("identifier warnings %q, want one for id", w)
	}
	// DE first in q: Unify gives it p's code 1.
	if _, err := Unify(tp, tq, mat.NewDense(n, 3, slices.Clone(tq.Groups[0].Data))); err != nil {
		t.Fatal(err)
	}
	sc := Standardize([]int{2}, mat.DenseCopyOf(xp), mat.DenseCopyOf(xq))
	if sc.Cols[2].Rule != SpreadCategory {
		t.Errorf("the category column scaled: %+v", sc.Cols[2])
	}
}
