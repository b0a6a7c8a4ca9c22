// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"slices"
	"strings"
)

// ratioHeader returns the header of --ratio-out: the file, the line, the
// group column in one-file mode, the feature columns and the ratio. A
// column the output adds ("file", "line", "ratio") that an input column
// already names is renamed with leading underscores until it is unique, so
// that every column of the output has its own name.
func ratioHeader(group string, columns []string) []string {
	taken := slices.Clone(columns)
	if group != "" {
		taken = append(taken, group)
	}
	added := func(name string) string {
		for slices.Contains(taken, name) {
			name = "_" + name
		}
		return name
	}
	header := []string{added("file"), added("line")}
	if group != "" {
		header = append(header, group)
	}
	return append(append(header, columns...), added("ratio"))
}

// ratioRows returns the rows the first pass read of the file path, the
// i-th input, and the group key whose rows count (all when ""): the second
// pass must see as many.
func ratioRows(in *twoSamples, i int) (want int, keys []string) {
	if in.group == "" {
		if i == 0 {
			return in.p.rows, nil
		}
		return in.q.rows, nil
	}
	return in.p.rows + in.q.rows, []string{
		strings.TrimPrefix(in.p.name, in.group+"="),
		strings.TrimPrefix(in.q.name, in.group+"="),
	}
}

// checkSecondPass returns an error when the second pass over the i-th
// input saw got rows where the first read want: the file changed between
// the passes, and the ratios written would not be those of the rows
// estimated from.
func checkSecondPass(in *twoSamples, i, got int) error {
	want, _ := ratioRows(in, i)
	if got != want {
		return fmt.Errorf("--ratio-out: %s: the second pass read %d rows, the first %d: the file changed during the run", displayPath(in.paths[i]), got, want)
	}
	return nil
}

// countsForRatio reports whether a row of group g of the i-th input counts
// towards the rows of the first pass.
func countsForRatio(in *twoSamples, i int, g string) bool {
	_, keys := ratioRows(in, i)
	return keys == nil || slices.Contains(keys, g)
}
