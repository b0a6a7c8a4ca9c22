// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
)

// sampleFlags are the flags that say which rows form the two samples.
func sampleFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "group", Usage: "with one input file: the `COL`umn whose values split the rows into the samples"},
		&cli.StringFlag{Name: "numerator", Usage: "with --group: the `VALUE` of the numerator sample P (default: the first value in the file)"},
		&cli.StringFlag{Name: "denominator", Usage: "with --group: the `VALUE` of the denominator sample Q (default: the other value)"},
		&cli.StringFlag{Name: "columns", Usage: "comma-separated feature `COLS` (default: every numeric column but the group column; a column is numeric when its first non-empty cell is a number, and the columns left out are named on standard error)"},
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
		Action: runDivergence,
	}
}

func testCommand() *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "two-sample permutation test: do P and Q differ?",
		UsageText: "pearson test [options] P.csv Q.csv\n   pearson test [options] --group COL data.csv",
		Description: "Estimates PE_α(P‖Q) as the divergence command does, then runs an exact permutation test of\n" +
			"P = Q on a relative Pearson divergence statistic, whose kernel width and λ do not depend on the\n" +
			"labels (1, 2 and 4 times the median heuristic, combined, and kλ/n = 0.01, unless --sigma or\n" +
			"--lambda fix them).\n" +
			"The verdict is in the output (p_value), not in the exit code. The inputs are\n" + twoSampleInputs,
		Flags:  append(sampleFlags(), estimatorFlags(kindPE, divergence.DefaultPermutations)...),
		Action: runTest,
	}
}

// peRecord holds the keys of the divergence command, shared by test, whose
// own warnings come in more.
func peRecord(res *divergence.PEResult, in *twoSamples, j *job, more ...string) *record {
	return new(record).
		add("pe", res.PE).
		add("stderr", res.StdErr).
		add("alpha", res.Alpha).
		add("sigma", res.Sigma).
		add("lambda", res.Lambda).
		add("k", res.K).
		add("m", res.M).
		add("draws", len(res.Draws)).
		add("n_p", res.NP).
		add("n_q", res.NQ).
		add("numerator", in.p.name).
		add("denominator", in.q.name).
		add("columns", in.columns).
		add("exact", res.Exact).
		add("seed", j.seed).
		add("warnings", append(slices.Clone(res.Warnings), more...))
}

func runDivergence(c *cli.Context) error {
	j, err := newJob(c, kindPE)
	if err != nil {
		return err
	}
	defer j.discard()
	if err := checkTwoSamples(c); err != nil {
		return err
	}
	inputs := c.Args().Slice()
	ratioOut := c.String("ratio-out")
	if err := checkOutputs(c, inputs, output{"--ratio-out", ratioOut}, output{"--plot", j.plot}); err != nil {
		return err
	}
	if ratioOut != "" && slices.Contains(inputs, "-") {
		return usagef(c, "--ratio-out reads the inputs a second time: they must be files, not standard input")
	}
	var ratio *outFile
	if ratioOut != "" {
		if ratio, err = j.create("--ratio-out", ratioOut); err != nil {
			return err
		}
	}
	if err := j.openPlot(); err != nil {
		return err
	}
	in, err := readTwoSamples(c, j.reader)
	if err != nil {
		return err
	}
	load := time.Since(j.start)
	res, err := divergence.RelativePE(c.Context, in.p.matrix(), in.q.matrix(), j.alpha, j.peSettings())
	if err != nil {
		return libraryError(c, err)
	}
	out := peRecord(res, in, j)
	out.add("timing", timing{load, time.Since(j.start) - load})
	if err := out.writeTo(c.App.Writer, j.format); err != nil {
		return err
	}
	if ratio != nil {
		if err := writeRatio(ratio.f, res.Ratio, in, j.reader); err != nil {
			return err
		}
		if err := ratio.commit(); err != nil {
			return err
		}
	}
	if j.plotOut != nil {
		if err := plotSamples(j.plotOut.name(), in, res, j.seed); err != nil {
			return err
		}
		return j.plotOut.commit()
	}
	return nil
}

func runTest(c *cli.Context) error {
	j, err := newJob(c, kindPE)
	if err != nil {
		return err
	}
	defer j.discard()
	if j.permutations < 1 {
		return usagef(c, "--permutations %d: the test needs at least one permutation", j.permutations)
	}
	if err := checkTwoSamples(c); err != nil {
		return err
	}
	if err := checkOutputs(c, c.Args().Slice(), output{"--plot", j.plot}); err != nil {
		return err
	}
	if err := j.openPlot(); err != nil {
		return err
	}
	in, err := readTwoSamples(c, j.reader)
	if err != nil {
		return err
	}
	load := time.Since(j.start)
	var done func()
	j.settings.Progress, done = j.prog.Steps("permutations")
	res, err := divergence.TwoSampleTest(c.Context, in.p.matrix(), in.q.matrix(), j.alpha, &divergence.TwoSampleSettings{PESettings: *j.peSettings(), Permutations: j.permutations})
	done()
	if err != nil {
		return libraryError(c, err)
	}
	out := peRecord(res.PE, in, j, res.Warnings...).
		add("statistic", res.Statistic).
		add("p_value", res.PValue).
		add("permutations", res.Permutations).
		add("test_sigmas", res.Sigmas).
		add("test_lambda", res.Lambda)
	out.add("timing", timing{load, time.Since(j.start) - load})
	if err := out.writeTo(c.App.Writer, j.format); err != nil {
		return err
	}
	if j.plotOut != nil {
		if err := plotNull(j.plotOut.name(), fmt.Sprintf("two-sample test: %s vs %s, p = %.3g", in.p.name, in.q.name, res.PValue), "statistic (largest standardised over the kernel widths)", res.Null, res.Statistic); err != nil {
			return err
		}
		return j.plotOut.commit()
	}
	return nil
}

// writeRatio writes r̂ at every row of the input files to f: a CSV with
// the file, the line, the group value in one-file mode, the feature columns
// and the ratio. The files are streamed again, so memory stays bounded.
func writeRatio(f io.Writer, r *divergence.Ratio, in *twoSamples, rd *reader) error {
	bw := bufio.NewWriter(f)
	w := csv.NewWriter(bw)
	header := []string{"file", "line"}
	if in.group != "" {
		header = append(header, in.group)
	}
	w.Write(append(append(header, in.columns...), "ratio"))
	dim := len(in.columns)
	type row struct {
		group string
		line  int
	}
	const block = 4096
	buf := mat.NewDense(block, dim, nil)
	scaled := mat.NewDense(block, dim, nil) // as the estimator saw them
	var pending []row
	var file string
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		for i := range pending {
			copy(scaled.RawRowView(i), buf.RawRowView(i))
			in.scale.apply(scaled.RawRowView(i))
		}
		v, err := r.Eval(scaled.Slice(0, len(pending), 0, dim))
		if err != nil {
			return err
		}
		for i, p := range pending {
			rec := []string{file, fmt.Sprint(p.line)}
			if in.group != "" {
				rec = append(rec, p.group)
			}
			for _, x := range buf.RawRowView(i) {
				rec = append(rec, formatFloat(x))
			}
			w.Write(append(rec, formatFloat(v[i])))
		}
		pending = pending[:0]
		return w.Error()
	}
	for _, p := range in.paths {
		file = displayPath(p)
		_, err := rd.scan(p, dataset.Query{Group: in.group, Columns: in.columns}, func(g string, line int, values []float64) error {
			copy(buf.RawRowView(len(pending)), values)
			pending = append(pending, row{g, line})
			if len(pending) == block {
				return flush()
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := flush(); err != nil {
			return err
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("--ratio-out: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("--ratio-out: %w", err)
	}
	return nil
}
