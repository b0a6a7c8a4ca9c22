// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sublinear/pearson/internal/indices"
)

// Reference is a reference table fitted once: at most Settings.SampleRows of
// its rows, with each column's type, categories and counts. Compare a current
// table with it by Reference.Compare; store it with Save and read it back
// with Load.
type Reference struct {
	cols []*table
	// rows is the number of sampled rows every column holds.
	rows int
}

// table is one column of a table in the form the comparisons use: numeric
// values, or categorical codes into a dictionary.
type table struct {
	name    string
	kind    Kind
	rows    int // rows of the data set
	missing int // missing values among rows
	values  []float64
	codes   []int32 // index into cats, or -1 for missing
	cats    []string
	// whole counts every row given (see Tally); nil for a reference loaded
	// from a file saved without it.
	whole *Tally
}

// reduceSeed seeds the generator that cuts a table down to SampleRows rows:
// a fixed seed makes a reference a function of its data alone, and the cut
// does not look at the values, so it is a uniform sample of the rows.
var reduceSeed = [2]uint64{0x6472696674, 0x726564756365}

// NewReference checks the columns of a reference table and keeps what later
// comparisons need: a uniform random sample of at most s.SampleRows of its
// rows (the same rows for every column), the columns' types, categories and
// counts of rows and missing values. s may be nil. A table without rows,
// or whose every value is missing, is an error wrapping ErrTooFew, as is a
// current table without rows in Compare.
func NewReference(cols []Column, s *Settings) (*Reference, error) {
	p, err := s.resolve()
	if err != nil {
		return nil, err
	}
	t, err := newTables(cols, p.sampleRows, nil)
	if err != nil {
		return nil, err
	}
	r := &Reference{cols: t}
	if len(t) > 0 {
		r.rows = t[0].len()
	}
	return r, nil
}

// Tally returns an empty tally for the current table's column name, with
// the cut points of the reference's (see Column.Whole); nil when the
// reference has no such column or no tally of it (a reference saved by an
// earlier version).
func (r *Reference) Tally(name string) *Tally {
	if r == nil {
		return nil
	}
	for _, c := range r.cols {
		if c.name == name && c.whole != nil {
			return c.whole.Like()
		}
	}
	return nil
}

// Columns returns the names of the reference's columns, in order (none for
// a nil reference).
func (r *Reference) Columns() []string {
	if r == nil {
		return nil
	}
	names := make([]string, len(r.cols))
	for i, c := range r.cols {
		names[i] = c.name
	}
	return names
}

// newTables checks cols and converts them, keeping at most max rows.
// Categorical columns take their dictionary from ref's column of the same
// name when ref is not nil, extended by new categories.
func newTables(cols []Column, max int, ref map[string]*table) ([]*table, error) {
	if len(cols) == 0 {
		return nil, ErrNoColumns
	}
	n := cols[0].len()
	seen := make(map[string]bool, len(cols))
	for i := range cols {
		c := &cols[i]
		if seen[c.Name] {
			return nil, fmt.Errorf("%w: column %q appears twice", ErrColumn, c.Name)
		}
		seen[c.Name] = true
		if c.len() != n {
			return nil, fmt.Errorf("%w: column %q holds %d rows, column %q %d: the columns of a table hold the same rows",
				ErrColumn, c.Name, c.len(), cols[0].Name, n)
		}
	}
	keep := indices.Range(n)
	if n > max {
		keep = indices.Sample(n, max, false, rand.New(rand.NewPCG(reduceSeed[0], reduceSeed[1])))
		slices.Sort(keep)
	}
	out := make([]*table, len(cols))
	for i := range cols {
		c := &cols[i]
		rows, missing, err := c.counts()
		if err != nil {
			return nil, err
		}
		t := &table{name: c.Name, kind: c.Kind(), rows: rows, missing: missing}
		var like *Tally
		if r := ref[c.Name]; r != nil && r.whole != nil && r.whole.categorical == (c.Categories != nil) {
			like = r.whole
		}
		if ref == nil || like != nil {
			var kept []int
			if n > max {
				kept = keep
			}
			if t.whole, err = tallyOf(c, kept, like); err != nil {
				return nil, err
			}
		}
		if t.kind == Numeric {
			t.values = make([]float64, len(keep))
			for j, k := range keep {
				t.values[j] = c.Values[k]
			}
		} else {
			dict := map[string]int32{}
			if r := ref[c.Name]; r != nil {
				t.cats = slices.Clone(r.cats)
			}
			for j, v := range t.cats {
				dict[v] = int32(j)
			}
			t.codes = make([]int32, len(keep))
			for j, k := range keep {
				v := c.Categories[k]
				if v == "" {
					t.codes[j] = -1
					continue
				}
				code, ok := dict[v]
				if !ok {
					code = int32(len(t.cats))
					dict[v] = code
					t.cats = append(t.cats, v)
				}
				t.codes[j] = code
			}
		}
		out[i] = t
	}
	if n == 0 {
		return nil, fmt.Errorf("%w: the table holds no rows", ErrTooFew)
	}
	if ref == nil && allMissing(cols) {
		return nil, fmt.Errorf("%w: no column of the reference holds a value: every sampled row is missing", ErrTooFew)
	}
	return out, nil
}

// allMissing reports whether every value of every column is missing.
func allMissing(cols []Column) bool {
	for i := range cols {
		if cols[i].missingInSample() < cols[i].len() {
			return false
		}
	}
	return true
}

func (t *table) len() int {
	if t.kind == Categorical {
		return len(t.codes)
	}
	return len(t.values)
}

// present returns the values of a numeric column that are not missing.
func (t *table) present() []float64 {
	v := make([]float64, 0, len(t.values))
	for _, x := range t.values {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	return v
}

// present returns the number of sampled values that are not missing.
func (t *table) presentCount() int {
	n := 0
	for _, c := range t.codes {
		if c >= 0 {
			n++
		}
	}
	for _, x := range t.values {
		if !math.IsNaN(x) {
			n++
		}
	}
	return n
}

// presentRows estimates the rows of the data set whose value is present.
func (t *table) presentRows() int { return t.rows - t.missing }

// missingShare is the share of missing values in the data set.
func (t *table) missingShare() float64 {
	if t.rows == 0 {
		return 0
	}
	return float64(t.missing) / float64(t.rows)
}

// frequencies counts the present codes of a categorical column over ncat
// categories.
func (t *table) frequencies(ncat int) []int {
	f := make([]int, ncat)
	for _, c := range t.codes {
		if c >= 0 {
			f[c]++
		}
	}
	return f
}
