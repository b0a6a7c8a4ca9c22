// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/progress"
)

// miCommand is pearson mi (alias smi): the squared-loss mutual information
// between --x and --y (divergence.LSMI), with an independence test when
// --permutations is given (divergence.IndependenceTest).
func miCommand() *cli.Command {
	return &cli.Command{
		Name:      "mi",
		Aliases:   []string{"smi"},
		Usage:     "estimate the squared-loss mutual information between two sets of columns",
		UsageText: "pearson mi --x COLS --y COLS [options] data.csv",
		Description: "Estimates SMI(X, Y) = ½ E_{p(x)p(y)}[(p(x,y)/(p(x)p(y)) − 1)²] by LSMI in constant time; it is 0\n" +
			"exactly when X and Y are independent (ρ²/(2(1−ρ²)) for a bivariate normal). Kernel widths and λ\n" +
			"are cross-validated. With --permutations B an exact permutation test of independence adds\n" +
			"a p-value. A single Y column of class labels (--y-type) is scored with the delta kernel.\n" +
			"The input has a header row; \"-\" reads standard input.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "x", Usage: "comma-separated `COLS` of X (" + categoryUsage[2:] + ")"},
			&cli.StringFlag{Name: "y", Usage: "comma-separated `COLS` of Y"},
			typeFlag("y-type", "Y"),
		}, estimatorFlags(kindMI, 0)...),
		Action: action(pipeline(func() command { return new(miCmd) })),
	}
}

// miCmd is the mi command.
type miCmd struct {
	pairedCmd
	noOutputs
	xs, ys []string
	in     sample // the input's rows, for how it was read
	res    *divergence.LSMIResult
	test   *divergence.IndependenceResult // with --permutations
	stderr io.Writer                      // for the clock of --exact
	prog   *progress.Bars
}

func (m *miCmd) parse(o *options) (plan, error) {
	if err := m.pairedCmd.parse(o, "y-type", o.yType); err != nil {
		return plan{}, err
	}
	m.joint = true
	m.stderr = o.stderr
	if o.est.Exact {
		var err error
		if m.prog, err = newProgress(o); err != nil {
			return plan{}, err
		}
	}
	m.xs, m.ys = o.x, o.y
	switch {
	case len(m.xs) == 0:
		return plan{}, usageErr("missing --x: the columns of X")
	case len(m.ys) == 0:
		return plan{}, usageErr("missing --y: the columns of Y")
	}
	for _, name := range m.xs {
		if slices.Contains(m.ys, name) {
			return plan{}, usageErr("column %q is in both --x and --y", name)
		}
	}
	if o.plot != "" && m.permutations == 0 {
		return plan{}, usageErr("--plot draws the null distribution of the independence test: give --permutations too")
	}
	return plan{inputs: []string{m.path}, steps: m.steps(), permutations: m.permutations, paired: true, cols: [2]int{len(m.xs), len(m.ys)}}, nil
}

func (m *miCmd) read(r *reader) (mat.Matrix, mat.Matrix, error) {
	t, all, err := readColumns(r, m.path, append(slices.Clone(m.xs), m.ys...), m.label(m.ys), m.maxLabels(r), m.xs...)
	if err != nil {
		return nil, nil, categoryHint(m.textHint(err, m.ys, "y-type", r), featureLabels(m.label(m.ys), m.maxLabels(r)), "y-type", m.ys...)
	}
	x, y, err := m.split("y-type", t, &all, m.xs, m.ys)
	m.in = all
	return x, y, err
}

func (m *miCmd) steps() string {
	if m.permutations != 0 {
		return "permutations"
	}
	return ""
}

func (m *miCmd) estimate(ctx context.Context, s divergence.Settings, x, y mat.Matrix) (err error) {
	ls := m.settings(s)
	if ls.Exact {
		stop, err := exactClock(ctx, m.stderr, m.prog, x, y, ls)
		if err != nil {
			return err
		}
		defer stop()
	}
	x, y = withDesign(x, m.in), withDesign(y, m.in)
	if m.permutations == 0 {
		m.res, err = divergence.LSMI(ctx, x, y, &ls)
		return err
	}
	m.test, err = divergence.IndependenceTest(ctx, x, y, &divergence.IndependenceSettings{LSMISettings: ls, Permutations: m.permutations})
	if m.test != nil {
		m.res = m.test.LSMI
	}
	return err
}

func (m *miCmd) result(seed uint64) result {
	out := new(record).
		add("smi", m.res.SMI).
		add("stderr", m.res.StdErr).
		add("lower_bound", m.res.LowerBound). // smi is a lower bound: the warnings say why
		add("model", m.res.Model).
		add("kernel_smi", m.res.KernelSMI)
	if !math.IsNaN(m.res.CopulaSMI) { // NaN where the copula model does not apply, as on class labels
		out.add("copula_smi", m.res.CopulaSMI)
	}
	if m.in.units != nil {
		out.add("design_effect", m.res.DesignEffect) // only for Parquet sampled in units, so that other outputs keep their keys
	}
	out.add("draw_stderr", m.res.DrawStdErr)
	if len(m.catsX) < len(m.xs) { // the delta kernel of a category column has no width
		out.add("sigma_x", m.res.SigmaX)
	}
	if m.res.FactorsX != nil { // only for several x columns, so that other outputs keep their keys
		out.add("factors_x", m.res.FactorsX) // column j's width is factors_x[j]·sigma_x
	}
	out.add("sigma_y", m.res.SigmaY).
		add("lambda", m.res.Lambda).
		add("k", m.res.K).
		add("m", m.res.M).
		add("draws", len(m.res.Draws)).
		add("n", m.res.N)
	addRead(out, m.in).
		add("x", m.xs).
		add("y", m.ys).
		add("y_type", m.yKind()).
		add("exact", m.res.Exact).
		add("seed", seed)
	m.addStandardized(out, m.xs, m.ys).add("warnings", append(slices.Clone(m.res.Warnings), m.warnings...))
	if m.test != nil {
		out.add("statistic", m.test.Statistic).
			add("p_value", m.test.PValue).
			add("p_value_low", m.test.PValueLow).
			add("p_value_high", m.test.PValueHigh).
			add("permutations", m.test.Permutations).
			add("width_smi", m.test.WidthSMI)
	}
	return out
}

func (m *miCmd) plot(path string, _ uint64) error {
	return plotNull(path, fmt.Sprintf("independence test: %s vs %s, p = %.3g", strings.Join(m.xs, ","), strings.Join(m.ys, ","), m.test.PValue), m.test.Null, m.test.Statistic)
}
