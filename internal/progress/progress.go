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
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
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
	p := &Bars{w: &lockedWriter{w: w}}
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

// isTerminal reports whether w is a terminal. A character device is not
// enough: /dev/null is one, and a bar drawn there is wasted work.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Enabled reports whether the bars are drawn, for a caller whose total
// costs something to find.
func (p *Bars) Enabled() bool { return p.enabled }

func (p *Bars) newBar(max int64, desc string, bytes bool, more ...progressbar.Option) *progressbar.ProgressBar {
	return progressbar.NewOptions64(max, append([]progressbar.Option{
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowBytes(bytes),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
	}, more...)...)
}

// Bytes returns a callback for dataset.Options.Progress that draws a bar of
// the bytes read out of the size of a file (no bar when the size is not
// known, as for standard input), and a function that ends the bar; the
// callback is nil when the bars are disabled.
func (p *Bars) Bytes(desc string) (func(read, size int64), func()) {
	if !p.enabled {
		return nil, func() {}
	}
	var bar *progressbar.ProgressBar
	return func(read, size int64) {
			if size <= 0 {
				return
			}
			if bar == nil {
				bar = p.newBar(size, desc, true)
			}
			bar.Set64(read)
		}, func() {
			if bar != nil {
				bar.Finish()
			}
		}
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

// Count returns a callback that draws a bar of the things done (rows, say,
// in unit) out of total, with their rate and, when total > 0, the time
// left; a total ≤ 0 is unknown (the bar then shows the count, the rate
// and the time spent), and so becomes an estimated total the count passes.
// The caller calls it with the count after every thing done, which costs
// it an atomic store: a goroutine draws the count every 100 ms, however
// fast or slow the things come. The function returned stops it, draws the
// last count and ends the bar; calls after the first do nothing. The
// callback is nil when the bars are disabled.
func (p *Bars) Count(desc, unit string, total int64) (func(done int64), func()) {
	if !p.enabled {
		return nil, func() {}
	}
	var done atomic.Int64
	if total <= 0 {
		total = -1
	}
	bar := p.newBar(total, desc, false, progressbar.OptionShowIts(), progressbar.OptionSetItsString(unit))
	bar.Set64(0) // drawn at once: a bar reaching its total in one step is only cleared
	draw := func() {
		n := done.Load()
		bar.Set64(n) // past the total, counted but not drawn: ChangeMax64 does
		if total > 0 && n > total {
			total = -1
			bar.ChangeMax64(-1)
		}
	}
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				draw()
			}
		}
	}()
	var once sync.Once
	return done.Store, func() {
		once.Do(func() {
			close(stop)
			<-stopped
			draw()
			bar.Finish()
		})
	}
}

// Requests returns a callback that draws the requests of a remote read:
// those in flight now, those made and the bytes fetched (as
// objstore.Store.Stats counts them), and a function that ends it; the
// callback is nil when the bars are disabled. The caller calls it as often
// as it likes: the bar is redrawn at most every 100 ms.
func (p *Bars) Requests(desc string) (func(inFlight, requests, bytes int64), func()) {
	if !p.enabled {
		return nil, func() {}
	}
	var mu sync.Mutex
	var bar *progressbar.ProgressBar
	finished := false
	return func(inFlight, requests, bytes int64) {
			mu.Lock()
			defer mu.Unlock()
			if finished {
				return
			}
			if bar == nil {
				bar = p.newBar(-1, desc, true)
			}
			bar.Describe(fmt.Sprintf("%s: %d requests in flight, %d made", desc, inFlight, requests))
			bar.Set64(bytes)
		}, func() {
			mu.Lock()
			defer mu.Unlock()
			finished = true
			if bar != nil {
				bar.Finish()
			}
		}
}

// lockedWriter serializes the writes of the bars, which may be drawn from
// several goroutines at once (the requests of a remote read are drawn by a
// ticker while the bytes of a file are drawn by its reader).
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
