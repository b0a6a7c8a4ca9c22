// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/tabular"
)

// twoSamples are the numerator and denominator samples of the divergence
// and test commands.
type twoSamples struct {
	p, q    sample
	columns []string
	paths   []string         // the files read, for --ratio-out
	group   string           // the group column, in one-file mode
	scale   *tabular.Scaling // --standardize's transform, or nil
	// warnings are about the columns, for the output: those that look
	// like row identifiers.
	warnings []string
	// cats are the columns read as categories (text or booleans).
	cats []int
}

// readTwoSamples reads the samples named on the command line, which
// checkTwoSamples accepted: two files P.csv Q.csv, or one file with --group
// COL (and --numerator and --denominator when the column has more than two
// values).
func readTwoSamples(o *options, r *reader) (*twoSamples, error) {
	args := o.args
	group := o.group
	num, den := o.numerator, o.denominator
	sel := tabular.Selection{Columns: o.columns, Exclude: o.exclude, Group: group}
	columns, err := selectionUsage()(sel.Named())
	if err != nil {
		return nil, err
	}
	exclude := sel.Exclude
	if len(columns) > 0 {
		exclude = nil
	}
	ts := &twoSamples{paths: args, group: group}
	var skipped []dataset.Skipped // the columns the default selection left out
	// Named columns may hold text: categories (categories.go); so may the
	// default selection's (readDefault).
	var text, warnings []string
	query := func(text []string) dataset.Query {
		if len(columns) > 0 {
			return dataset.Query{Columns: columns, Labels: columns, MaxLabels: divergence.MaxCategories}
		}
		if len(text) > 0 {
			return dataset.Query{Labels: text, MaxLabels: divergence.MaxCategories}
		}
		return dataset.Query{}
	}
	// first reads the first (or only) file, with the query q of its
	// columns.
	first := func(read func(text []string) (*dataset.Table, error)) (*dataset.Table, error) {
		if len(columns) > 0 {
			return read(nil)
		}
		t, txt, w, err := r.readDefault(args[0], exclude, "columns", divergence.MaxCategories, read)
		text, warnings = txt, w
		return t, err
	}
	if len(args) == 2 {
		tp, err := first(func(text []string) (*dataset.Table, error) { return r.read(args[0], query(text)) })
		if err != nil {
			return nil, categoryHint(err, divergence.MaxCategories, "")
		}
		q := query(tabular.NamesOf(tp.Columns, tabular.CategoryColumns(tp, tp.Columns)))
		q.Columns = tp.Columns
		tq, err := r.read(args[1], q)
		if err != nil {
			return nil, categoryHint(err, divergence.MaxCategories, "")
		}
		ts.columns, skipped = tp.Columns, tp.Skipped
		ts.p = groupSample(displayPath(args[0]), tp, tp.Groups[0])
		ts.q = groupSample(displayPath(args[1]), tq, tq.Groups[0])
		if ts.cats, err = tabular.Unify(tp, tq, ts.q.x); err != nil {
			return nil, err
		}
		ids, w := tabular.TextIDs(tp, text, "columns")
		exclude, warnings = append(exclude, ids...), append(warnings, w...)
	} else {
		// Only the rows of two values are kept: the two named, or the first
		// two met (a third is an error then).
		t, err := first(func(text []string) (*dataset.Table, error) {
			q := query(text)
			q.Group, q.MaxGroups = group, 2
			if num != "" && den != "" {
				q.Groups = []string{num, den}
			}
			return r.read(args[0], q)
		})
		if err != nil {
			return nil, categoryHint(err, divergence.MaxCategories, "")
		}
		ts.columns, skipped = t.Columns, t.Skipped
		ts.cats = tabular.CategoryColumns(t, t.Columns)
		ids, w := tabular.TextIDs(t, text, "columns")
		exclude, warnings = append(exclude, ids...), append(warnings, w...)
		pi, qi, err := chooseGroups(t, group, num, den)
		if err != nil {
			return nil, err
		}
		ts.p = groupSample(group+"="+t.Groups[pi].Key, t, t.Groups[pi])
		ts.q = groupSample(group+"="+t.Groups[qi].Key, t, t.Groups[qi])
	}
	if len(exclude) > 0 {
		keep, err := tabular.Selection{Exclude: exclude, Group: group}.Kept(displayPath(args[0]), ts.columns, skipped)
		if err != nil {
			return nil, err
		}
		cats := tabular.NamesOf(ts.columns, ts.cats)
		ts.p.x, ts.q.x = columnsOf(ts.p.x, ts.columns, keep), columnsOf(ts.q.x, ts.columns, keep)
		ts.columns, ts.cats = keep, nil
		for j, name := range keep {
			if slices.Contains(cats, name) {
				ts.cats = append(ts.cats, j)
			}
		}
	}
	if len(ts.cats) > 0 && o.ratioOut != "" {
		return nil, usageErr("--ratio-out reads numeric columns only, and %s holds text (categories): leave --ratio-out out, or the column", strings.Join(quoteAll(tabular.NamesOf(ts.columns, ts.cats)), ", "))
	}
	ts.p.cats, ts.q.cats = ts.cats, ts.cats
	ts.warnings = append(tabular.IDWarnings(ts.columns, []*mat.Dense{ts.p.x, ts.q.x}, []int{ts.p.rows, ts.q.rows}), warnings...)
	if standardizes(o, len(ts.columns)) {
		ts.scale = tabular.Standardize(ts.cats, ts.p.x, ts.q.x)
	}
	return ts, nil
}

// checkTwoSamples returns a usage error unless the command line names the
// two samples: two files P.csv Q.csv, or one file with --group COL (and
// --numerator and --denominator when the column has more than two values).
func checkTwoSamples(o *options) error {
	args := o.args
	group := o.group
	num, den := o.numerator, o.denominator
	switch {
	case len(args) == 0:
		return usageErr("missing input: give two files P.csv Q.csv, or one file and --group COL")
	case len(args) > 2:
		return usageErr("expected one or two input files, got %d", len(args))
	case len(args) == 1 && group == "":
		return usageErr("with one input file, --group COL says which rows belong to which sample")
	case len(args) == 2 && group != "":
		return usageErr("--group goes with a single input file, not two")
	case group == "" && (num != "" || den != ""):
		return usageErr("--numerator and --denominator go with --group")
	case num != "" && num == den:
		return usageErr("--numerator and --denominator are both %q", num)
	case len(args) == 2 && args[0] == "-" && args[1] == "-":
		return usageErr("only one input can be standard input (\"-\")")
	}
	return nil
}

// shownValues is how many values of a group column a message lists.
const shownValues = 10

// chooseGroups returns the indices of the numerator and denominator groups.
// The table holds the rows of at most two values; the others are in
// t.Others.
func chooseGroups(t *dataset.Table, group, num, den string) (pi, qi int, err error) {
	keys := make([]string, 0, len(t.Groups)+len(t.Others))
	for _, g := range t.Groups {
		keys = append(keys, g.Key)
	}
	keys = append(keys, t.Others...)
	var list strings.Builder
	for i, k := range keys[:min(len(keys), shownValues)] {
		if i > 0 {
			list.WriteString(", ")
		}
		list.WriteString(quoteShort(k))
	}
	count := fmt.Sprintf("%d values", len(keys))
	switch {
	case t.MoreOthers:
		count = fmt.Sprintf("more than %d values", len(keys))
		list.WriteString(", ... and more")
	case len(keys) > shownValues:
		fmt.Fprintf(&list, ", ... and %d more", len(keys)-shownValues)
	}
	if len(keys) < 2 {
		return 0, 0, fmt.Errorf("%s: the group column %q has a single value (%s): a comparison needs two groups", t.Name, group, list.String())
	}
	find := func(v, flag string) (int, error) {
		for i, g := range t.Groups {
			if g.Key == v {
				return i, nil
			}
		}
		return 0, fmt.Errorf("%s: --%s %s: the group column %q has no such value (its values: %s)", t.Name, flag, quoteShort(v), group, list.String())
	}
	switch {
	case num != "" && den != "":
		if pi, err = find(num, "numerator"); err != nil {
			return 0, 0, err
		}
		qi, err = find(den, "denominator")
		return pi, qi, err
	case len(keys) > 2:
		return 0, 0, usageErr("the group column %q of %s has %s (%s): say which two to compare with --numerator and --denominator", group, t.Name, count, list.String())
	case num != "":
		pi, err = find(num, "numerator")
		return pi, 1 - pi, err
	case den != "":
		qi, err = find(den, "denominator")
		return 1 - qi, qi, err
	}
	return 0, 1, nil // P is the value met first in the file
}
