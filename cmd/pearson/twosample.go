// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
)

// sampleFlags are the flags that say which rows form the two samples.
func sampleFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "group", Usage: "with one input file: the `COL`umn whose values split the rows into the samples"},
		&cli.StringFlag{Name: "numerator", Usage: "with --group: the `VALUE` of the numerator sample P (default: the first value in the file)"},
		&cli.StringFlag{Name: "denominator", Usage: "with --group: the `VALUE` of the denominator sample Q (default: the other value)"},
		&cli.StringFlag{Name: "columns", Usage: "comma-separated feature `COLS` (default: every numeric column but the group column; a column is numeric when its first non-empty cell is a number, and the columns left out are named on standard error" + categoryUsage + ")"},
		excludeFlag("the default selection or of --columns"),
	}
}

const twoSampleInputs = "P.csv Q.csv, or one file with --group COL ([--numerator A --denominator B] when COL has more than two values); \"-\" reads standard input.\n" +
	"Files need a header row; columns are picked by name."

func divergenceCommand() *cli.Command {
	return &cli.Command{
		Name:      "divergence",
		Aliases:   []string{"pe"},
		Usage:     "estimate the α-relative Pearson divergence PE_α(P‖Q) between two samples",
		UsageText: "pearson divergence [options] P.csv Q.csv\n   pearson divergence [options] --group COL data.csv",
		Description: "Estimates PE_α(P‖Q) = ½ E_{q_α}[(p/q_α − 1)²], q_α = αp + (1−α)q, in constant time: each draw\n" +
			"takes k centres and m averaging points at random and solves the k-centre RuLSIF problem\n" +
			"(Hayashi & Yoshida's Algorithm 1); σ and λ are chosen by cross-validation. The inputs are\n" +
			twoSampleInputs + "\n--ratio-out writes the fitted ratio r̂_α at every row of the inputs (importance weights).",
		Flags: append(append(sampleFlags(), estimatorFlags(kindPE, -1)...),
			&cli.StringFlag{Name: "ratio-out", Usage: "write r̂_α at every row of the input files to `FILE` (CSV)"}),
		Action: action(func() command { return new(peCmd) }),
	}
}

func testCommand() *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "two-sample permutation test: do P and Q differ?",
		UsageText: "pearson test [options] P.csv Q.csv\n   pearson test [options] --group COL data.csv",
		Description: "Estimates PE_α(P‖Q) as the divergence command does, then runs an exact permutation test of\n" +
			"P = Q on a relative Pearson divergence statistic, whose kernel width and λ do not depend on the\n" +
			"labels (1, 2 and 4 times the median heuristic, and kλ/n = 0.01, unless --sigma or --lambda fix\n" +
			"them), combined with the distance between the means (mean_shift, in pooled sds). Unless --m is\n" +
			fmt.Sprintf("set, the test averages over every row of both samples up to %d together: beyond that cap its\n", divergence.TestPointsCap) +
			"cost stays flat and its power is that of samples of that size.\n" +
			"The verdict is in the output (p_value), not in the exit code. The inputs are\n" + twoSampleInputs,
		Flags:  append(sampleFlags(), estimatorFlags(kindPE, divergence.DefaultPermutations)...),
		Action: action(func() command { return new(testCmd) }),
	}
}

// twoSampleCmd is what the divergence and test commands share: the
// samples P and Q, α and σ.
type twoSampleCmd struct {
	alpha, sigma float64
	in           *twoSamples
}

func (t *twoSampleCmd) parse(c *cli.Context) ([]string, []output, error) {
	t.alpha, t.sigma = c.Float64("alpha"), c.Float64("sigma")
	return c.Args().Slice(), nil, checkTwoSamples(c)
}

func (t *twoSampleCmd) read(c *cli.Context, r *reader) (p, q mat.Matrix, err error) {
	if t.in, err = readTwoSamples(c, r); err != nil {
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
		r.add("categorical", namesOf(t.in.columns, t.in.cats))
	}
	if t.in.scale != nil {
		// Only when done, so that single-column outputs keep their keys.
		r.add("scaled", t.in.scale.describe(t.in.columns)).add("spreads", t.in.scale.spreads())
	}
	return r.add("exact", res.Exact).
		add("seed", seed).
		add("warnings", append(append(slices.Clone(res.Warnings), more...), t.in.warnings...))
}

// peCmd is the divergence command.
type peCmd struct {
	twoSampleCmd
	ratioOut string
	res      *divergence.PEResult
}

func (d *peCmd) parse(c *cli.Context) ([]string, []output, error) {
	inputs, _, err := d.twoSampleCmd.parse(c)
	if err != nil {
		return nil, nil, err
	}
	d.ratioOut = c.String("ratio-out")
	if d.ratioOut != "" && slices.Contains(inputs, "-") {
		return nil, nil, usagef(c, "--ratio-out reads the inputs a second time: they must be files, not standard input")
	}
	return inputs, []output{{"--ratio-out", d.ratioOut}}, nil
}

func (d *peCmd) steps() string { return "" }

func (d *peCmd) estimate(ctx context.Context, s divergence.Settings, p, q mat.Matrix) (err error) {
	ps := d.settings(s)
	d.res, err = divergence.RelativePE(ctx, p, q, d.alpha, &ps)
	return err
}

func (d *peCmd) result(seed uint64) result { return d.record(d.res, seed) }

func (d *peCmd) plot(path string, seed uint64) error { return plotSamples(path, d.in, d.res, seed) }

func (d *peCmd) writeOutputs(r *reader, files []*outFile) error {
	if files[0] == nil {
		return nil
	}
	return writeRatio(files[0].f, d.res.Ratio, d.in, r)
}

// testCmd is the test command.
type testCmd struct {
	twoSampleCmd
	noOutputs
	permutations int
	res          *divergence.TwoSampleResult
}

func (t *testCmd) parse(c *cli.Context) ([]string, []output, error) {
	t.permutations = c.Int("permutations")
	return t.twoSampleCmd.parse(c)
}

func (t *testCmd) steps() string { return "permutations" }

func (t *testCmd) estimate(ctx context.Context, s divergence.Settings, p, q mat.Matrix) (err error) {
	t.res, err = divergence.TwoSampleTest(ctx, p, q, t.alpha, &divergence.TwoSampleSettings{PESettings: t.settings(s), Permutations: t.permutations})
	return err
}

func (t *testCmd) result(seed uint64) result {
	return t.record(t.res.PE, seed, t.res.Warnings...).
		add("statistic", t.res.Statistic).
		add("p_value", t.res.PValue).
		add("p_value_low", t.res.PValueLow).
		add("p_value_high", t.res.PValueHigh).
		add("permutations", t.res.Permutations).
		add("test_sigmas", t.res.Sigmas).
		add("width_pe", t.res.WidthPE).
		add("mean_shift", t.res.MeanShift).
		add("test_m", t.res.M).
		add("test_lambda", t.res.Lambda)
}

func (t *testCmd) plot(path string, _ uint64) error {
	return plotNull(path, fmt.Sprintf("two-sample test: %s vs %s, p = %.3g", t.in.p.name, t.in.q.name, t.res.PValue), t.res.Null, t.res.Statistic)
}
