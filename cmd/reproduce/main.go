// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/sublinear/pearson/internal/progress"
)

// Exit codes, as pearson's.
const (
	exitOK    = 0 // success
	exitData  = 1 // a runtime error
	exitUsage = 2 // a usage error: unknown flag, bad flag value, an argument
)

const usage = `usage: reproduce [--out DIR] [--experiment toy|pearson|all] [--seeds 10] [--quick] [--progress auto|always|never]

Re-runs the experiments of Hayashi & Yoshida (NIPS 2016), Section 5.

Figure 1 (toy): problems A ~ U[-1,1], d ~ U[0,1], b ~ U[-1,1] over the box [-1,1]^n, n from 200
to 2000, k from 10 to 160: the error |z - z*|/n² of Algorithm 1 against the exact minimum.
Tables 1 and 2 (pearson): the α-relative Pearson divergence of N(1, 0.5²) (n from 500 to 5000)
and N(1.5, 0.5²) (200 points), σ and λ cross-validated once per seed: error against the
all-centre value and runtime of Algorithm 1 and of Nyström's method in the paper's form and a
stable form. Writes results.json (every measurement), tables.md and figure1.png/.svg to --out,
and prints the tables. The full run takes several minutes; --quick runs a small version.

Options:
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := runContext(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Run runs the command with the command line args (without the program's
// name), writing the tables to stdout and diagnostics to stderr, and returns
// the exit code: 0 on success, 1 for a runtime error, 2 for a usage error.
func Run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdout, stderr)
}

// runContext is Run with a context whose cancellation (an interrupt, from
// main) stops the experiments.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("reproduce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "reproduce-out", "directory for the results")
	experiment := fs.String("experiment", "all", "toy, pearson or all")
	seeds := fs.Int("seeds", 10, "random problems per setting")
	quick := fs.Bool("quick", false, "a small version (fewer sizes, at most 3 seeds)")
	mode := fs.String("progress", string(progress.Auto), "progress bars on standard error: auto (only on a terminal), always, never")
	printUsage := func(w io.Writer) {
		fmt.Fprint(w, usage)
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	fs.Usage = func() {} // printed below, on the right writer
	usageError := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reproduce: "+format+"\n", a...)
		printUsage(stderr)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout)
			return exitOK
		}
		printUsage(stderr) // after the flag package's message
		return exitUsage
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	cfg := Config{Seeds: *seeds, Quick: *quick}
	switch e := *experiment; e {
	case "all":
		cfg.Experiments = []string{Toy, Pearson}
	case Toy, Pearson:
		cfg.Experiments = []string{e}
	default:
		return usageError("unknown --experiment %q: use toy, pearson or all", e)
	}
	if cfg.Seeds < 1 || cfg.Seeds > 1000 {
		return usageError("--seeds %d: need 1 to 1000", cfg.Seeds)
	}
	bars, err := progress.New(stderr, progress.Mode(*mode))
	if err != nil {
		return usageError("unknown --progress %q: use auto, always or never", *mode)
	}
	if err := reproduce(ctx, cfg, *out, bars, stdout, stderr); err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(stderr, "reproduce: interrupted")
		} else {
			fmt.Fprintln(stderr, err)
		}
		return exitData
	}
	return exitOK
}

// reproduce runs the experiments of cfg, writes their files to the
// directory out and prints the tables on stdout.
func reproduce(ctx context.Context, cfg Config, out string, bars *progress.Bars, stdout, stderr io.Writer) error {
	// The run takes minutes: find an unwritable --out before it.
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("reproduce: --out: %w", err)
	}
	probe, err := os.CreateTemp(out, ".pearson-*")
	if err != nil {
		return fmt.Errorf("reproduce: --out: %w", err)
	}
	probe.Close()
	os.Remove(probe.Name())
	var done func()
	cfg.Progress, done = bars.Steps("problems")
	rep, err := runExperiments(ctx, cfg)
	done()
	if err != nil {
		return err
	}
	paths, err := rep.WriteFiles(out)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(stdout, rep.Markdown()); err != nil {
		return fmt.Errorf("reproduce: %w", err)
	}
	for _, p := range paths {
		fmt.Fprintf(stderr, "reproduce: wrote %s\n", p)
	}
	return nil
}
