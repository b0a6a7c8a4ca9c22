// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"github.com/urfave/cli/v2"

	"github.com/sublinear/pearson/internal/progress"
)

func progressFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "progress", Value: string(progress.Auto), Usage: "progress bars on standard error: auto (only on a terminal), always, never"}
}

// newProgress reads --progress.
func newProgress(o *options) (*progress.Bars, error) {
	mode := o.progress
	p, err := progress.New(o.stderr, progress.Mode(mode))
	if err != nil {
		return nil, usageErr("unknown --progress %q: use auto, always or never", mode)
	}
	return p, nil
}
