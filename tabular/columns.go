// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package tabular

import (
	"fmt"
	"math"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
)

// Column is a column held in memory: Values for numbers (NaN a missing
// value), or Labels for text (categories; "" a missing one), not both.
type Column struct {
	Name   string
	Values []float64
	Labels []string
}

// FromColumns returns the table of in-memory columns as a read of a file
// gives it (every row kept, one group, the rows numbered from 1 in
// Lines), so that the rules of this package apply to them as to a file:
// a text column is coded in the order its labels first appear, with its
// labels in Categories, and holds at most divergence.MaxCategories of
// them. A missing value is NaN in Data. name names the table in messages.
func FromColumns(name string, cols []Column) (*dataset.Table, error) {
	if len(cols) == 0 {
		return nil, fmt.Errorf("tabular: %s: no column", name)
	}
	n := max(len(cols[0].Values), len(cols[0].Labels))
	t := &dataset.Table{Name: name, Columns: make([]string, len(cols))}
	data := make([]float64, n*len(cols))
	for j, c := range cols {
		t.Columns[j] = c.Name
		switch {
		case c.Values != nil && c.Labels != nil:
			return nil, fmt.Errorf("tabular: %s: column %s holds both numbers and labels", name, Quote(c.Name))
		case max(len(c.Values), len(c.Labels)) != n:
			return nil, fmt.Errorf("tabular: %s: column %s holds %d rows, column %s %d: the columns of a table hold the same rows", name, Quote(c.Name), max(len(c.Values), len(c.Labels)), Quote(cols[0].Name), n)
		case c.Labels == nil:
			for i, v := range c.Values {
				data[i*len(cols)+j] = v
			}
			continue
		}
		if t.Categories == nil {
			t.Categories = make([][]string, len(cols))
		}
		code := map[string]int{}
		for i, l := range c.Labels {
			if l == "" {
				data[i*len(cols)+j] = math.NaN()
				continue
			}
			k, ok := code[l]
			if !ok {
				k = len(code)
				code[l] = k
				t.Categories[j] = append(t.Categories[j], l)
			}
			data[i*len(cols)+j] = float64(k)
		}
		if len(code) > divergence.MaxCategories {
			return nil, fmt.Errorf("tabular: %s: column %s holds %d distinct labels, more than the %d a category column may hold", name, Quote(c.Name), len(code), divergence.MaxCategories)
		}
	}
	lines := make([]int, n)
	for i := range lines {
		lines[i] = i + 1
	}
	t.Groups = []dataset.Group{{Rows: n, Data: data, Lines: lines}}
	return t, nil
}
