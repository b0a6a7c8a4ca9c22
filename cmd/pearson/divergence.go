// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"slices"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
)

// divergenceCommand is pearson divergence (alias pe): PE_α(P‖Q) with its
// standard error (divergence.RelativePE).
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
		Action: action(pipeline(func() command { return new(peCmd) })),
	}
}

// peCmd is the divergence command.
type peCmd struct {
	twoSampleCmd
	ratioOut string
	res      *divergence.PEResult
}

func (d *peCmd) parse(o *options) (plan, error) {
	p, err := d.twoSampleCmd.parse(o)
	if err != nil {
		return p, err
	}
	d.ratioOut = o.ratioOut
	if d.ratioOut != "" && slices.Contains(p.inputs, "-") {
		return p, usageErr("--ratio-out reads the inputs a second time: they must be files, not standard input")
	}
	p.outs = []output{{"--ratio-out", d.ratioOut}}
	return p, nil
}

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
