// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
)

// Values of --progress.
const (
	progressAuto   = "auto"
	progressAlways = "always"
	progressNever  = "never"
)

func progressFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "progress", Value: progressAuto, Usage: "progress bars on standard error: auto (only on a terminal), always, never"}
}

// progress draws progress bars on standard error, never on standard output.
// A disabled progress does nothing.
type progress struct {
	w       io.Writer
	enabled bool
	mu      sync.Mutex
	bar     *progressbar.ProgressBar
}

// newProgress reads --progress.
func newProgress(c *cli.Context) (*progress, error) {
	p := &progress{w: c.App.ErrWriter}
	switch mode := c.String("progress"); mode {
	case progressAuto:
		p.enabled = isTerminal(p.w)
	case progressAlways:
		p.enabled = true
	case progressNever:
	default:
		return nil, usagef(c, "unknown --progress %q: use auto, always or never", mode)
	}
	return p, nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func (p *progress) newBar(max int64, desc string, bytes bool) *progressbar.ProgressBar {
	return progressbar.NewOptions64(max,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowBytes(bytes),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}

// reader returns r, counting its bytes on a bar when enabled and the size
// (of a file) is known, and a function that ends the bar.
func (p *progress) reader(r io.Reader, size int64, desc string) (io.Reader, func()) {
	if !p.enabled || size <= 0 {
		return r, func() {}
	}
	bar := p.newBar(size, desc, true)
	pr := progressbar.NewReader(r, bar)
	return &pr, func() { bar.Finish() }
}

// steps returns a callback for divergence.Settings.Progress that draws a bar
// of the steps done, and a function that ends it; nil when disabled.
func (p *progress) steps(desc string) (func(done, total int), func()) {
	if !p.enabled {
		return nil, func() {}
	}
	return func(done, total int) {
			p.mu.Lock()
			defer p.mu.Unlock()
			if p.bar == nil {
				p.bar = p.newBar(int64(total), desc, false)
			}
			p.bar.Set(done)
		}, func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			if p.bar != nil {
				p.bar.Finish()
				p.bar = nil
			}
		}
}
