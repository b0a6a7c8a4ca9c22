// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/urfave/cli/v2"

	"github.com/sublinear/pearson/divergence"
)

// countFlag is a flag of a count whose zero asks for its default, as the
// zero of its field in Go does.
func countFlag(name string, def int, usage string) *cli.IntFlag {
	return &cli.IntFlag{Name: name, Value: def, Usage: usage, DefaultText: fmt.Sprintf("%d; 0 means the default", def)}
}

// Kinds of estimate, for the flags each command offers.
const (
	kindPE = iota // two samples: --alpha, --sigma
	kindMI        // paired variables: --sigma-x, --sigma-y
)

// estimatorFlags are the flags of the estimate, common to the divergence,
// test, mi and rank commands.
func estimatorFlags(kind int, permutations int) []cli.Flag {
	flags := []cli.Flag{
		countFlag("k", divergence.DefaultK, "centres per draw"),
		countFlag("m", divergence.DefaultM, "points averaged per draw, the accuracy budget (at least the number of rows: exact averages, linear in n)"),
		countFlag("draws", divergence.DefaultDraws, "independent draws; their spread gives the standard error"),
		countFlag("folds", divergence.DefaultFolds, "cross-validation folds"),
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
			&cli.Float64Flag{Name: "sigma-y", Usage: "kernel width on y (0: cross-validate)"},
			&cli.StringFlag{Name: "model", Value: "auto", Usage: "`auto`, kernel or gaussian-copula: the model whose SMI is reported; auto takes the larger of the two, which fits the ratio better by squared loss"})
	}
	switch {
	case permutations > 0:
		flags = append(flags, countFlag("permutations", permutations, "permutations of the test"))
	case permutations == 0:
		flags = append(flags, &cli.IntFlag{Name: "permutations", Usage: "permutations for a p-value (0: none)"})
	}
	flags = append(flags, inputFlags()...)
	return append(flags, maxMemoryFlag(), progressFlag(), formatFlag(),
		&cli.StringFlag{Name: "plot", Usage: "draw a picture to `FILE`.png or FILE.svg"})
}

// checkSettings has the library check the settings of cmd before any
// input is read, as its estimator would first thing: a setting out of range
// is a usage error naming the flag.
func checkSettings(c *cli.Context, cmd command, s divergence.Settings) error {
	var err error
	switch t := cmd.(type) {
	case *peCmd:
		ps := t.settings(s)
		err = errors.Join(divergence.ValidateAlpha(t.alpha), ps.Validate())
	case *testCmd:
		ts := divergence.TwoSampleSettings{PESettings: t.settings(s), Permutations: t.permutations}
		err = errors.Join(divergence.ValidateAlpha(t.alpha), ts.Validate())
	case *miCmd:
		is := divergence.IndependenceSettings{LSMISettings: t.settings(s), Permutations: t.permutations}
		err = is.Validate()
	case *rankCmd:
		rs := divergence.RankSettings{LSMISettings: t.settings(s), PValuePermutations: t.permutations}
		err = rs.Validate()
	}
	if err != nil {
		return libraryError(c, err)
	}
	return nil
}

// settingFlags are the flags of the settings the library checks, by the
// Field of its *SettingsError.
var settingFlags = map[string]string{
	"K":                  "--k",
	"M":                  "--m",
	"Draws":              "--draws",
	"Folds":              "--folds",
	"Lambda":             "--lambda",
	"Sigma":              "--sigma",
	"SigmaX":             "--sigma-x",
	"SigmaY":             "--sigma-y",
	"alpha":              "--alpha",
	"Permutations":       "--permutations",
	"PValuePermutations": "--permutations",
}

// goDefault matches the library's words for a zero that asks for a
// default, "(0: DefaultK)", which a flag's zero means too.
var goDefault = regexp.MustCompile(`\(0: Default\w*\)`)

// libraryError turns the library's complaints about settings, which come
// from flags, into usage errors that name the flag, its value and what it
// allows; other errors are data errors.
func libraryError(c *cli.Context, err error) error {
	var se *divergence.SettingsError
	if errors.As(err, &se) {
		if flag, ok := settingFlags[se.Field]; ok {
			return usagef(c, "%s %v: %s", flag, se.Value, goDefault.ReplaceAllString(se.Allowed, "(0: the default)"))
		}
	}
	if errors.Is(err, divergence.ErrSettings) {
		return usagef(c, "%v", err)
	}
	return err
}
