// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sublinear/pearson/internal/testtier"
)

// TestSIGINTAtLargeK sends a real SIGINT to `pearson pe --k 2000` and to
// `pearson mi --k 1000` a second into their work, each step of which is
// seconds of k×k linear algebra (a Gram average over the averaging points,
// a Cholesky factorisation, LSMI's eigendecompositions) without a
// cancellation point of its own: the process must exit with code 130 about
// 100 ms later (stopWithin allows for a loaded machine), leaving the
// earlier output file as it was.
func TestSIGINTAtLargeK(t *testing.T) {
	testtier.Long(t, "child processes at k = 1000 and 2000")
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send")
	}
	t.Parallel()
	p, q := bigFile(t, "p.csv", 3000, 0), bigFile(t, "q.csv", 3000, 0.5)
	for _, c := range []struct {
		name, out string // the command, and the name of its earlier output file
		args      func(out string) []string
	}{
		{"pe", "ratio.csv", func(out string) []string {
			return []string{"pearson", "pe", "--k", "2000", "--m", "4000", "--draws", "2", "--sigma", "1", "--lambda", "0.1", "--max-memory", "8G", "--ratio-out", out, p, q}
		}},
		{"mi", "null.svg", func(out string) []string {
			return []string{"pearson", "mi", "--x", "x", "--y", "y", "--k", "1000", "--max-memory", "8G", "--permutations", "20", "--plot", out, p}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, check := oldOutput(t, t.TempDir(), c.out)
			cmd := childCommand(context.Background(), c.args(out))
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Second)
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			err := cmd.Wait()
			took := time.Since(start)
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("the run ended with %v before or despite the interruption; stdout %q, stderr %q", err, stdout.String(), stderr.String())
			}
			if stdout.Len() != 0 {
				t.Errorf("output after an interruption: %q", stdout.String())
			}
			checkInterrupted(t, exit.ExitCode(), stderr.String(), took)
			check()
		})
	}
}
