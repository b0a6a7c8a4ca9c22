// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
)

// testCommand is pearson test: the divergence command's estimate and an
// exact permutation test of P = Q (divergence.TwoSampleTest).
func testCommand() *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "two-sample permutation test: do P and Q differ?",
		UsageText: "pearson test [options] P.csv Q.csv\n   pearson test [options] --group COL data.csv",
		Description: "Estimates PE_α(P‖Q) as the divergence command does, then runs a permutation test of\n" +
			"P = Q on a relative Pearson divergence statistic, whose kernel width and λ do not depend on the\n" +
			"labels (1, 2 and 4 times the median heuristic, and kλ/n = 0.01, unless --sigma or --lambda fix\n" +
			"them), combined with the distance between the means (mean_shift, in pooled sds). Unless --m is\n" +
			fmt.Sprintf("set, the test averages over every row of both samples up to %d together: beyond that cap its\n", divergence.TwoSamplePointsCap) +
			"cost stays flat and its power is that of samples of that size.\n" +
			"The verdict is in the output (p_value), not in the exit code. The inputs are\n" + twoSampleInputs,
		Flags:  append(sampleFlags(), estimatorFlags(kindPE, divergence.DefaultPermutations)...),
		Action: action(pipeline(func() command { return new(testCmd) })),
	}
}

// testCmd is the test command.
type testCmd struct {
	twoSampleCmd
	noOutputs
	permutations int
	// budgetSet is --m given: otherwise the test averages by its own rule
	// (divergence.TwoSamplePoints: every row up to TwoSamplePointsCap), not over
	// the flag's default, the estimate's 4000.
	budgetSet bool
	res       *divergence.TwoSampleResult
}

func (t *testCmd) parse(o *options) (plan, error) {
	t.permutations, t.budgetSet = o.permutations, o.given["m"]
	p, err := t.twoSampleCmd.parse(o)
	p.steps, p.permutations = "permutations", t.permutations
	return p, err
}

func (t *testCmd) estimate(ctx context.Context, s divergence.Settings, p, q mat.Matrix) (err error) {
	ts := divergence.TwoSampleSettings{PESettings: t.settings(s), Permutations: t.permutations}
	if t.budgetSet {
		ts.Points = s.M // --m is the test's budget too; otherwise its rule (TwoSamplePoints)
	}
	t.res, err = divergence.TwoSampleTest(ctx, p, q, t.alpha, &ts)
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
