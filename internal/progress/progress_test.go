// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package progress

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
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
