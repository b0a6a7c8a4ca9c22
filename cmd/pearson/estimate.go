// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"math"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/qmin"
)

// Kinds of estimate, for the flags each command offers.
const (
	kindPE = iota // two samples: --alpha, --sigma
	kindMI        // paired variables: --sigma-x, --sigma-y
)

// estimatorFlags are the flags of the estimate, common to the divergence,
// test, mi and rank commands.
func estimatorFlags(kind int, permutations int) []cli.Flag {
	flags := []cli.Flag{
		&cli.IntFlag{Name: "k", Value: divergence.DefaultK, Usage: "centres per draw"},
		&cli.IntFlag{Name: "m", Value: divergence.DefaultM, Usage: "points averaged per draw, the accuracy budget (at least the number of rows: exact averages, linear in n)"},
		&cli.IntFlag{Name: "draws", Value: divergence.DefaultDraws, Usage: "independent draws; their spread gives the standard error"},
		&cli.IntFlag{Name: "folds", Value: divergence.DefaultFolds, Usage: "cross-validation folds"},
		&cli.Float64Flag{Name: "lambda", Usage: "all-centre regularisation λ (0: cross-validate)"},
		&cli.BoolFlag{Name: "exact", Usage: "the all-centre solution itself: O(n³), every row read, at most 5000 rows; --k, --m, --draws and --reservoir do not apply"},
		seedFlag(),
	}
	if kind == kindPE {
		flags = append(flags,
			&cli.Float64Flag{Name: "alpha", Value: divergence.DefaultAlpha, Usage: "α of the relative ratio p/(αp + (1−α)q), in [0, 1); 0 is the plain Pearson divergence"},
			&cli.Float64Flag{Name: "sigma", Usage: "kernel width σ (0: cross-validate)"})
	} else {
		flags = append(flags,
			&cli.Float64Flag{Name: "sigma-x", Usage: "kernel width on x (0: cross-validate)"},
			&cli.Float64Flag{Name: "sigma-y", Usage: "kernel width on y (0: cross-validate)"})
	}
	if permutations >= 0 {
		usage := "permutations of the test"
		if permutations == 0 {
			usage = "permutations for a p-value (0: none)"
		}
		flags = append(flags, &cli.IntFlag{Name: "permutations", Value: permutations, Usage: usage})
	}
	flags = append(flags, inputFlags()...)
	return append(flags, progressFlag(), formatFlag(),
		&cli.StringFlag{Name: "plot", Usage: "draw a picture to `FILE`.png or FILE.svg"})
}

// newJob reads and checks the common flags. Bad values are usage errors
// that name the flag.
func newJob(c *cli.Context) (*job, error) {
	j := &job{seed: c.Uint64("seed"), plot: c.String("plot")}
	var err error
	if j.format, err = checkFormat(c); err != nil {
		return nil, err
	}
	if j.prog, err = newProgress(c); err != nil {
		return nil, err
	}
	if j.plot != "" {
		if err := checkPlotPath(j.plot); err != nil {
			return nil, usagef(c, "--plot: %v", err)
		}
	}
	s := divergence.Settings{
		K:      c.Int("k"),
		M:      c.Int("m"),
		Draws:  c.Int("draws"),
		Folds:  c.Int("folds"),
		Lambda: c.Float64("lambda"),
		Exact:  c.Bool("exact"),
		Src:    seedSource(j.seed),
	}
	check := func(ok bool, format string, args ...any) error {
		if !ok && err == nil {
			err = usagef(c, format, args...)
		}
		return err
	}
	check(s.K >= 1 && s.K <= qmin.MaxK, "--k %d: the centres per draw must be 1 to %d", s.K, qmin.MaxK)
	check(s.M >= 1, "--m %d: at least one point must be averaged", s.M)
	check(s.Draws >= 1 && s.Draws <= divergence.MaxDraws, "--draws %d: need 1 to %d draws", s.Draws, divergence.MaxDraws)
	check(s.Folds >= 2 && s.Folds <= 1000, "--folds %d: cross-validation needs 2 to 1000 folds", s.Folds)
	check(validWidth(s.Lambda), "--lambda %v: the regularisation must be a positive number (0: cross-validate)", s.Lambda)
	if hasFlag(c, "alpha") {
		alpha := c.Float64("alpha")
		check(alpha >= 0 && alpha < 1, "--alpha %v: α must lie in [0, 1)", alpha)
		sigma := c.Float64("sigma")
		check(validWidth(sigma), "--sigma %v: the kernel width must be a positive number (0: cross-validate)", sigma)
	} else {
		sigmaX, sigmaY := c.Float64("sigma-x"), c.Float64("sigma-y")
		check(validWidth(sigmaX), "--sigma-x %v: the kernel width must be a positive number (0: cross-validate)", sigmaX)
		check(validWidth(sigmaY), "--sigma-y %v: the kernel width must be a positive number (0: cross-validate)", sigmaY)
	}
	if hasFlag(c, "permutations") {
		p := c.Int("permutations")
		check(p >= 0 && p <= divergence.MaxPermutations, "--permutations %d: need 0 to %d", p, divergence.MaxPermutations)
	}
	if s.Exact {
		// The all-centre solution takes every row as a centre, averages
		// over every row, once, and keeps every row: these do not apply.
		for _, name := range []string{"k", "m", "draws", "reservoir"} {
			if hasFlag(c, name) && c.IsSet(name) {
				check(false, "--%s and --exact: the exact solution uses every row (k = n, exact averages, one draw, no reservoir); leave --%s out", name, name)
			}
		}
	}
	if err != nil {
		return nil, err
	}
	j.settings = s
	if j.reader, err = newReader(c, j.prog, &s); err != nil {
		return nil, err
	}
	return j, nil
}

// validWidth accepts 0 (cross-validate) and positive finite numbers.
func validWidth(v float64) bool { return v >= 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }

// hasFlag reports whether the command defines the flag.
func hasFlag(c *cli.Context, name string) bool {
	for _, f := range c.Command.Flags {
		if slices.Contains(f.Names(), name) {
			return true
		}
	}
	return false
}

// libraryError turns the library's complaints about settings, which come
// from flags, into usage errors; other errors are data errors.
func libraryError(c *cli.Context, err error) error {
	if errors.Is(err, divergence.ErrSettings) {
		return usagef(c, "%v", err)
	}
	return err
}
