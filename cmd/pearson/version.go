// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

// versionLine is what --version prints: the version, then the commit the
// binary was built from and whether its tree had uncommitted changes, as
// the go command records them (go build and go install inside a git
// checkout; go run and test binaries record none, and say "commit unknown").
func versionLine(name string, info *debug.BuildInfo, ok bool) string {
	line := fmt.Sprintf("%s version %s", name, version)
	var rev, modified, date string
	if ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			case "vcs.time":
				date = s.Value
			}
		}
	}
	if rev == "" {
		return line + " (commit unknown), " + goVersion(info, ok) + "\n"
	}
	line += " (commit " + rev
	if date != "" {
		line += " of " + date
	}
	if modified == "true" {
		line += ", with uncommitted changes"
	}
	return line + "), " + goVersion(info, ok) + "\n"
}

func goVersion(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return "go unknown"
	}
	return info.GoVersion
}

// printVersion writes versionLine of the running binary to the app's
// standard output.
func printVersion(c *cli.Context) error {
	info, ok := debug.ReadBuildInfo()
	_, err := fmt.Fprint(c.App.Writer, versionLine(c.App.Name, info, ok))
	return err
}
