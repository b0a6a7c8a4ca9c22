// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
)

// parquetRows returns the rows of the Parquet input at path (a directory,
// a file whose name ends in .parquet or whose first bytes are "PAR1"),
// counted from its footers without reading a row, and false for any other
// input, or one that does not open (the read then says why).
func parquetRows(path string) (int64, bool) {
	if path == "-" {
		return 0, false
	}
	fi, err := os.Stat(path)
	if err != nil {
		return 0, false
	}
	if !fi.IsDir() {
		if !fi.Mode().IsRegular() {
			return 0, false
		}
		if !strings.HasSuffix(path, ".parquet") {
			f, err := os.Open(path)
			if err != nil {
				return 0, false
			}
			head := make([]byte, 4)
			_, err = io.ReadFull(f, head)
			f.Close()
			if err != nil || string(head) != "PAR1" {
				return 0, false
			}
		}
	}
	p, err := dataset.OpenParquet(path, dataset.Options{})
	if err != nil {
		return 0, false
	}
	defer p.Close()
	return p.Rows(), true
}

// checkExactParquet refuses --exact before any row is read when the Parquet
// file of the centres holds more than MaxExact rows by its footer: reading
// them first took 2 s and 1.4 GB on 2·10⁷ rows, only to be refused.
func checkExactParquet(c *cli.Context, path string, rows int64) error {
	if rows > divergence.MaxExact {
		return usagef(c, "--exact: %s holds %d rows (from its Parquet footer); the exact solution takes at most %d: leave --exact out", displayPath(path), rows, divergence.MaxExact)
	}
	return nil
}

// maxWork bounds the kernel evaluations of a run's draws, counted as
// points averaged × centres × draws (× features for rank): 2·10⁸. The
// default settings count 2.4·10⁶; pe with --m 40000 on 2·10⁵ rows counts
// 2.4·10⁷ and took 9 s on a loaded 2-core machine, and 2.4·10⁸ (every row)
// several minutes, so that the bound stands for minutes of work. A run
// beyond it (such as `pe --m 100000000` on 10⁶ rows, 1.2·10⁹, which ran 11
// minutes with no output) is refused once its rows are read, before any
// estimate, naming the flags to lower.
const maxWork = 2e8

// maxColumns bounds the columns that rank and drift (driftCmd.compare)
// compare one by one:
// 10 000. Each is an estimate of its own, so that a file of 10⁵ columns
// ran for hours with no end in sight.
const maxColumns = 10_000

// checkWork refuses a run whose work on samples of shape sh exceeds
// maxWork, or rank on more than maxColumns features, once the samples are
// read (when is not empty): the shape before reading is a bound on the rows
// (two bytes a value), too loose to refuse a run by.
func checkWork(c *cli.Context, cmd command, s divergence.Settings, sh shape, when string) error {
	if when == "" || sh.ra >= unknownRows || sh.rb >= unknownRows {
		return nil
	}
	_, isRank := cmd.(*rankCmd)
	if isRank && sh.ca > maxColumns {
		return usagef(c, "rank compares %d features one by one, more than the %d it takes: name fewer with --features", sh.ca, maxColumns)
	}
	m, k, draws := s.M, s.K, s.Draws
	if m == 0 {
		m = divergence.DefaultM
	}
	if k == 0 {
		k = divergence.DefaultK
	}
	if draws == 0 {
		draws = divergence.DefaultDraws
	}
	if s.Exact {
		return nil // bounded by MaxExact
	}
	rows := sh.ra
	switch cmd.(type) {
	case *peCmd, *testCmd:
		rows = sh.ra + sh.rb
	}
	points := float64(min(m, max(rows, 1)))
	work := points * float64(min(k, max(rows, 1))) * float64(draws)
	if isRank {
		work *= float64(max(sh.ca, 1))
	}
	if work > maxWork {
		return usagef(c, "the run would average over %.0f points with %d centres in each of %d draws%s: %.1e kernel evaluations, more than the bound of %.0e (minutes to hours of work): lower --m, --k or --draws",
			points, min(k, max(rows, 1)), draws, map[bool]string{true: fmt.Sprintf(" for each of %d features", sh.ca)}[isRank], work, maxWork)
	}
	return nil
}
