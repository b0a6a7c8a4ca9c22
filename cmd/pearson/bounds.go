// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"

	"github.com/sublinear/pearson/divergence"
)

// checkExactParquet refuses --exact before any row is read when the Parquet
// file of the centres holds more than MaxExact rows by its footer: reading
// them first took 2 s and 1.4 GB on 2·10⁷ rows, only to be refused.
func checkExactParquet(path string, rows int64) error {
	if rows > divergence.MaxExact {
		return usageErr("--exact: %s holds %d rows (from its Parquet footer); the exact solution takes at most %d: leave --exact out", displayPath(path), rows, divergence.MaxExact)
	}
	return nil
}

// maxWork bounds the kernel evaluations of one estimate's draws, counted
// as points averaged × centres × draws: 2·10⁸. The default settings count
// 2.4·10⁶; pe with --m 40000 on 2·10⁵ rows counts 2.4·10⁷ and took 9 s on
// a loaded 2-core machine, and 2.4·10⁸ (every row) several minutes, so
// that the bound stands for minutes of work. A run beyond it (such as
// `pe --m 100000000` on 10⁶ rows, 1.2·10⁹, which ran 11 minutes with no
// output) is refused once its rows are read, before any estimate, naming
// the flags to lower. rank's features are estimates of their own, each
// under the bound, run one after the other with progress shown feature by
// feature, and bounded in number by maxColumns, as drift's columns are.
const maxWork = 2e8

// maxColumns bounds the columns that rank and drift (driftCmd.compare)
// compare one by one:
// 10 000. Each is an estimate of its own, so that a file of 10⁵ columns
// ran for hours with no end in sight.
const maxColumns = 10_000

// checkWork refuses a run whose work on samples of shape sh exceeds
// maxWork an estimate, or that asks for more than maxColumns estimates
// (rank's features), once the samples are read (when is not empty): the
// shape before reading is a bound on the rows (two bytes a value), too
// loose to refuse a run by.
func checkWork(cmd command, permutations int, s divergence.Settings, sh shape, when string) error {
	if when == "" || sh.ra >= unknownRows || sh.rb >= unknownRows || s.Exact { // --exact: bounded by MaxExact
		return nil
	}
	w := cmd.estimatorSettings(s, permutations).work(sh)
	if w.estimates > maxColumns {
		return usageErr("rank compares %d features one by one, more than the %d it takes: name fewer with --features", w.estimates, maxColumns)
	}
	if work := w.points * w.centres * w.draws; work > maxWork {
		each := ""
		if w.estimates > 1 {
			each = fmt.Sprintf(" for each of %d features", w.estimates)
		}
		return usageErr("the run would average over %.0f points with %.0f centres in each of %.0f draws%s: %.1e kernel evaluations, more than the bound of %.0e (minutes to hours of work): lower --m, --k or --draws",
			w.points, w.centres, w.draws, each, work, maxWork)
	}
	return nil
}
