// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package tabular

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sublinear/pearson/dataset"
)

// Selection says which columns of a table are used: the named Columns
// (every usable column when empty: the default selection) less those of
// Exclude. The zero value is the default selection.
type Selection struct {
	// Columns names the columns to use, in order; empty: every numeric
	// (and, where the caller takes them, text) column.
	Columns []string
	// Exclude names columns to leave out: of Columns when it is given,
	// otherwise of the default selection.
	Exclude []string
	// List is the flag that named Columns, for messages ("columns" when
	// empty; "features" for rank).
	List string
	// Group is the column that splits the rows into samples (--group), or
	// empty; it is never a feature, so excluding it is an error that says
	// so.
	Group string
}

// list is the flag of Columns.
func (s Selection) list() string {
	if s.List == "" {
		return "columns"
	}
	return s.List
}

// groupExcluded returns the error of excluding the group column.
func (s Selection) groupExcluded(file string) error {
	return &SelectionError{File: file, Kind: ErrGroupExcluded, Msg: fmt.Sprintf("--exclude %s: it is the --group column, which splits the rows into the two samples and is never compared: leave it out of --exclude", Quote(s.Group))}
}

// CheckGroup returns ErrGroupExcluded's error (a usage error: no file
// named) when Exclude names the Group column, and nil otherwise: Named and
// Kept check it too.
func (s Selection) CheckGroup() error {
	if s.Group != "" && slices.Contains(s.Exclude, s.Group) {
		return s.groupExcluded("")
	}
	return nil
}

// Named returns the named columns less those excluded, checked before any
// read: every excluded column must be among them, and at least one must
// remain. It returns nil when no column is named (the default selection,
// which Kept narrows once the table is read).
func (s Selection) Named() ([]string, error) {
	if len(s.Columns) == 0 || len(s.Exclude) == 0 {
		return s.Columns, nil
	}
	for _, e := range s.Exclude {
		switch {
		case s.Group != "" && e == s.Group:
			return nil, s.groupExcluded("")
		case !slices.Contains(s.Columns, e):
			return nil, &SelectionError{Kind: ErrNotListed, Msg: fmt.Sprintf("--exclude %s: not among the columns of --%s", Quote(e), s.list())}
		}
	}
	keep := slices.DeleteFunc(slices.Clone(s.Columns), func(c string) bool { return slices.Contains(s.Exclude, c) })
	if len(keep) == 0 {
		return nil, &SelectionError{Kind: ErrNoColumn, Msg: fmt.Sprintf("--exclude leaves no column: it names every column of --%s", s.list())}
	}
	return keep, nil
}

// Kept returns the columns names (those the default selection read from
// file) less those excluded. Every excluded column must be among names or
// among the columns the default selection left out (skipped), and at
// least one column must remain.
func (s Selection) Kept(file string, names []string, skipped []dataset.Skipped) ([]string, error) {
	others := make([]string, len(skipped))
	for i, k := range skipped {
		others[i] = k.Column
	}
	for _, e := range s.Exclude {
		switch {
		case s.Group != "" && e == s.Group:
			return nil, s.groupExcluded(file)
		case slices.Contains(names, e) || slices.Contains(others, e):
		default:
			return nil, &SelectionError{File: file, Kind: ErrNotListed, Msg: fmt.Sprintf("--exclude %s: no such column (its columns: %s)", Quote(e), strings.Join(QuoteAll(append(slices.Clone(names), others...)), ", "))}
		}
	}
	keep := slices.DeleteFunc(slices.Clone(names), func(c string) bool { return slices.Contains(s.Exclude, c) })
	if len(keep) == 0 {
		return nil, &SelectionError{File: file, Kind: ErrNoColumn, Msg: "--exclude leaves no column"}
	}
	return keep, nil
}

// Quote quotes a column name or value for a message, cut to about 40
// bytes (at a character boundary) with the full length said.
func Quote(s string) string {
	const most = 40
	if len(s) <= most {
		return strconv.Quote(s)
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("... (%d bytes)", len(s))
}

// QuoteAll quotes each of s in full.
func QuoteAll(s []string) []string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return q
}

// NamesOf returns the names of the columns at indices idx of names.
func NamesOf(names []string, idx []int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = names[j]
	}
	return out
}
