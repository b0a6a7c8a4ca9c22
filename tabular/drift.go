// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package tabular

import (
	"context"
	"errors"
	"math"
	"slices"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/drift"
	"github.com/sublinear/pearson/objstore"
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

// Notes of DriftTable.Note: why a table's tests are on its sample alone.
const (
	noteRemote  = "a remote input is not read a second time (that would fetch every object): every test is on the sample"
	noteReread  = "the input cannot be read a second time: every test is on the sample"
	noteColumns = "the second pass read other columns: every test is on the sample"
	noteTypes   = "the second pass typed the columns otherwise: every test is on the sample"
)

// DriftRead says how ReadDrift reads a table, as the drift command reads
// each of its inputs.
type DriftRead struct {
	// Query selects the columns, and the groups with Query.Group; ReadDrift
	// reads them as a mixed table (Query.Mixed: text columns as labels,
	// missing values kept), text also the columns Query.Text names.
	Query dataset.Query
	// Sampling draws each group's sample. The command's: Size the
	// comparison's drift.Settings.SampleSize(), Seek true, Src
	// rand.NewPCG(seed, 0x72657365727665).
	Sampling dataset.Sampling
	// SampleOnly reads the sample alone, with no second pass: the tests
	// are on the sample (the command's --sample-only).
	SampleOnly bool
	// Like, when not nil, gives the reference's tally of a column
	// (drift.Reference.Tally; nil for a column it lacks): the table is a
	// current one, compared with that reference, and every group's
	// tallies count between the reference's cut points.
	Like func(name string) *drift.Tally
	// Reference, when not nil and Like is, returns the index in t.Groups
	// of the reference's group of the sample t (one file holding both
	// tables, split by Query.Group): its tallies are made from its sample,
	// every other group's count between their cut points. An error from
	// it is ReadDrift's. With both nil, each group's tallies are made from
	// its own sample (drift.NewTally): the table is a reference.
	Reference func(t *dataset.Table) (int, error)
	// Keep, when not nil, returns how many bytes of parsed values ReadDrift
	// may hold for a table of cols columns, so that a read that passes
	// over every row (a file too small for seeking to pay, a compressed
	// file, a stream) counts the tallies from the values it kept instead
	// of a second pass over the input: the same tallies, counted from the
	// same rows in the same order. Past that many bytes the values are
	// dropped, and the second pass counts them. Nil (or a bound of zero)
	// keeps none.
	Keep func(cols int) int64
}

// DriftTable is a table read by ReadDrift: its sample and, when the
// sample does not hold every row, the tallies (drift.Tally) of every row
// of each group, counted from the values kept (DriftRead.Keep) or by a
// second pass.
type DriftTable struct {
	// Table is the sample read.
	Table *dataset.Table
	// Note says why the tests are on the sample alone although it does
	// not hold every row: the input cannot be read a second time (a
	// stream whose values were not kept), is remote (a second pass would
	// fetch every object), or the second pass read or typed the columns
	// otherwise. "" otherwise.
	Note string
	// whole are the tallies of every row, by group key then column: nil
	// when none were counted.
	whole map[string]map[string]*drift.Tally
}

// Columns returns the columns of group g (an index in Table.Groups) as
// drift's (DriftColumns), each with, as its Whole, the tally of every row
// of its group when they were counted, and the rows and
// missing values counted.
func (d *DriftTable) Columns(g int) []drift.Column {
	grp := d.Table.Groups[g]
	cols := DriftColumns(d.Table, grp)
	byName := d.whole[grp.Key]
	for i := range cols {
		if t := byName[cols[i].Name]; t != nil {
			cols[i].Whole = t
			cols[i].Rows, cols[i].Missing = t.Rows()
		}
	}
	return cols
}

// ReadDrift reads the table of src as the drift command does: a sample of
// the rows r.Query selects (r.Sampling) as a mixed table and, unless
// r.SampleOnly or the sample holds every row, every row of each group
// counted into its columns' tallies (drift.Tally), so that each column's
// location, scale, distribution-function and label tests use every row
// while the kernel test stays on the sample (see drift.WholeTest). The
// rows are counted from their values when the read that drew the sample
// passed over every row and kept them (r.Keep), else by a second pass over
// src, which costs one read of the input, with memory independent of its
// rows: the same tallies either way. A remote input (its name an s3:// or
// http(s):// URL) is read once, and so is a stream whose values were not
// kept; DriftTable.Note says so.
func ReadDrift(ctx context.Context, src dataset.Source, r DriftRead) (*DriftTable, error) {
	q := r.Query
	q.Mixed = true
	s := r.Sampling
	remote := objstore.IsURL(src.Name())
	var kept *keptRows
	if r.Keep != nil && !r.SampleOnly && !remote {
		kept = &keptRows{limit: r.Keep}
		s.Rows = kept.add
	}
	t, err := src.Sample(ctx, q, s)
	if err != nil {
		return nil, err
	}
	d := &DriftTable{Table: t}
	if r.SampleOnly || !needsWhole(t) {
		return d, nil
	}
	if remote {
		d.Note = noteRemote
		return d, nil
	}
	whole, err := r.tallies(t)
	if err != nil {
		return nil, err
	}
	if kept.all(t) {
		if err := kept.count(ctx, newWholeCounter(t, whole)); err != nil {
			return nil, err
		}
		d.whole = whole
		return d, nil
	}
	kept = nil // for the collector, during the second pass
	if d.Note, err = countWhole(ctx, src, q, t, whole); err != nil || d.Note != "" {
		return d, err
	}
	d.whole = whole
	return d, nil
}

// keptRows keeps the values of every row a read passes over
// (dataset.Sampling.Rows), by group, in file order, up to a bound of
// bytes (DriftRead.Keep), past which it drops them all.
type keptRows struct {
	limit  func(cols int) int64
	bytes  int64 // the bound, known at the first row
	used   int64 // bytes of the chunks allocated
	over   bool  // the bound was passed: nothing is kept
	cols   int
	groups map[string]*keptGroup
}

// keptGroup is the rows kept of a group: full chunks of whole rows, then
// the one being filled.
type keptGroup struct {
	chunks [][]float64
	rows   int
}

// keptChunk is about how many values a chunk holds: 256 KiB, so that the
// rows are kept without the copies of a growing slice.
const keptChunk = 1 << 15

// add keeps the values of row, of group (dataset.RowFunc).
func (k *keptRows) add(group string, _ int, row []float64) error {
	if k.over {
		return nil
	}
	if k.groups == nil {
		k.cols, k.bytes = len(row), k.limit(len(row))
		k.groups = make(map[string]*keptGroup)
	}
	g := k.groups[group]
	if g == nil {
		g = &keptGroup{}
		k.groups[group] = g
	}
	n := len(g.chunks)
	if n == 0 || len(g.chunks[n-1])+k.cols > cap(g.chunks[n-1]) {
		size := max(k.cols, keptChunk/max(k.cols, 1)*k.cols)
		if k.used+8*int64(size) > k.bytes {
			k.over, k.groups = true, nil
			return nil
		}
		k.used += 8 * int64(size)
		g.chunks = append(g.chunks, make([]float64, 0, size))
		n++
	}
	g.chunks[n-1] = append(g.chunks[n-1], row...)
	g.rows++
	return nil
}

// all reports whether k holds every row of every group of t: the read
// that drew the sample t passed over every row, and they fitted.
func (k *keptRows) all(t *dataset.Table) bool {
	if k == nil || k.over || t.Sampled || len(t.Columns) != k.cols {
		return false
	}
	for _, g := range t.Groups {
		if kg := k.groups[g.Key]; kg == nil || kg.rows != g.Rows {
			return false
		}
	}
	return true
}

// count passes the rows kept to w, each group's in file order, then
// finishes w with the labels of the sample's table, the one the rows were
// read with.
func (k *keptRows) count(ctx context.Context, w *wholeCounter) error {
	for key, g := range k.groups {
		for i, chunk := range g.chunks {
			if i%8 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			w.rows(key, chunk, k.cols)
			g.chunks[i] = nil // for the collector
		}
	}
	w.finish(w.t.Categories)
	return nil
}

// needsWhole reports whether the sample t does not hold every row of its
// groups.
func needsWhole(t *dataset.Table) bool {
	return t.Sampled || slices.ContainsFunc(t.Groups, func(g dataset.Group) bool { return g.Rows > g.Len() })
}

// tallies returns empty tallies of every column of each group of the
// sample t, by group key then column name, as r says (DriftRead.Like and
// Reference).
func (r *DriftRead) tallies(t *dataset.Table) (map[string]map[string]*drift.Tally, error) {
	out := make(map[string]map[string]*drift.Tally, len(t.Groups))
	like := r.Like
	if like == nil && r.Reference != nil {
		i, err := r.Reference(t)
		if err != nil {
			return nil, err
		}
		refs := newTallies(DriftColumns(t, t.Groups[i]), nil)
		out[t.Groups[i].Key] = refs
		like = func(name string) *drift.Tally { return refs[name] }
	}
	for _, g := range t.Groups {
		if out[g.Key] == nil {
			out[g.Key] = newTallies(DriftColumns(t, g), like)
		}
	}
	return out, nil
}

// newTallies returns an empty tally per column of cols: made from the
// sample (drift.NewTally) or, with like, like like's tally of the column's
// name (none for a column like lacks).
func newTallies(cols []drift.Column, like func(name string) *drift.Tally) map[string]*drift.Tally {
	out := make(map[string]*drift.Tally, len(cols))
	for _, c := range cols {
		switch {
		case like == nil:
			out[c.Name] = drift.NewTally(c)
		case like(c.Name) != nil:
			out[c.Name] = like(c.Name).Like()
		}
	}
	return out
}

// wholeCounter counts rows of the sample t's columns into the tallies of
// their group (by group key then column), as countWhole's second pass
// does: numbers one by one, labels by code, counted then added in code
// order by finish.
type wholeCounter struct {
	t    *dataset.Table
	cols map[string][]*wholeColumn
}

// wholeColumn is a column counted by a wholeCounter.
type wholeColumn struct {
	tally *drift.Tally
	cat   bool
	codes []int // categorical: rows per code
}

// newWholeCounter returns the counter of the rows of t's columns into the
// tallies of whole.
func newWholeCounter(t *dataset.Table, whole map[string]map[string]*drift.Tally) *wholeCounter {
	cols := make(map[string][]*wholeColumn, len(whole))
	for key, byName := range whole {
		cs := make([]*wholeColumn, len(t.Columns))
		for j, name := range t.Columns {
			if tally := byName[name]; tally != nil {
				cs[j] = &wholeColumn{tally: tally, cat: categorical(t, j)}
			}
		}
		cols[key] = cs
	}
	return &wholeCounter{t: t, cols: cols}
}

// row counts row, of group.
func (w *wholeCounter) row(group string, row []float64) {
	for j, c := range w.cols[group] {
		if c != nil {
			c.add(row[j])
		}
	}
}

// rows counts the rows of c values each of vals, of group, column by
// column: each tally counts its values in the same order as row by row,
// and stays in the cache while it does.
func (w *wholeCounter) rows(group string, vals []float64, c int) {
	for j, col := range w.cols[group] {
		if col == nil {
			continue
		}
		for at := j; at < len(vals); at += c {
			col.add(vals[at])
		}
	}
}

// add counts a value of the column: a number, or a label's code, NaN for
// a missing one.
func (c *wholeColumn) add(v float64) {
	switch {
	case !c.cat:
		c.tally.Add(v)
	case math.IsNaN(v):
		c.tally.AddLabels("", 1)
	default:
		code := int(v)
		if code >= len(c.codes) {
			c.codes = append(c.codes, make([]int, code+1-len(c.codes))...)
		}
		c.codes[code]++
	}
}

// finish adds the labels counted by code, whose labels are categories
// (by column, as dataset.Table.Categories), to their tallies.
func (w *wholeCounter) finish(categories [][]string) {
	for _, cs := range w.cols {
		for j, c := range cs {
			if c == nil {
				continue
			}
			for code, n := range c.codes {
				if n > 0 {
					c.tally.AddLabels(categories[j][code], n)
				}
			}
		}
	}
}

// countWhole makes a second pass over src, the input the sample t was read
// from by q, counting every row of the groups of whole into their tallies.
// It returns a note instead of an error when the input cannot be read
// again (a stream) or the pass reads or types the columns otherwise than
// the sample.
func countWhole(ctx context.Context, src dataset.Source, q dataset.Query, t *dataset.Table, whole map[string]map[string]*drift.Tally) (note string, err error) {
	q.Columns = t.Columns
	w := newWholeCounter(t, whole)
	st, err := src.Scan(ctx, q, func(group string, _ int, row []float64) error {
		w.row(group, row)
		return nil
	})
	switch {
	case errors.Is(err, dataset.ErrReread):
		return noteReread, nil
	case err != nil:
		return "", err
	case !slices.Equal(st.Columns, t.Columns):
		return noteColumns, nil
	}
	for j := range t.Columns {
		if categorical(st, j) != categorical(t, j) {
			return noteTypes, nil
		}
	}
	w.finish(st.Categories)
	return "", nil
}

// categorical reports whether column j of t holds labels.
func categorical(t *dataset.Table, j int) bool {
	return t.Categories != nil && t.Categories[j] != nil
}
