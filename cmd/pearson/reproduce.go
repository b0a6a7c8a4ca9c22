// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/sublinear/pearson/cmd/pearson/internal/reproduce"
)

func reproduceCommand() *cli.Command {
	return &cli.Command{
		Name:      "reproduce",
		Usage:     "re-run the experiments of Hayashi & Yoshida (NIPS 2016), Section 5",
		UsageText: "pearson reproduce [--out DIR] [--experiment toy|pearson|all] [--seeds 10] [--quick] [--progress auto|always|never]",
		Description: "Figure 1 (toy): problems A ~ U[-1,1], d ~ U[0,1], b ~ U[-1,1] over the box [-1,1]^n, n from 200\n" +
			"to 2000, k from 10 to 160: the error |z - z*|/n² of Algorithm 1 against the exact minimum.\n" +
			"Tables 1 and 2 (pearson): the α-relative Pearson divergence of N(1, 0.5²) (n from 500 to 5000)\n" +
			"and N(1.5, 0.5²) (200 points), σ and λ cross-validated once per seed: error against the\n" +
			"all-centre value and runtime of Algorithm 1 and of Nyström's method in the paper's form and a\n" +
			"stable form. Writes results.json (every measurement), tables.md and figure1.png/.svg to --out,\n" +
			"and prints the tables. The full run takes several minutes; --quick runs a small version.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Value: "reproduce-out", Usage: "directory for the results"},
			&cli.StringFlag{Name: "experiment", Value: "all", Usage: "toy, pearson or all"},
			&cli.IntFlag{Name: "seeds", Value: 10, Usage: "random problems per setting"},
			&cli.BoolFlag{Name: "quick", Usage: "a small version (fewer sizes, at most 3 seeds)"},
			progressFlag(),
		},
		Action: runReproduce,
	}
}

func runReproduce(c *cli.Context) error {
	if c.Args().Present() {
		return usagef(c, "unexpected argument %q", c.Args().First())
	}
	cfg := reproduce.Config{Seeds: c.Int("seeds"), Quick: c.Bool("quick")}
	switch e := c.String("experiment"); e {
	case "all":
		cfg.Experiments = []string{reproduce.Toy, reproduce.Pearson}
	case reproduce.Toy, reproduce.Pearson:
		cfg.Experiments = []string{e}
	default:
		return usagef(c, "unknown --experiment %q: use toy, pearson or all", e)
	}
	if cfg.Seeds < 1 || cfg.Seeds > 1000 {
		return usagef(c, "--seeds %d: need 1 to 1000", cfg.Seeds)
	}
	prog, err := newProgress(c)
	if err != nil {
		return err
	}
	// The run takes minutes: find an unwritable --out before it.
	out := c.String("out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	probe, err := os.CreateTemp(out, ".pearson-*")
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	probe.Close()
	os.Remove(probe.Name())
	var done func()
	cfg.Progress, done = prog.steps("problems")
	rep, err := reproduce.Run(c.Context, cfg)
	done()
	if err != nil {
		return err
	}
	paths, err := rep.WriteFiles(out)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(c.App.Writer, rep.Markdown()); err != nil {
		return err
	}
	for _, p := range paths {
		fmt.Fprintf(c.App.ErrWriter, "pearson: wrote %s\n", p)
	}
	return nil
}
