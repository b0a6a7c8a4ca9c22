// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// libraryFlagStringer is the flag library's own line of a flag in --help.
var libraryFlagStringer = cli.FlagStringer

func init() {
	// Set once, before any app runs: the flag library only reads it, while
	// printing help.
	cli.FlagStringer = helpFlagLine
}

// helpFlagLine is a flag's line in --help: the flag library's, with the
// flag's name written with two dashes whatever its length (--k, --m), as the
// documentation writes it (one dash works as well). A one-letter alias keeps
// its one dash (--help, -h).
func helpFlagLine(f cli.Flag) string {
	line := libraryFlagStringer(f)
	names := f.Names()
	if len(names) == 0 || len(names[0]) != 1 {
		return line
	}
	short := "-" + names[0]
	head, tail, found := strings.Cut(line, "\t")
	// The name opens the line, and again a slice flag's " [ -k value ]".
	if strings.HasPrefix(head, short) {
		head = "-" + head
	}
	head = strings.ReplaceAll(head, "[ "+short, "[ -"+short)
	if !found {
		return head
	}
	return head + "\t" + tail
}
