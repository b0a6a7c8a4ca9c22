// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
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
