// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/progress"
)

// inputFlags are the flags of the commands that read tables.
func inputFlags() []cli.Flag {
	return []cli.Flag{
		delimFlag(),
		&cli.BoolFlag{Name: "drop-missing", Usage: "skip rows with an empty cell in a used column (counted on standard error) instead of failing"},
		&cli.BoolFlag{Name: "standardize", Usage: "scale each column to zero mean and unit variance first (for two samples, by the pooled mean and variance)"},
		&cli.IntFlag{Name: "reservoir", Usage: "rows kept per sample while reading a file (0: 4·(draws+2)·(k+m); --exact keeps every row)"},
	}
}

// sample is the rows of one sample, as the estimators take them.
type sample struct {
	name string     // for output: a file name, or column=value for a group
	x    *mat.Dense // the kept rows
	rows int        // the rows of the file(s) it stands for
}

// matrix returns the sample for the estimators: a Subsample when the
// reservoir kept only some of the rows.
func (s sample) matrix() mat.Matrix {
	if r, _ := s.x.Dims(); r < s.rows {
		return divergence.Subsample{Matrix: s.x, Rows: s.rows}
	}
	return s.x
}

// reader holds what every table read needs.
type reader struct {
	ctx       context.Context // stops a long read
	stdin     io.Reader       // what the file name "-" reads
	delim     rune
	reservoir int // rows kept per group; 0 keeps every row
	drop      bool
	seed      uint64
	prog      *progress.Bars
	stderr    io.Writer
}

// newReader reads the input flags. keepAll asks for every row (--exact, or
// a budget that needs them).
func newReader(c *cli.Context, prog *progress.Bars, s *divergence.Settings) (*reader, error) {
	delim, err := delimiter(c)
	if err != nil {
		return nil, err
	}
	r := &reader{ctx: c.Context, stdin: c.App.Reader, delim: delim, drop: c.Bool("drop-missing"), seed: c.Uint64("seed"), prog: prog, stderr: c.App.ErrWriter}
	switch res := c.Int("reservoir"); {
	case res < 0:
		return nil, usagef(c, "--reservoir %d: the rows kept per sample cannot be negative", res)
	case s.Exact:
		r.reservoir = 0
	case res > 0:
		r.reservoir = res
	default:
		r.reservoir = defaultReservoir(s)
	}
	return r, nil
}

// defaultReservoir is 4·(draws + 2)·(k + m) rows: every draw, and the
// cross-validation and test designs, find fresh rows among them. Zero
// (every row) when that does not fit an int.
func defaultReservoir(s *divergence.Settings) int {
	k, m, d := orDefault(s.K, divergence.DefaultK), orDefault(s.M, divergence.DefaultM), orDefault(s.Draws, divergence.DefaultDraws)
	r := 4 * float64(d+2) * float64(k+m)
	if r > math.MaxInt32 {
		return 0
	}
	return int(r)
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// open opens the table at path ("-" is standard input), drawing a bar of
// the bytes read; the function returned closes it and ends the bar.
func (r *reader) open(path string) (dataset.Source, func(), error) {
	progress, done := r.prog.Bytes("reading " + displayPath(path))
	src, err := dataset.Open(path, dataset.Options{Delimiter: r.delim, Stdin: r.stdin, Progress: progress})
	if err != nil {
		done()
		return nil, nil, err
	}
	return src, func() { src.Close(); done() }, nil
}

// read reads a sample of --reservoir rows of each group of the rows q
// selects in the table at path.
func (r *reader) read(path string, q dataset.Query) (*dataset.Table, error) {
	src, closeFn, err := r.open(path)
	if err != nil {
		return nil, err
	}
	q.DropMissing = r.drop
	t, err := src.Sample(r.ctx, q, dataset.Sampling{Size: r.reservoir, Src: rand.NewPCG(r.seed, 0x72657365727665)})
	closeFn()
	return r.noted(path, t, err)
}

// scan passes every row q selects in the table at path to fn, in file
// order.
func (r *reader) scan(path string, q dataset.Query, fn dataset.RowFunc) (*dataset.Table, error) {
	src, closeFn, err := r.open(path)
	if err != nil {
		return nil, err
	}
	q.DropMissing = r.drop
	t, err := src.Scan(r.ctx, q, fn)
	closeFn()
	return r.noted(path, t, err)
}

// noted returns the outcome of a read, after saying on standard error which
// rows were dropped and which columns left out.
func (r *reader) noted(path string, t *dataset.Table, err error) (*dataset.Table, error) {
	if err != nil {
		return nil, err
	}
	if t.Dropped > 0 {
		fmt.Fprintf(r.stderr, "pearson: %s: dropped %d rows with empty cells\n", displayPath(path), t.Dropped)
	}
	noteSkipped(r.stderr, displayPath(path), t.Skipped)
	return t, nil
}

// maxSkippedNotes is how many columns left out by the default selection are
// named on standard error, one a line.
const maxSkippedNotes = 10

// noteSkipped says on w which columns the default selection left out, and
// why: the first non-empty cell is not a number, or there is none.
func noteSkipped(w io.Writer, name string, skipped []dataset.Skipped) {
	for i, s := range skipped {
		if i == maxSkippedNotes {
			fmt.Fprintf(w, "pearson: %s: and %d more columns left out\n", name, len(skipped)-i)
			return
		}
		if s.Line == 0 {
			fmt.Fprintf(w, "pearson: %s: column %s left out: it is empty in every row\n", name, quoteShort(s.Column))
		} else {
			fmt.Fprintf(w, "pearson: %s: column %s left out: its first value, on line %d, is %s, not a number\n", name, quoteShort(s.Column), s.Line, quoteShort(s.Value))
		}
	}
}

// quoteShort quotes s, cut to about 40 bytes.
func quoteShort(s string) string {
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

// groupSample turns a group of a table into a sample.
func groupSample(name string, g dataset.Group, cols int) sample {
	return sample{name: name, x: mat.NewDense(g.Len(), cols, g.Data), rows: g.Rows}
}

// splitList splits a comma-separated list of column names.
func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		out = append(out, strings.TrimSpace(f))
	}
	return out
}

// twoSamples are the numerator and denominator samples of the divergence
// and test commands.
type twoSamples struct {
	p, q    sample
	columns []string
	paths   []string // the files read, for --ratio-out
	group   string   // the group column, in one-file mode
	scale   *affine  // --standardize's transform, or nil
}

// readTwoSamples reads the samples named on the command line: two files
// P.csv Q.csv, or one file with --group COL (and --numerator and
// --denominator when the column has more than two values).
func readTwoSamples(c *cli.Context, r *reader) (*twoSamples, error) {
	if err := checkTwoSamples(c); err != nil {
		return nil, err
	}
	args := c.Args().Slice()
	group := c.String("group")
	num, den := c.String("numerator"), c.String("denominator")
	columns := splitList(c.String("columns"))
	ts := &twoSamples{paths: args, group: group}
	if len(args) == 2 {
		tp, err := r.read(args[0], dataset.Query{Columns: columns})
		if err != nil {
			return nil, err
		}
		tq, err := r.read(args[1], dataset.Query{Columns: tp.Columns})
		if err != nil {
			return nil, err
		}
		ts.columns = tp.Columns
		ts.p = groupSample(displayPath(args[0]), tp.Groups[0], len(tp.Columns))
		ts.q = groupSample(displayPath(args[1]), tq.Groups[0], len(tq.Columns))
	} else {
		// Only the rows of two values are kept: the two named, or the first
		// two met (a third is an error then).
		q := dataset.Query{Group: group, Columns: columns, MaxGroups: 2}
		if num != "" && den != "" {
			q.Groups = []string{num, den}
		}
		t, err := r.read(args[0], q)
		if err != nil {
			return nil, err
		}
		ts.columns = t.Columns
		pi, qi, err := chooseGroups(c, t, group, num, den)
		if err != nil {
			return nil, err
		}
		ts.p = groupSample(group+"="+t.Groups[pi].Key, t.Groups[pi], len(t.Columns))
		ts.q = groupSample(group+"="+t.Groups[qi].Key, t.Groups[qi], len(t.Columns))
	}
	if c.Bool("standardize") {
		ts.scale = standardize(ts.p.x, ts.q.x)
	}
	return ts, nil
}

// checkTwoSamples returns a usage error unless the command line names the
// two samples: two files P.csv Q.csv, or one file with --group COL (and
// --numerator and --denominator when the column has more than two values).
func checkTwoSamples(c *cli.Context) error {
	args := c.Args().Slice()
	group := c.String("group")
	num, den := c.String("numerator"), c.String("denominator")
	switch {
	case len(args) == 0:
		return usagef(c, "missing input: give two files P.csv Q.csv, or one file and --group COL")
	case len(args) > 2:
		return usagef(c, "expected one or two input files, got %d", len(args))
	case len(args) == 1 && group == "":
		return usagef(c, "with one input file, --group COL says which rows belong to which sample")
	case len(args) == 2 && group != "":
		return usagef(c, "--group goes with a single input file, not two")
	case group == "" && (num != "" || den != ""):
		return usagef(c, "--numerator and --denominator go with --group")
	case num != "" && num == den:
		return usagef(c, "--numerator and --denominator are both %q", num)
	case len(args) == 2 && args[0] == "-" && args[1] == "-":
		return usagef(c, "only one input can be standard input (\"-\")")
	}
	return nil
}

// shownValues is how many values of a group column a message lists.
const shownValues = 10

// chooseGroups returns the indices of the numerator and denominator groups.
// The table holds the rows of at most two values; the others are in
// t.Others.
func chooseGroups(c *cli.Context, t *dataset.Table, group, num, den string) (pi, qi int, err error) {
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
		return 0, 0, usagef(c, "the group column %q of %s has %s (%s): say which two to compare with --numerator and --denominator", group, t.Name, count, list.String())
	case num != "":
		pi, err = find(num, "numerator")
		return pi, 1 - pi, err
	case den != "":
		qi, err = find(den, "denominator")
		return 1 - qi, qi, err
	}
	return 0, 1, nil // P is the value met first in the file
}

func quoteAll(s []string) []string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = fmt.Sprintf("%q", v)
	}
	return q
}

// affine is the transform x ↦ (x − mean)/sd of each column.
type affine struct{ mean, sd []float64 }

// apply transforms a row in place.
func (a *affine) apply(row []float64) {
	if a == nil {
		return
	}
	for j := range row {
		row[j] = (row[j] - a.mean[j]) / a.sd[j]
	}
}

// standardize scales each column of the matrices, in place, to zero mean
// and unit variance, with the mean and variance of their rows pooled, and
// returns the transform; a constant column is only centred. Two passes, the
// second scaled by the largest deviation, so that values near ±1e300
// neither overflow nor lose the variance.
func standardize(xs ...*mat.Dense) *affine {
	_, cols := xs[0].Dims()
	a := &affine{mean: make([]float64, cols), sd: make([]float64, cols)}
	each := func(j int, f func(v float64)) {
		for _, x := range xs {
			r, _ := x.Dims()
			for i := range r {
				f(x.At(i, j))
			}
		}
	}
	for j := range cols {
		var n, mean, big float64
		each(j, func(v float64) { n++; mean += (v - mean) / n })
		each(j, func(v float64) { big = math.Max(big, math.Abs(v-mean)) })
		sd := 1.0
		if big > 0 {
			ss := 0.0
			each(j, func(v float64) { d := (v - mean) / big; ss += d * d })
			sd = big * math.Sqrt(ss/n)
		}
		a.mean[j], a.sd[j] = mean, sd
	}
	for _, x := range xs {
		r, _ := x.Dims()
		for i := range r {
			a.apply(x.RawRowView(i))
		}
	}
	return a
}

// readColumns reads the named columns of one file (every numeric column
// when names is empty) as one sample.
func readColumns(r *reader, path string, names []string) (*dataset.Table, sample, error) {
	t, err := r.read(path, dataset.Query{Columns: names})
	if err != nil {
		return nil, sample{}, err
	}
	return t, groupSample(displayPath(path), t.Groups[0], len(t.Columns)), nil
}

// columnsOf returns the columns of x whose names are given, as a new matrix.
func columnsOf(x *mat.Dense, all, names []string) *mat.Dense {
	r, _ := x.Dims()
	out := mat.NewDense(r, len(names), nil)
	for j, name := range names {
		out.SetCol(j, mat.Col(nil, slices.Index(all, name), x))
	}
	return out
}
