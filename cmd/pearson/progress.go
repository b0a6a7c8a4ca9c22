// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"github.com/sublinear/pearson/dataset"
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

// noBars returns bars that are never drawn.
func noBars() *progress.Bars {
	p, _ := progress.New(io.Discard, progress.Never)
	return p
}

// streamBar returns the callback that draws the rows of path scored by
// changepoint's streaming detector, and the function that ends the bar;
// the callback is nil when bars are off. The total, and with it the time
// left, is the row count memory checks use (dataset.Inspect): exact for
// a CSV file up to 64 KiB or a Parquet input, estimated from the lines of
// the first 64 KiB of a longer CSV file, unknown for standard input, a
// compressed file or a URL, whose bar shows the rows and their rate.
func streamBar(p *progress.Bars, path string) (func(int64), func()) {
	if !p.Enabled() {
		return nil, func() {}
	}
	return p.Count("scoring "+displayPath(path), "rows", dataset.Inspect(path).Rows)
}
