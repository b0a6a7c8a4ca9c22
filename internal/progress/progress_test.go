// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package progress

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("%s is taken for a terminal", os.DevNull)
	}
	b, err := New(f, Auto)
	if err != nil || b.enabled {
		t.Errorf("auto on %s: enabled %v, %v", os.DevNull, b != nil && b.enabled, err)
	}
	if isTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is taken for a terminal")
	}
}

func TestModes(t *testing.T) {
	var w bytes.Buffer
	for _, tc := range []struct {
		mode    Mode
		enabled bool
	}{{Auto, false}, {Always, true}, {Never, false}} {
		b, err := New(&w, tc.mode)
		if err != nil || b.enabled != tc.enabled {
			t.Errorf("%s: enabled %v, %v", tc.mode, b.enabled, err)
		}
	}
	if _, err := New(&w, "maybe"); !errors.Is(err, ErrMode) || !strings.Contains(err.Error(), `"maybe"`) {
		t.Errorf("unknown mode: %v", err)
	}
}

func TestBars(t *testing.T) {
	var w bytes.Buffer
	b, _ := New(&w, Never)
	if fn, done := b.Bytes("reading"); fn != nil {
		t.Error("disabled bars return a callback")
	} else {
		done()
	}
	b, _ = New(&w, Always)
	fn, done := b.Bytes("reading")
	fn(10, 0) // size unknown: no bar
	if w.Len() != 0 {
		t.Errorf("a bar without a size: %q", w.String())
	}
	fn(50, 100)
	fn(100, 100)
	done()
	step, end := b.Steps("steps")
	step(1, 4)
	step(4, 4)
	end()
	if !strings.Contains(w.String(), "reading") || !strings.Contains(w.String(), "steps") {
		t.Errorf("bars: %q", w.String())
	}
}

// TestCount checks the bar of a count, drawn at once and after 100 ms:
// out of a known total, out of an estimate the count passes (then
// unknown), and of an unknown total, with the rate in the unit given; and
// that it is ended, its line cleared.
func TestCount(t *testing.T) {
	var w bytes.Buffer
	b, _ := New(&w, Never)
	if fn, done := b.Count("scoring", "rows", 10); fn != nil {
		t.Error("disabled bars return a callback")
	} else {
		done()
	}
	for _, tc := range []struct {
		total, done   int64
		first, latest string
	}{{10, 4, "(0/10, ", "(4/10, "}, {10, 12, "(0/10, ", "(12/-, "}, {-1, 7, "(0/-, ", "(7/-, "}} {
		t.Run(tc.latest, func(t *testing.T) {
			t.Parallel()
			w := &lockedWriter{w: new(bytes.Buffer)}
			b, _ := New(w, Always)
			fn, done := b.Count("scoring", "rows", tc.total)
			for i := range tc.done {
				fn(i + 1)
			}
			// Drawn at the next tick not within 100 ms of the last drawing;
			// a loaded machine may take longer.
			for deadline := time.Now().Add(5 * time.Second); !strings.Contains(text(w), tc.latest) && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
			done()
			got := text(w)
			if !strings.Contains(got, "scoring") || !strings.Contains(got, tc.first) || !strings.Contains(got, tc.latest) || !strings.Contains(got, " rows/") || !strings.HasSuffix(got, "\r") {
				t.Errorf("total %d, %d done: %q", tc.total, tc.done, got)
			}
		})
	}
}

// text returns what the buffer behind w holds, read under w's lock.
func text(w *lockedWriter) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.(*bytes.Buffer).String()
}

// BenchmarkCount measures what Count's bar costs a row: the callback's
// store, and the drawings of the ticker's goroutine spread over the rows
// (the streaming detector takes some 22 µs a row).
func BenchmarkCount(b *testing.B) {
	bars, _ := New(io.Discard, Always)
	fn, done := bars.Count("scoring", "rows", int64(b.N))
	for i := range b.N {
		fn(int64(i + 1))
	}
	done()
}
