// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package progress draws the progress bars of the pearson and reproduce
// commands on standard error, never on standard output: the bytes of a file
// read, and the steps of a long computation.
package progress

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Mode says when bars are drawn.
type Mode string

// The modes, as the commands' --progress flag spells them.
const (
	Auto   Mode = "auto"   // only when the writer is a terminal
	Always Mode = "always" // always
	Never  Mode = "never"  // never
)

// ErrMode means a Mode other than Auto, Always and Never.
var ErrMode = errors.New("progress: unknown mode")

// Bars draws progress bars on a writer. Disabled bars do nothing.
type Bars struct {
	w       io.Writer
	enabled bool
	mu      sync.Mutex
	bar     *progressbar.ProgressBar
}

// New returns the bars drawn on w in the given mode. An unknown mode is an
// error wrapping ErrMode.
func New(w io.Writer, mode Mode) (*Bars, error) {
	p := &Bars{w: w}
	switch mode {
	case Auto:
		p.enabled = isTerminal(w)
	case Always:
		p.enabled = true
	case Never:
	default:
		return nil, fmt.Errorf("%w %q: use auto, always or never", ErrMode, string(mode))
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

func (p *Bars) newBar(max int64, desc string, bytes bool) *progressbar.ProgressBar {
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

// Reader returns r, counting its bytes on a bar when enabled and the size
// (of a file) is known, and a function that ends the bar.
func (p *Bars) Reader(r io.Reader, size int64, desc string) (io.Reader, func()) {
	if !p.enabled || size <= 0 {
		return r, func() {}
	}
	bar := p.newBar(size, desc, true)
	pr := progressbar.NewReader(r, bar)
	return &pr, func() { bar.Finish() }
}

// Steps returns a callback that draws a bar of the steps done out of total
// (for divergence.Settings.Progress, say; safe for concurrent use), and a
// function that ends it; the callback is nil when the bars are disabled.
func (p *Bars) Steps(desc string) (func(done, total int), func()) {
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
