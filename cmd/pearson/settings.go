// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/urfave/cli/v2"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/errs"
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

// fieldFlags names the flags whose name is not their field's in kebab case
// (see flagOfField).
var fieldFlags = map[string]string{
	"PValuePermutations": "permutations",
	"SampleRows":         "reservoir",
}

// zeroWords says what a zero flag asks for, by the default the library
// names (SettingsError.Default): the default, unless listed here.
var zeroWords = map[string]string{"Window": "the window"}

// flagOfField returns the flag of the running command that sets the
// library's settings field, as "--name", or "" when it has none: the flag
// named as the field in kebab case ("SigmaX": --sigma-x), or as fieldFlags
// says, among the flags the command defines (o.given's names).
func flagOfField(o *options, field string) string {
	name, ok := fieldFlags[field]
	if !ok {
		var b strings.Builder
		for i, r := range field {
			if unicode.IsUpper(r) && i > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(unicode.ToLower(r))
		}
		name = b.String()
	}
	if _, defined := o.given[name]; defined {
		return "--" + name
	}
	return ""
}

// libraryError is the one mapping of the libraries' errors to the command
// line's: a setting out of range, which comes from a flag, is a usage error
// that names the flag, its value and what it allows (from the fields of
// errs.SettingsError, never its message); another bad setting is a usage
// error; other errors are data errors.
func libraryError(o *options, err error) error {
	var ue *usageError
	if err == nil || errors.As(err, &ue) {
		return err
	}
	var se *errs.SettingsError
	if errors.As(err, &se) {
		if flag := flagOfField(o, se.Field); flag != "" {
			allowed := se.Allowed
			if se.Default != "" {
				zero, ok := zeroWords[se.Default]
				if !ok {
					zero = "the default"
				}
				allowed += " (0: " + zero + ")"
			}
			return usageErr("%s %v: %s", flag, se.Value, allowed)
		}
	}
	if errors.Is(err, errs.ErrSettings) {
		return usageErr("%v", err)
	}
	return err
}
