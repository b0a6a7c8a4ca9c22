// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/plots"
	"github.com/sublinear/pearson/internal/progress"
)

// command is an estimating command's part of the pipeline (divergence,
// test, mi, rank): how it reads, estimates and reports. runPipeline calls
// the parts in order, after parse has read the command's options.
type command interface {
	// parse checks the command's arguments and own options and returns
	// its plan. Mistakes are usage errors.
	parse(o *options) (plan, error)
	// read reads the inputs and returns the two samples the estimator
	// takes.
	read(r *reader) (a, b mat.Matrix, err error)
	// estimatorSettings returns the settings of the command's library entry
	// point, the common settings s with the command's own and b
	// permutations (ignored by a command without them), which the pipeline
	// validates and bounds the memory of.
	estimatorSettings(s divergence.Settings, b int) estimatorSettings
	// estimate runs the estimator on the samples, with the common
	// settings s and the command's own.
	estimate(ctx context.Context, s divergence.Settings, a, b mat.Matrix) error
	// result returns the estimate to print; seed is --seed's.
	result(seed uint64) result
	// plot draws the picture of the estimate to the file path.
	plot(path string, seed uint64) error
	// writeOutputs writes the plan's outputs to their files, one per
	// output in the same order; a file is nil when its output was not
	// asked for.
	writeOutputs(r *reader, files []*outFile) error
}

// plan is what a command's options ask of the pipeline.
type plan struct {
	// inputs are the input files; outs the files the command writes
	// besides standard output and --plot (whose paths may be empty: not
	// asked for).
	inputs []string
	outs   []output
	// steps names what the estimate's progress bar counts, or "" for no
	// bar.
	steps string
	// permutations are the command's permutations, 0 when it has none.
	permutations int
	// paired says that the samples are paired columns of one file (mi,
	// rank), copied out of its table, rather than two samples.
	paired bool
	// cols are the columns of each sample as far as the options name
	// them (1 when they do not), for the largest shape the samples may
	// take before they are read (fileShape).
	cols [2]int
}

// noOutputs is embedded by the commands that write no file besides
// standard output and --plot.
type noOutputs struct{}

func (noOutputs) writeOutputs(*reader, []*outFile) error { return nil }

// job is what the common options of the estimating commands say, read and
// checked before any work.
type job struct {
	frame
	opt      *options
	settings divergence.Settings // Src seeded by --seed
	seed     uint64
	reader   *reader
	plot     string
}

// frame is what every command's run shares, read from the options and
// checked before any work (newFrame).
type frame struct {
	format writer
	budget float64 // --max-memory, in bytes
	prog   *progress.Bars
}

// newFrame checks the options every command's run shares: --format among
// the command's formats, --max-memory, --progress and --plot's file name.
// Mistakes are usage errors that name the flag.
func newFrame(o *options, formats []string) (frame, error) {
	var f frame
	var err error
	if f.format, err = checkFormat(o, formats); err != nil {
		return f, err
	}
	if f.budget, err = memoryBudget(o); err != nil {
		return f, err
	}
	if f.prog, err = newProgress(o); err != nil {
		return f, err
	}
	if o.plot != "" {
		if err := plots.CheckPath(o.plot); err != nil {
			return f, usageErr("--plot: %v", err)
		}
	}
	return f, nil
}

// pipeline returns the run of an estimating command through runPipeline,
// with a new command per run.
func pipeline(newCmd func() command) func(*options) error {
	return func(o *options) error { return runPipeline(o, newCmd()) }
}

// runPipeline runs an estimating command: it checks the flags, the
// arguments, the settings and the output files before any work, creates the
// output files, reads the inputs, estimates, prints the result, writes the
// other outputs and the plot, and renames the output files into place once
// everything succeeded, after the result is printed; on failure or
// interruption it removes them, leaving the destinations as they were.
func runPipeline(o *options, cmd command) error {
	start := time.Now()
	j, err := newJob(o)
	if err != nil {
		return err
	}
	p, err := cmd.parse(o)
	if err != nil {
		return err
	}
	inputs := p.inputs
	if err := cmd.estimatorSettings(j.settings, p.permutations).Validate(); err != nil {
		return err
	}
	if j.settings.Exact {
		if err := checkExact(o, p.paired, inputs); err != nil {
			return err
		}
	}
	if err := checkMemory(cmd, p, j.settings, fileShape(inputs, j.reader.reservoir, p.cols[0], p.cols[1], p.paired, j.settings.Exact), j.budget, ""); err != nil {
		return err
	}
	outs := append(p.outs, output{"--plot", j.plot})
	files, release, err := createOutputs(o, inputs, outs)
	defer release()
	if err != nil {
		return err
	}

	a, b, err := cmd.read(j.reader)
	if err != nil {
		return diagnoseRead(err, inputs)
	}
	if err := checkMemory(cmd, p, j.settings, shapeOf(a, b), j.budget, " on the rows read"); err != nil {
		return err
	}
	if err := checkMagnitude(a, b); err != nil {
		return err
	}
	load := time.Since(start)
	s := j.settings
	done := func() {}
	if p.steps != "" {
		s.Progress, done = j.prog.Steps(p.steps)
	}
	err = cmd.estimate(o.ctx, s, a, b)
	done()
	if err != nil {
		return err
	}
	res := cmd.result(j.seed)
	if !j.settings.Exact && j.settings.Draws == 1 {
		withoutStdErr(res)
	}
	res.summary().add("timing", timing{load: load, estimate: time.Since(start) - load})

	// The files first, the result last: an output that fails (a full
	// disk, /dev/full) or an interrupt during the second pass leaves
	// nothing printed, and nothing replaced.
	extra, plot := files[:len(files)-1], files[len(files)-1]
	if err := cmd.writeOutputs(j.reader, extra); err != nil {
		return err
	}
	if plot != nil {
		if err := cmd.plot(plot.name(), j.seed); err != nil {
			return err
		}
	}
	if err := o.ctx.Err(); err != nil {
		return err
	}
	if err := res.writeTo(o.stdout, j.format); err != nil {
		return err
	}
	return commitOutputs(files)
}

// newJob checks the common options of the estimating commands that the
// library does not: the frame's (newFrame), the flags --exact refuses, and
// the reading flags. Mistakes are usage errors that name the flag.
func newJob(o *options) (*job, error) {
	j := &job{opt: o, seed: o.seed, plot: o.plot}
	var err error
	if j.frame, err = newFrame(o, formatNames); err != nil {
		return nil, err
	}
	j.settings = o.est
	j.settings.Src = seedSource(j.seed)
	if j.settings.Exact {
		// The all-centre solution takes every row as a centre, averages
		// over every row, once, and keeps every row: these do not apply.
		for _, name := range []string{"k", "m", "draws", "reservoir"} {
			if o.given[name] {
				return nil, usageErr("--%s and --exact: the exact solution uses every row (k = n, exact averages, one draw, no reservoir); leave --%s out", name, name)
			}
		}
	}
	if j.reader, err = newReader(o, j.prog, &j.settings); err != nil {
		return nil, err
	}
	if r := o.reservoir; r == 1 {
		return nil, usageErr("--reservoir 1: an estimate needs at least 2 rows per sample (0: the default)")
	}
	return j, nil
}
