// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sublinear/pearson/internal/testtier"
)

// run calls Run with the arguments and returns the exit code and what was
// written to stdout and stderr.
func run(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCommand(t *testing.T) {
	testtier.SkipUnderRace(t)
	dir := t.TempDir()
	code, out, errs := run("--quick", "--experiment", "toy", "--seeds", "2", "--out", dir, "--progress", "never")
	if code != exitOK || !strings.Contains(out, "Figure 1") || !strings.Contains(errs, "figure1.png") {
		t.Errorf("code %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		text string
	}{
		{[]string{"--experiment", "figure9"}, `unknown --experiment "figure9"`},
		{[]string{"--seeds", "0"}, "--seeds 0"},
		{[]string{"--seeds", "x"}, `invalid value "x"`},
		{[]string{"--progress", "maybe"}, `unknown --progress "maybe"`},
		{[]string{"--nonsense"}, "flag provided but not defined: -nonsense"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		code, out, errs := run(tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, tc.text) || !strings.Contains(errs, "usage: reproduce") {
			t.Errorf("%q: code %d, stdout %q, stderr %q", tc.args, code, out, errs)
		}
	}
	code, out, errs := run("--help")
	if code != exitOK || !strings.Contains(out, "usage: reproduce") || !strings.Contains(out, "-experiment") || errs != "" {
		t.Errorf("--help: code %d, stdout %q, stderr %q", code, out, errs)
	}
}
