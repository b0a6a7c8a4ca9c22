// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"math"
	"runtime"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/qmin"
)

func qminCommand() *cli.Command {
	return &cli.Command{
		Name:      "qmin",
		Usage:     "estimate the minimum of a quadratic function in constant time",
		UsageText: "pearson qmin --a A.csv --d d.csv --b b.csv [--k 40] [--draws 10] [--box K] [--seed N] [--exact] [--format text|json|csv]",
		Description: "Estimates z* = min_v <v, A v> + n <v, diag(d) v> + n <b, v> by Algorithm 1 of\n" +
			"Hayashi & Yoshida: each draw samples k indices, solves the k-dimensional restriction\n" +
			"and scales by n²/k²; the estimate is the mean over the draws, with its standard error.\n" +
			"A is read from a headerless CSV file of n rows of n numbers; d and b from files of n\n" +
			"numbers, one per line or all on one line. One of the files may be \"-\" (standard input).\n" +
			"With --box K the minimum is over [-K, K]^n, where non-convex problems are solved locally and\n" +
			"reported as certified only when a convexifying certificate proves the minimum global.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "a", Usage: "headerless CSV file of the n×n matrix `A`"},
			&cli.StringFlag{Name: "d", Usage: "file of the n numbers of the vector `d`"},
			&cli.StringFlag{Name: "b", Usage: "file of the n numbers of the vector `b`"},
			countFlag("k", qmin.DefaultK, "number of indices sampled by each draw"),
			countFlag("draws", qmin.DefaultDraws, "number of independent draws"),
			&cli.BoolFlag{Name: "without-replacement", Usage: "sample distinct indices (needs k ≤ n)"},
			&cli.Float64Flag{Name: "box", Usage: "minimise over the box [-`K`, K]^n (0: no box)"},
			&cli.BoolFlag{Name: "exact", Usage: "also solve the whole problem, O(n³), and report the error"},
			seedFlag(),
			delimFlag(),
			formatFlag(),
		},
		Action: action(runQmin),
	}
}

// runQmin runs qmin with the options o.
func runQmin(o *options) error {
	format, err := checkFormat(o, formatNames)
	if err != nil {
		return err
	}
	delim, err := delimiter(o)
	if err != nil {
		return err
	}
	if len(o.args) > 0 {
		return usageErr("unexpected argument %q", o.args[0])
	}
	paths := map[string]string{}
	stdinUsers := 0
	for _, f := range []struct{ name, path string }{{"a", o.qa}, {"d", o.qd}, {"b", o.qb}} {
		name, p := f.name, f.path
		if p == "" {
			return usageErr("missing --%s", name)
		}
		if p == "-" {
			stdinUsers++
		}
		paths[name] = p
	}
	if stdinUsers > 1 {
		return usageErr("only one of --a, --d and --b may be \"-\" (standard input)")
	}

	rows, cols, data, err := openMatrix(o.stdin, paths["a"], delim)
	if err != nil {
		return err
	}
	if rows != cols {
		return fmt.Errorf("qmin: %s: A has %d rows of %d numbers: it must be square", displayPath(paths["a"]), rows, cols)
	}
	vec := map[string][]float64{}
	for _, name := range []string{"d", "b"} {
		v, err := openVector(o.stdin, paths[name], delim)
		if err != nil {
			return err
		}
		if len(v) != rows {
			return fmt.Errorf("qmin: %s: %s has %d numbers but A is %d×%d", displayPath(paths[name]), name, len(v), rows, cols)
		}
		vec[name] = v
	}
	p, err := qmin.NewDense(mat.NewDense(rows, cols, data), vec["d"], vec["b"])
	if err != nil {
		return err
	}
	s := &qmin.Settings{
		K:                  o.est.K,
		Draws:              o.est.Draws,
		WithoutReplacement: o.withoutReplacement,
		Box:                o.box,
		Src:                seedSource(o.seed),
	}
	if err := asUsage(cost{need: qminMemory(rows, s), lower: "--draws or --k"}.check()); err != nil {
		return err
	}
	// The library checks the settings; the one error mapper
	// (libraryError) names the flag of a setting out of range.
	res, err := qmin.EstimateContext(o.ctx, p, s)
	if err != nil {
		return err
	}
	n := float64(rows)
	out := new(record).
		add("estimate", res.Value).
		add("stderr", res.StdErr).
		add("n", rows).
		add("k", res.K).
		add("draws", len(res.Draws)).
		add("box", s.Box).
		add("certified", res.Certified).
		add("seed", o.seed)
	if o.est.Exact {
		ex, err := qmin.ExactContext(o.ctx, p, &qmin.Settings{Box: s.Box, Src: seedSource(o.seed)})
		if err != nil {
			return err
		}
		out.add("exact", ex.Value).
			add("exact_method", ex.Method.String()).
			add("exact_certified", ex.Certified).
			add("error", math.Abs(res.Value-ex.Value)).
			add("error_per_n2", math.Abs(res.Value-ex.Value)/n/n)
	}
	return out.writeTo(o.stdout, format)
}

// openMatrix reads a headerless numeric matrix from a file, or from stdin
// when path is "-".
func openMatrix(stdin io.Reader, path string, delim rune) (rows, cols int, data []float64, err error) {
	if path == "-" {
		return dataset.ReadMatrix(stdin, "-", delim)
	}
	return dataset.OpenMatrix(path, delim)
}

// openVector reads a headerless numeric vector from a file, or from stdin
// when path is "-".
func openVector(stdin io.Reader, path string, delim rune) ([]float64, error) {
	if path == "-" {
		return dataset.ReadVector(stdin, "-", delim)
	}
	return dataset.OpenVector(path, delim)
}

// qminMemory bounds the bytes of an estimate on an n×n problem: the base,
// A read (8n²), the draws kept (16 bytes an index and minimiser, as
// qmin.MaxDrawEntries counts them) and, on each core, a restricted k×k
// problem and the few copies its solver holds (five in all).
func qminMemory(n int, s *qmin.Settings) float64 {
	k, draws := float64(s.K), float64(s.Draws)
	if k == 0 {
		k = qmin.DefaultK
	}
	if draws == 0 {
		draws = qmin.DefaultDraws
	}
	k = min(k, float64(n))
	return baseMemory + 8*float64(n)*float64(n) + 16*draws*k + 5*8*k*k*float64(runtime.GOMAXPROCS(0))
}
