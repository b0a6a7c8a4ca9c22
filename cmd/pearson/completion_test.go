// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestCompletion checks that each shell's script names every command and
// every option of every command, and that bash and zsh (where installed)
// parse it.
func TestCompletion(t *testing.T) {
	t.Parallel()
	app := newApp(nil, nil, nil)
	for _, shell := range completionShells {
		code, script, stderr := run(t, "completion", shell)
		if code != exitOK {
			t.Fatalf("completion %s: exit %d: %s", shell, code, stderr)
		}
		for _, cmd := range app.Commands {
			for _, n := range cmd.Names() {
				if !strings.Contains(script, n) {
					t.Errorf("completion %s: no command %q", shell, n)
				}
			}
			for _, f := range cmd.Flags {
				if !strings.Contains(script, f.Names()[0]) {
					t.Errorf("completion %s: %s has no option %q", shell, cmd.Name, f.Names()[0])
				}
			}
		}
		if shell == "fish" {
			continue
		}
		bin, err := exec.LookPath(shell)
		if err != nil {
			t.Logf("%s is not installed: its script's syntax is not checked", shell)
			continue
		}
		check := exec.Command(bin, "-n")
		check.Stdin = strings.NewReader(script)
		if out, err := check.CombinedOutput(); err != nil {
			t.Errorf("%s -n on the script: %v\n%s", shell, err, out)
		}
	}
	if code, _, stderr := run(t, "completion", "tcsh"); code != exitUsage || !strings.Contains(stderr, "bash, zsh, fish") {
		t.Errorf("completion tcsh: exit %d, %q; want a usage error naming the shells", code, stderr)
	}
}

// TestCompletionBash completes a few command lines with the bash script, as
// bash's programmable completion would call it.
func TestCompletionBash(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	_, script, _ := run(t, "completion", "bash")
	for _, c := range []struct{ line, want, not string }{
		{"pearson dri", "drift", "divergence"},
		{"pearson drift --fail", "--fail-on-drift", "--group"},
		{"pearson pe --exa", "--exact", "--exclude"},
		{"pearson completion z", "zsh", "bash"},
	} {
		prog := script + "COMP_WORDS=(" + c.line + "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _pearson; echo \"${COMPREPLY[*]}\"\n"
		out, err := exec.Command(bash, "-c", prog).CombinedOutput()
		got := strings.TrimSpace(string(out))
		if err != nil || !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("%q completes to %q (%v); want %q, not %q", c.line, got, err, c.want, c.not)
		}
	}
}

// TestManPage compares docs/pearson.1 with what pearson man prints now: the
// page is generated from the help text, like docs/cli.md, and -update
// rewrites it:
//
//	go test ./cmd/pearson -run TestManPage -update
func TestManPage(t *testing.T) {
	t.Parallel()
	code, page, stderr := run(t, "man")
	if code != exitOK {
		t.Fatalf("man: exit %d: %s", code, stderr)
	}
	for _, cmd := range newApp(nil, nil, nil).Commands {
		if !strings.Contains(page, cmd.Name) {
			t.Errorf("the man page has no command %q", cmd.Name)
		}
	}
	name := filepath.Join("..", "..", "docs", "pearson.1")
	if *update {
		if err := os.WriteFile(name, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("%v (go test ./cmd/pearson -run TestManPage -update writes it)", err)
	}
	if string(old) != page {
		t.Errorf("docs/pearson.1 is stale (go test ./cmd/pearson -run TestManPage -update rewrites it):\n%s", firstDifference(string(old), page))
	}
}

// TestVersionLine checks --version's line with and without a commit.
func TestVersionLine(t *testing.T) {
	t.Parallel()
	info := &debug.BuildInfo{GoVersion: "go1.99", Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-11-27T14:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	for _, c := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{info, true, "pearson version " + version + " (commit 0123abcd of 2026-11-27T14:00:00Z, with uncommitted changes), go1.99\n"},
		{&debug.BuildInfo{GoVersion: "go1.99"}, true, "pearson version " + version + " (commit unknown), go1.99\n"},
		{nil, false, "pearson version " + version + " (commit unknown), go unknown\n"},
	} {
		if got := versionLine("pearson", c.info, c.ok); got != c.want {
			t.Errorf("versionLine = %q, want %q", got, c.want)
		}
	}
	if code, out, _ := run(t, "--version"); code != exitOK || !strings.HasPrefix(out, "pearson version "+version+" (commit ") {
		t.Errorf("pearson --version: exit %d, %q", code, out)
	}
}
