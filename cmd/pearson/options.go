// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/sublinear/pearson/divergence"
)

// options are a command line's arguments and the flags the commands share,
// read once, by the command's action (readOptions), with where the run
// reads and writes: the helpers below an action take options, never the
// flag library's context. A flag the command does not define reads as its
// zero value. Every command's flags are here, its own as well as the shared
// ones, so that every command runs through one action.
type options struct {
	ctx            context.Context
	stdin          io.Reader
	stdout, stderr io.Writer

	args []string
	// given holds the flags set on the command line, by every name: a
	// flag given may mean something its default value does not (--m of
	// test, --exact's refusals, --standardize, --column-k, --reservoir).
	given map[string]bool

	// Output, progress and resources.
	format, plot, progress, maxMemory string
	seed                              uint64

	// The estimator: --k, --m, --draws, --folds, --lambda and --exact
	// (Src is set from seed by the job).
	est          divergence.Settings
	permutations int

	// Reading.
	delimiter, endpoint     string
	timeout, connectTimeout time.Duration
	reservoir               int
	dropMissing, scan       bool
	standardize             bool // --standardize's value; given says whether it was given
	columns, exclude        []string

	// Two samples (divergence, test, drift).
	group, numerator, denominator, ratioOut string
	alpha, sigma                            float64

	// Paired columns (mi, rank).
	x, y, features   []string
	target, model    string
	sigmaX, sigmaY   float64
	yType, targetTyp string // --y-type, --target-type
	top              int

	// A series (changepoint); --threshold is drift's too.
	timeCol                                           string // --time
	embed, window, step, retune, minDistance, changes int
	threshold, penalty                                float64
	scores                                            string

	// Drift's own.
	categorical                                []string
	saveRef, reference, html, failRule, adjust string
	failOnDrift, sampleOnly, noJoint           bool
	level, driftShare                          float64
	exceedances, settlePermutations, columnK   int

	// qmin's own: the files of A, d and b.
	qa, qd, qb         string
	withoutReplacement bool
	box                float64
}

// action returns the action of a command: its command line read once into
// options (readOptions), then run on them, with the libraries' errors
// mapped to the command line's (libraryError). Every command but
// completion and man runs through it; run never sees the flag library.
func action(run func(*options) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		o := readOptions(c)
		return libraryError(o, run(o))
	}
}

// readOptions reads the arguments and the shared flags of the command
// running in c, once.
func readOptions(c *cli.Context) *options {
	o := &options{
		ctx: c.Context, stdin: c.App.Reader, stdout: c.App.Writer, stderr: c.App.ErrWriter,
		args:  c.Args().Slice(),
		given: map[string]bool{},

		format: c.String("format"), plot: c.String("plot"), progress: c.String("progress"), maxMemory: c.String("max-memory"),
		seed: c.Uint64("seed"),

		est: divergence.Settings{
			K:      c.Int("k"),
			M:      c.Int("m"),
			Draws:  c.Int("draws"),
			Folds:  c.Int("folds"),
			Lambda: c.Float64("lambda"),
			Exact:  c.Bool("exact"),
		},
		permutations: c.Int("permutations"),

		delimiter: c.String("delimiter"), endpoint: c.String("endpoint"),
		timeout: c.Duration("timeout"), connectTimeout: c.Duration("connect-timeout"),
		reservoir:   c.Int("reservoir"),
		dropMissing: c.Bool("drop-missing"), scan: c.Bool("scan"), standardize: c.Bool("standardize"),
		columns: splitList(c.String("columns")), exclude: splitList(c.String("exclude")),

		group: c.String("group"), numerator: c.String("numerator"), denominator: c.String("denominator"), ratioOut: c.String("ratio-out"),
		alpha: c.Float64("alpha"), sigma: c.Float64("sigma"),

		x: splitList(c.String("x")), y: splitList(c.String("y")), features: splitList(c.String("features")),
		target: c.String("target"), model: c.String("model"),
		sigmaX: c.Float64("sigma-x"), sigmaY: c.Float64("sigma-y"),
		yType: c.String("y-type"), targetTyp: c.String("target-type"),
		top: c.Int("top"),

		timeCol: strings.TrimSpace(c.String("time")),
		embed:   c.Int("embed"), window: c.Int("window"), step: c.Int("step"), retune: c.Int("retune"),
		minDistance: c.Int("min-distance"), changes: c.Int("changes"),
		threshold: c.Float64("threshold"), penalty: c.Float64("penalty"),
		scores: c.String("scores"),

		categorical: splitList(c.String("categorical")),
		saveRef:     c.String("save-reference"), reference: c.String("reference"), html: c.String("html"),
		failRule: c.String("fail-rule"), adjust: c.String("adjust"),
		failOnDrift: c.Bool("fail-on-drift"), sampleOnly: c.Bool("sample-only"), noJoint: c.Bool("no-joint"),
		level: c.Float64("level"), driftShare: c.Float64("drift-share"),
		exceedances: c.Int("exceedances"), settlePermutations: c.Int("settle-permutations"), columnK: c.Int("column-k"),

		qa: c.String("a"), qd: c.String("d"), qb: c.String("b"),
		withoutReplacement: c.Bool("without-replacement"), box: c.Float64("box"),
	}
	if c.Command != nil {
		for _, f := range c.Command.Flags {
			for _, name := range f.Names() {
				o.given[name] = c.IsSet(name)
			}
		}
	}
	return o
}
