// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"slices"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/tabular"
)

// sampleFlags are the flags that say which rows form the two samples.
func sampleFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "group", Usage: "with one input file: the `COL`umn whose values split the rows into the samples"},
		&cli.StringFlag{Name: "numerator", Usage: "with --group: the `VALUE` of the numerator sample P (default: the first value in the file)"},
		&cli.StringFlag{Name: "denominator", Usage: "with --group: the `VALUE` of the denominator sample Q (default: the other value)"},
		&cli.StringFlag{Name: "columns", Usage: "comma-separated feature `COLS` (default: every column but the group column" + categoryUsage + defaultTextUsage + ")"},
		excludeFlag("the default selection or of --columns"),
	}
}

const twoSampleInputs = "P.csv Q.csv, or one file with --group COL ([--numerator A --denominator B] when COL has more than two values); \"-\" reads standard input.\n" +
	"Files need a header row; columns are picked by name."

// twoSampleCmd is what the divergence and test commands share: the
// samples P and Q, α and σ.
type twoSampleCmd struct {
	opt          *options
	alpha, sigma float64
	in           *twoSamples
}

func (t *twoSampleCmd) parse(o *options) (plan, error) {
	t.opt, t.alpha, t.sigma = o, o.alpha, o.sigma
	cols := max(len(o.columns), 1)
	return plan{inputs: o.args, cols: [2]int{cols, cols}}, checkTwoSamples(o)
}

func (t *twoSampleCmd) read(r *reader) (p, q mat.Matrix, err error) {
	if t.in, err = readTwoSamples(t.opt, r); err != nil {
		return nil, nil, err
	}
	if t.in.group != "" {
		return withGroupDesign(t.in.p.matrix(), t.in.p), withGroupDesign(t.in.q.matrix(), t.in.q), nil
	}
	return withDesign(t.in.p.matrix(), t.in.p), withDesign(t.in.q.matrix(), t.in.q), nil
}

func (t *twoSampleCmd) settings(s divergence.Settings) divergence.PESettings {
	return divergence.PESettings{Settings: s, Sigma: t.sigma}
}

// record holds the keys of the divergence command, shared by test, whose
// own warnings come in more.
func (t *twoSampleCmd) record(res *divergence.PEResult, seed uint64, more ...string) *record {
	r := new(record).
		add("pe", res.PE).
		add("stderr", res.StdErr)
	if t.in.p.units != nil || t.in.q.units != nil {
		r.add("design_effect", res.DesignEffect) // only for Parquet sampled in units, so that other outputs keep their keys
	}
	r.add("draw_stderr", res.DrawStdErr).
		add("alpha", res.Alpha).
		add("sigma", res.Sigma).
		add("lambda", res.Lambda).
		add("k", res.K).
		add("m", res.M).
		add("draws", len(res.Draws)).
		add("n_p", res.NP).
		add("n_q", res.NQ).
		add("n_p_stderr", t.in.p.rowsStdErr).
		add("n_q_stderr", t.in.q.rowsStdErr).
		add("read_p", t.in.p.readAs()).
		add("read_q", t.in.q.readAs()).
		add("rows_read_p", t.in.p.rowsRead).
		add("rows_read_q", t.in.q.rowsRead).
		add("numerator", t.in.p.name).
		add("denominator", t.in.q.name).
		add("columns", t.in.columns)
	if len(t.in.cats) > 0 { // only then, so that numeric outputs keep their keys
		r.add("categorical", tabular.NamesOf(t.in.columns, t.in.cats))
	}
	if t.in.scale != nil {
		// Only when done, so that single-column outputs keep their keys.
		r.add("scaled", t.in.scale.Describe(t.in.columns)).add("spreads", t.in.scale.Spreads())
	}
	return r.add("exact", res.Exact).
		add("seed", seed).
		add("warnings", append(append(slices.Clone(res.Warnings), more...), t.in.warnings...))
}
