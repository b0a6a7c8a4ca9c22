// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"strings"
	"testing"
)

// TestChangepointStreamProgress checks that the streaming detector draws
// its bar of the rows scored on standard error with --progress always, out
// of the file's rows (a file this short is counted exactly) or as a count
// on standard input, and ends it (the counting is internal/progress's
// TestCount); that --progress never and auto off a
// terminal draw nothing; that the output is the same in every case; and
// that the notes of the read follow the bar's end.
func TestChangepointStreamProgress(t *testing.T) {
	t.Parallel()
	data := seriesCSV(300, 150)
	path := writeFile(t, "series.csv", data)
	args := []string{"changepoint", "--stream", "--columns", "x", "--format", "csv", "--window", "10"}
	_, want, _ := run(t, append(args, "--progress", "never", path)...)
	for _, tc := range []struct {
		mode, input, bar string
	}{
		{"always", path, "/300, "},
		{"always", "-", "/-, "},
		{"never", path, ""},
		{"auto", path, ""},
		{"auto", "-", ""},
	} {
		code, out, errs := runStdin(t, data, append(args, "--progress", tc.mode, tc.input)...)
		drawn := tc.bar != "" && strings.Contains(errs, "scoring") && strings.Contains(errs, tc.bar) && strings.HasSuffix(errs, "\r")
		if code != 0 || out != want || (tc.bar == "" && errs != "") || (tc.bar != "" && !drawn) {
			t.Errorf("--progress %s on %s: code %d, stdout same %v, stderr %q", tc.mode, tc.input, code, out == want, errs)
		}
	}
	// The note of the rows dropped comes after the bar is cleared, on a
	// line of its own.
	lines := strings.SplitAfter(data, "\n")
	lines[100] = "1198,NA,0\n"
	dropped := writeFile(t, "dropped.csv", strings.Join(lines, ""))
	code, _, errs := run(t, append(args, "--drop-missing", "--progress", "always", dropped)...)
	if i := strings.Index(errs, "pearson: "); code != 0 || i < 1 || errs[i-1] != '\r' || !strings.Contains(errs, "scoring") {
		t.Errorf("--drop-missing: code %d, stderr %q", code, errs)
	}
}
