// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"strings"
	"testing"
)

// TestChangepointProgress checks that the segmentation draws its bar on
// standard error with --progress always, and that the output is the one
// without it.
func TestChangepointProgress(t *testing.T) {
	t.Parallel()
	path := writeFile(t, "series.csv", seriesCSV(600, 300))
	args := []string{"changepoint", "--columns", "x", "--format", "csv", path}
	code, out, errs := run(t, append(args, "--progress", "always")...)
	_, quiet, qerrs := run(t, append(args, "--progress", "never")...)
	if code != 0 || out != quiet || !strings.Contains(errs, "segmenting") || qerrs != "" {
		t.Errorf("code %d, stdout same %v, stderr %q, quiet stderr %q", code, out == quiet, errs, qerrs)
	}
}
