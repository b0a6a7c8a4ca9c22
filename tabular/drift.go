// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package tabular

import (
	"math"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/drift"
)

// DriftColumns returns group g of the mixed table t (dataset.Query.Mixed:
// text columns as labels, missing values kept) as drift's columns: a text
// column's labels, "" for a missing one; a numeric column's values, NaN
// for a missing one; the group's rows of the data set and missing counts.
func DriftColumns(t *dataset.Table, g dataset.Group) []drift.Column {
	c, n := len(t.Columns), g.Len()
	cols := make([]drift.Column, c)
	for j, name := range t.Columns {
		col := drift.Column{Name: name, Rows: g.Rows}
		if g.Missing != nil {
			col.Missing = g.Missing[j]
		}
		var labels []string
		if t.Categories != nil {
			labels = t.Categories[j]
		}
		if labels != nil {
			col.Categories = make([]string, n)
			for i := range n {
				if v := g.Data[i*c+j]; !math.IsNaN(v) {
					col.Categories[i] = labels[int(v)]
				}
			}
		} else {
			col.Values = make([]float64, n)
			for i := range n {
				col.Values[i] = g.Data[i*c+j]
			}
		}
		cols[j] = col
	}
	return cols
}
