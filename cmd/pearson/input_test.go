// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// rows is an input of a header and numbered rows that fails after max
// rows: a reader that nobody stops runs into the failure.
type rows struct{ n, max int }

func (r *rows) Read(p []byte) (int, error) {
	if r.n == r.max {
		return 0, errors.New("read to the end: the context did not stop the reading")
	}
	r.n++
	if r.n == 1 {
		return copy(p, "x\n"), nil
	}
	return copy(p, "1.5\n"), nil
}

// TestReadInterrupted checks that the command's context reaches the read
// loop: a cancelled context stops the reading of an input, which reports
// the interruption and nothing else.
func TestReadInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := Run(ctx, []string{"pearson", "divergence", "-", writeFile(t, "q.csv", "x\n1\n2\n")}, &rows{max: 1_000_000}, &out, &errb)
	if code != exitInterrupt || out.Len() != 0 || !strings.HasPrefix(errb.String(), "pearson: interrupted") {
		t.Errorf("code %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

// unread is an input that must not be read.
type unread struct{}

func (unread) Read([]byte) (int, error) {
	return 0, errors.New("the input was read before the settings were checked")
}

// TestSettingsBeforeReading checks that a setting the library refuses is a
// usage error before any input is read.
func TestSettingsBeforeReading(t *testing.T) {
	t.Parallel()
	q := writeFile(t, "q.csv", "x,y\n1,2\n2,3\n")
	for _, args := range [][]string{
		{"divergence", "--k", "-5", "-", q},
		{"test", "--alpha", "1", "-", q},
		{"mi", "--x", "x", "--y", "y", "--sigma-y", "-1", "-"},
		{"mi", "--x", "x", "--y", "y", "--permutations", "-1", "-"},
		{"rank", "--target", "y", "--folds", "1", "-"},
	} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), append([]string{"pearson"}, args...), unread{}, &out, &errb)
		if code != exitUsage || out.Len() != 0 || !strings.Contains(errb.String(), "usage: pearson "+args[0]) {
			t.Errorf("%v: code %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
}
