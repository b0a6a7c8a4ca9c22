// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/sublinear/pearson/divergence"
)

func miCommand() *cli.Command {
	return &cli.Command{
		Name:      "mi",
		Aliases:   []string{"smi"},
		Usage:     "estimate the squared-loss mutual information between two sets of columns",
		UsageText: "pearson mi --x COLS --y COLS [options] data.csv",
		Description: "Estimates SMI(X, Y) = ½ E_{p(x)p(y)}[(p(x,y)/(p(x)p(y)) − 1)²] by LSMI in constant time; it is 0\n" +
			"exactly when X and Y are independent (ρ²/(2(1−ρ²)) for a bivariate normal). Kernel widths and λ\n" +
			"are cross-validated. With --permutations B an exact permutation test of independence adds\n" +
			"a p-value. The input has a header row; \"-\" reads standard input.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "x", Usage: "comma-separated `COLS` of X"},
			&cli.StringFlag{Name: "y", Usage: "comma-separated `COLS` of Y"},
		}, estimatorFlags(kindMI, 0)...),
		Action: runMI,
	}
}

func rankCommand() *cli.Command {
	return &cli.Command{
		Name:      "rank",
		Usage:     "rank feature columns by their squared-loss mutual information with a target",
		UsageText: "pearson rank --target COL [--features COLS] [--top N] [--permutations B] [options] data.csv",
		Description: "Scores every feature column against the target by LSMI (cross-validated per feature, all on\n" +
			"the same rows) and sorts them, one row per feature. --permutations B adds each feature's\n" +
			"independence-test p-value. A constant feature scores 0 with a note.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "target", Usage: "the target `COL`umn"},
			&cli.StringFlag{Name: "features", Usage: "comma-separated feature `COLS` (default: every numeric column but the target; a column is numeric when its first non-empty cell is a number, and the columns left out are named on standard error)"},
			&cli.IntFlag{Name: "top", Usage: "print only the first `N` features (0: all)"},
		}, estimatorFlags(kindMI, 0)...),
		Action: runRank,
	}
}

// oneInput returns the single input file of mi and rank.
func oneInput(c *cli.Context) (string, error) {
	switch n := c.Args().Len(); {
	case n == 0:
		return "", usagef(c, "missing input: give one CSV file (\"-\" for standard input)")
	case n > 1:
		return "", usagef(c, "expected one input file, got %d", n)
	}
	return c.Args().First(), nil
}

func runMI(c *cli.Context) error {
	j, err := newJob(c, kindMI)
	if err != nil {
		return err
	}
	defer j.discard()
	path, err := oneInput(c)
	if err != nil {
		return err
	}
	xs, ys := splitList(c.String("x")), splitList(c.String("y"))
	switch {
	case len(xs) == 0:
		return usagef(c, "missing --x: the columns of X")
	case len(ys) == 0:
		return usagef(c, "missing --y: the columns of Y")
	}
	for _, name := range xs {
		if slices.Contains(ys, name) {
			return usagef(c, "column %q is in both --x and --y", name)
		}
	}
	if j.plot != "" && j.permutations == 0 {
		return usagef(c, "--plot draws the null distribution of the independence test: give --permutations too")
	}
	if err := checkOutputs(c, []string{path}, output{"--plot", j.plot}); err != nil {
		return err
	}
	if err := j.openPlot(); err != nil {
		return err
	}
	t, all, err := readColumns(j.reader, path, append(slices.Clone(xs), ys...))
	if err != nil {
		return err
	}
	x := columnsOf(all.x, t.Columns, xs)
	y := columnsOf(all.x, t.Columns, ys)
	if c.Bool("standardize") {
		standardize(x)
		standardize(y)
	}
	load := time.Since(j.start)
	xm, ym := sample{x: x, rows: all.rows}.matrix(), sample{x: y, rows: all.rows}.matrix()
	var res *divergence.LSMIResult
	var test *divergence.IndependenceResult
	if j.permutations > 0 {
		var done func()
		j.settings.Progress, done = j.prog.Steps("permutations")
		test, err = divergence.IndependenceTest(c.Context, xm, ym, &divergence.IndependenceSettings{LSMISettings: *j.lsmiSettings(), Permutations: j.permutations})
		done()
		if test != nil {
			res = test.LSMI
		}
	} else {
		res, err = divergence.LSMI(c.Context, xm, ym, j.lsmiSettings())
	}
	if err != nil {
		return libraryError(c, err)
	}
	out := new(record).
		add("smi", res.SMI).
		add("stderr", res.StdErr).
		add("sigma_x", res.SigmaX).
		add("sigma_y", res.SigmaY).
		add("lambda", res.Lambda).
		add("k", res.K).
		add("m", res.M).
		add("draws", len(res.Draws)).
		add("n", res.N).
		add("x", xs).
		add("y", ys).
		add("exact", res.Exact).
		add("seed", j.seed).
		add("warnings", res.Warnings)
	if test != nil {
		out.add("statistic", test.Statistic).
			add("p_value", test.PValue).
			add("permutations", test.Permutations)
	}
	out.add("timing", timing{load, time.Since(j.start) - load})
	if err := out.writeTo(c.App.Writer, j.format); err != nil {
		return err
	}
	if j.plotOut != nil {
		if err := plotNull(j.plotOut.name(), fmt.Sprintf("independence test: %s vs %s, p = %.3g", strings.Join(xs, ","), strings.Join(ys, ","), test.PValue), "statistic (largest standardised over the kernel widths)", test.Null, test.Statistic); err != nil {
			return err
		}
		return j.plotOut.commit()
	}
	return nil
}

func runRank(c *cli.Context) error {
	j, err := newJob(c, kindMI)
	if err != nil {
		return err
	}
	defer j.discard()
	path, err := oneInput(c)
	if err != nil {
		return err
	}
	target := strings.TrimSpace(c.String("target"))
	if target == "" {
		return usagef(c, "missing --target: the column the features are ranked against")
	}
	top := c.Int("top")
	if top < 0 {
		return usagef(c, "--top %d cannot be negative", top)
	}
	features := splitList(c.String("features"))
	if slices.Contains(features, target) {
		return usagef(c, "the target %q is also among --features", target)
	}
	var want []string // nil: every numeric column
	if features != nil {
		want = append(slices.Clone(features), target)
	}
	if err := checkOutputs(c, []string{path}, output{"--plot", j.plot}); err != nil {
		return err
	}
	if err := j.openPlot(); err != nil {
		return err
	}
	t, all, err := readColumns(j.reader, path, want)
	if err != nil {
		return err
	}
	if features == nil {
		if !slices.Contains(t.Columns, target) {
			return fmt.Errorf("%s: the target column %q is not among the numeric columns (%s); name it exactly, or give --features", t.Name, target, strings.Join(quoteAll(t.Columns), ", "))
		}
		features = slices.DeleteFunc(slices.Clone(t.Columns), func(s string) bool { return s == target })
		if len(features) == 0 {
			return fmt.Errorf("%s: no numeric column besides the target %q", t.Name, target)
		}
	}
	fx := columnsOf(all.x, t.Columns, features)
	ty := columnsOf(all.x, t.Columns, []string{target})
	if c.Bool("standardize") {
		standardize(fx)
		standardize(ty)
	}
	load := time.Since(j.start)
	var done func()
	j.settings.Progress, done = j.prog.Steps("features")
	res, err := divergence.Rank(c.Context, sample{x: fx, rows: all.rows}.matrix(), sample{x: ty, rows: all.rows}.matrix(), &divergence.RankSettings{LSMISettings: *j.lsmiSettings(), PValuePermutations: j.permutations})
	done()
	if err != nil {
		return libraryError(c, err)
	}
	scores := res.Features
	if top > 0 && top < len(scores) {
		scores = scores[:top]
	}
	run := new(record).add("target", target).add("n", all.rows).add("seed", j.seed).add("permutations", res.Permutations)
	run.add("timing", timing{load, time.Since(j.start) - load})
	if err := ranking(run, features, scores, res.Permutations > 0).writeTo(c.App.Writer, j.format); err != nil {
		return err
	}
	if j.plotOut != nil {
		labels := make([]string, len(scores))
		values := make([]float64, len(scores))
		errs := make([]float64, len(scores))
		for i, f := range scores {
			labels[i], values[i], errs[i] = features[f.Column], f.SMI, f.StdErr
		}
		if err := plotBars(j.plotOut.name(), fmt.Sprintf("dependence on %s (LSMI)", target), labels, values, errs); err != nil {
			return err
		}
		return j.plotOut.commit()
	}
	return nil
}

// ranking is the table of a ranking: one row per feature, the run's
// details around them in JSON.
func ranking(run *record, names []string, scores []divergence.FeatureScore, tested bool) *table {
	rows := make([]*record, len(scores))
	for i, f := range scores {
		r := new(record).
			add("rank", f.Rank).
			add("feature", names[f.Column]).
			add("smi", f.SMI).
			add("stderr", f.StdErr)
		if tested {
			r.add("p_value", f.PValue)
		}
		rows[i] = r.add("sigma_x", f.SigmaX).
			add("sigma_y", f.SigmaY).
			add("lambda", f.Lambda).
			add("note", f.Note).
			add("warnings", f.Warnings) // CSV and text: joined by "; "
	}
	return &table{run: run, name: "features", rows: rows}
}
