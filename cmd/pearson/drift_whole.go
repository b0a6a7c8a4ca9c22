// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"math"
	"slices"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/drift"
)

// tallies are the tallies of every row (drift.Tally) of the groups of a
// table being read: by group key ("" without grouping), then by column.
type tallies map[string]map[string]*drift.Tally

// needsWhole reports whether the sample t does not hold every row of its
// groups: then a second pass counts them (drift.Column.Whole).
func needsWhole(t *dataset.Table) bool {
	return t.Sampled || slices.ContainsFunc(t.Groups, func(g dataset.Group) bool { return g.Rows > g.Len() })
}

// scanWhole makes a second pass over src, the input the sample t was read
// from by q, counting every row of the groups of tl into their tallies.
// It returns a note instead of an error when the input cannot be read
// again (a stream) or the pass types a column otherwise than the sample.
func (d *driftCmd) scanWhole(src dataset.Source, q dataset.Query, t *dataset.Table, tl tallies) (note string, err error) {
	q.Columns = t.Columns
	cat := func(tt *dataset.Table, j int) bool { return tt.Categories != nil && tt.Categories[j] != nil }
	type col struct {
		tally *drift.Tally
		codes []int // categorical: rows per code
	}
	cols := map[string][]*col{}
	for key, byName := range tl {
		cs := make([]*col, len(t.Columns))
		for j, name := range t.Columns {
			if tally := byName[name]; tally != nil {
				cs[j] = &col{tally: tally}
			}
		}
		cols[key] = cs
	}
	st, err := src.Scan(d.j.reader.ctx, q, func(group string, _ int, row []float64) error {
		cs := cols[group]
		for j, c := range cs {
			switch v := row[j]; {
			case c == nil:
			case cat(t, j) && math.IsNaN(v):
				c.tally.AddLabels("", 1)
			case cat(t, j):
				code := int(v)
				if code >= len(c.codes) {
					c.codes = append(c.codes, make([]int, code+1-len(c.codes))...)
				}
				c.codes[code]++
			default:
				c.tally.Add(v)
			}
		}
		return nil
	})
	if errors.Is(err, dataset.ErrReread) {
		return "the input cannot be read a second time: every test is on the sample", nil
	}
	if err != nil {
		return "", err
	}
	if !slices.Equal(st.Columns, t.Columns) {
		return "the second pass read other columns: every test is on the sample", nil
	}
	for j := range t.Columns {
		if cat(st, j) != cat(t, j) {
			return "the second pass typed the columns otherwise: every test is on the sample", nil
		}
	}
	for _, cs := range cols {
		for j, c := range cs {
			if c == nil {
				continue
			}
			for code, n := range c.codes {
				if n > 0 {
					c.tally.AddLabels(st.Categories[j][code], n)
				}
			}
		}
	}
	return "", nil
}

// attachWhole sets the tallies byName as the columns' Whole, with their
// exact counts of rows and missing values.
func attachWhole(cols []drift.Column, byName map[string]*drift.Tally) {
	for i := range cols {
		if t := byName[cols[i].Name]; t != nil {
			cols[i].Whole = t
			cols[i].Rows, cols[i].Missing = t.Rows()
		}
	}
}

// newTallies returns a tally per column of the sample cols (drift.NewTally)
// or, with like, the reference's tally of the column's name (columns the
// reference lacks get none).
func newTallies(cols []drift.Column, like func(name string) *drift.Tally) map[string]*drift.Tally {
	out := make(map[string]*drift.Tally, len(cols))
	for _, c := range cols {
		if like != nil {
			if t := like(c.Name); t != nil {
				out[c.Name] = t
			}
			continue
		}
		out[c.Name] = drift.NewTally(c)
	}
	return out
}
