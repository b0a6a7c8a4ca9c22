// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"math"
	"slices"
	"strings"
)

// Mixed tables
//
// With Query.Mixed, a reader keeps every selected column, numeric or not,
// and keeps rows with empty cells. For CSV:
//
//   - without Query.Columns, every named column but the group column is
//     kept, in header order (none is listed in Table.Skipped);
//   - a column is numeric or text as its first non-empty cell is a number or
//     not (a column named in Query.Text is text whatever its cells); a
//     numeric column whose later cell is text is an error naming the cell;
//   - an empty cell (or only white space) is a missing value: NaN in
//     Group.Data, counted in Group.Missing;
//   - a text cell is held in Group.Data as the index of its label, trimmed,
//     in Table.Categories of its column, labels numbered in the order they
//     are met. Memory grows with the number of distinct labels, up to
//     Query.MaxLabels a column when it is set.

// mixed is the state of a read with Query.Mixed: the kind of each kept
// column and the labels of the text ones.
type mixed struct {
	kinds  []cellKind
	codes  []map[string]int
	labels [][]string
	max    int // Query.MaxLabels: the most labels a column may hold; 0 for no bound
}

// cellKind is the kind of a column of a mixed table.
type cellKind uint8

const (
	kindUnknown cellKind = iota // every cell empty so far: read as numeric
	kindNumber
	kindText
)

// startMixed sets up the reading of a mixed table once the kept columns are
// known (Query.Mixed): the columns named in Query.Text are text.
func (rd *reader) startMixed() error {
	m := newMixed(len(rd.cols), rd.q.MaxLabels)
	for _, name := range rd.q.Text {
		j, err := rd.keptColumn(name, "text column")
		if err != nil {
			return err
		}
		m.kinds[j] = kindText
	}
	rd.mixed = m
	return nil
}

// cell parses the cell s of kept column j: NaN when it is empty, the number
// of a numeric column, the code of the label of a text column. The first
// non-empty cell of a column decides its kind.
func (m *mixed) cell(j int, s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return math.NaN(), nil
	}
	switch m.kinds[j] {
	case kindText:
		return m.code(j, t)
	case kindNumber:
		if v, ok := parseDecimal(t); ok { // t is trimmed
			return v, nil
		}
		return parseNumber(t)
	}
	v, err := parseNumber(t)
	switch err {
	case nil:
		m.kinds[j] = kindNumber
		return v, nil
	case ErrNotNumber:
		m.kinds[j] = kindText
		return m.code(j, t)
	}
	return 0, err
}

// newMixed returns the state of n columns, each holding at most max labels
// (no bound when max is zero).
func newMixed(n, max int) *mixed {
	return &mixed{kinds: make([]cellKind, n), codes: make([]map[string]int, n), labels: make([][]string, n), max: max}
}

// code returns the code of the label t of text column j, numbering it if
// it is new; ErrTooManyLabels when it is new and the column holds m.max
// labels already, so that a column of distinct strings fails at its
// (max+1)th, not after the whole read.
func (m *mixed) code(j int, t string) (float64, error) {
	if c, ok := m.codes[j][t]; ok {
		return float64(c), nil
	}
	if m.max > 0 && len(m.labels[j]) >= m.max {
		return 0, ErrTooManyLabels
	}
	if m.codes[j] == nil {
		m.codes[j] = make(map[string]int)
	}
	t = strings.Clone(t)
	c := len(m.labels[j])
	m.codes[j][t] = c
	m.labels[j] = append(m.labels[j], t)
	return float64(c), nil
}

// count counts the missing values of a row of group g.
func (m *mixed) count(g *Group, row []float64) {
	if g.Missing == nil {
		g.Missing = make([]int, len(row))
	}
	for j, v := range row {
		if math.IsNaN(v) {
			g.Missing[j]++
		}
	}
}

// estimate sets the missing counts of g, whose kept rows are a uniform
// sample of its g.Rows rows (a sampled read), from the missing values of the
// kept rows of c columns: Rows·(missing kept)/(rows kept), rounded, which
// is at least the missing values kept and leaves at least the present
// values kept.
func (m *mixed) estimate(g *Group, c int) {
	g.Missing = make([]int, c)
	n := g.Len()
	if n == 0 {
		return
	}
	for i := 0; i < n; i++ {
		for j, v := range g.Data[i*c : (i+1)*c] {
			if math.IsNaN(v) {
				g.Missing[j]++
			}
		}
	}
	for j, k := range g.Missing {
		g.Missing[j] = int(math.Round(float64(g.Rows) * float64(k) / float64(n)))
	}
}

// done records the labels of the text columns in t.
func (m *mixed) done(t *Table) {
	t.Categories = make([][]string, len(m.kinds))
	for j, k := range m.kinds {
		if k == kindText {
			t.Categories[j] = m.labels[j]
			if t.Categories[j] == nil {
				t.Categories[j] = []string{}
			}
		}
	}
}

// keptColumn returns the position among the kept columns of the column
// named name, which a query names as a what; the last of equal names, as
// the reader keeps them. A name that is not kept is an error: unknown to
// the header, or not among the columns read.
func (rd *reader) keptColumn(name, what string) (int, error) {
	j := -1
	for k, c := range rd.cols {
		if c.name == name {
			j = k
		}
	}
	if j < 0 {
		if _, err := rd.lookup(name, what); err != nil {
			return 0, err
		}
		return 0, &ParseError{File: rd.name, Column: name, Err: ErrUnknownColumn, msg: "named as a " + what + " but not among the columns read"}
	}
	return j, nil
}

// startLabels sets up the columns of Query.Labels in a table that is not
// mixed, once the kept columns are known: they start undecided, every
// other column numeric. The state is indexed by header field, so that the
// default selection may add columns later.
func (rd *reader) startLabels() error {
	m := newMixed(len(rd.header), rd.q.MaxLabels)
	for i := range m.kinds {
		m.kinds[i] = kindNumber
	}
	for _, name := range rd.q.Labels {
		j, err := rd.keptColumn(name, "label column")
		if err != nil {
			return err
		}
		m.kinds[rd.cols[j].index] = kindUnknown
	}
	rd.labels = m
	return nil
}

// isLabels reports whether the header field i is named in Query.Labels.
func (rd *reader) isLabels(i int) bool {
	return slices.Contains(rd.q.Labels, rd.header[i])
}

// parseCell parses the cell s of header field i of a table that is not
// mixed: a number, or the code of a label in a column of Query.Labels that
// holds text; an empty cell is ErrEmptyCell in either.
func (rd *reader) parseCell(i int, s string) (float64, error) {
	if rd.q.NA && isMissingWord(s) {
		return 0, ErrEmptyCell
	}
	if fn := rd.q.Cells[rd.header[i]]; fn != nil {
		if strings.TrimSpace(s) == "" {
			return 0, ErrEmptyCell
		}
		v, err := fn(s)
		if err != nil {
			return 0, &refusedCell{err}
		}
		return v, nil
	}
	if rd.labels == nil || rd.labels.kinds[i] == kindNumber {
		return parseNumber(s)
	}
	if strings.TrimSpace(s) == "" {
		return 0, ErrEmptyCell
	}
	return rd.labels.cell(i, s)
}

// complete finishes t once its groups are read: the mixed-type columns'
// summary (mixed.done) and the labels of Query.Labels' columns
// (labelsDone). Every reader ends with it.
func (rd *reader) complete(t *Table) {
	if rd.mixed != nil {
		rd.mixed.done(t)
	}
	rd.labelsDone(t)
}

// labelsDone records in t the labels of the columns of Query.Labels that
// hold text, when there are any.
func (rd *reader) labelsDone(t *Table) {
	if rd.labels == nil {
		return
	}
	for j, c := range rd.cols {
		if rd.labels.kinds[c.index] != kindText {
			continue
		}
		if t.Categories == nil {
			t.Categories = make([][]string, len(rd.cols))
		}
		t.Categories[j] = rd.labels.labels[c.index]
		if t.Categories[j] == nil {
			t.Categories[j] = []string{}
		}
	}
}
