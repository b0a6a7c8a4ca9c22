// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
)

// writeRatio writes r̂ at every row of the input files to f: a CSV with
// the file, the line, the group value in one-file mode, the feature columns
// and the ratio. The files are streamed again, so memory stays bounded.
func writeRatio(f io.Writer, r *divergence.Ratio, in *twoSamples, rd *reader) error {
	bw := bufio.NewWriter(f)
	w := csv.NewWriter(bw)
	w.Write(ratioHeader(in.group, in.columns))
	dim := len(in.columns)
	type row struct {
		group string
		line  int
	}
	const block = 4096
	buf := mat.NewDense(block, dim, nil)
	scaled := mat.NewDense(block, dim, nil) // as the estimator saw them
	var pending []row
	var file string
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		for i := range pending {
			copy(scaled.RawRowView(i), buf.RawRowView(i))
			in.scale.Apply(scaled.RawRowView(i))
		}
		v, err := r.Eval(scaled.Slice(0, len(pending), 0, dim))
		if err != nil {
			return err
		}
		for i, p := range pending {
			rec := []string{file, fmt.Sprint(p.line)}
			if in.group != "" {
				rec = append(rec, p.group)
			}
			for _, x := range buf.RawRowView(i) {
				rec = append(rec, formatFloat(x))
			}
			w.Write(append(rec, formatFloat(v[i])))
		}
		pending = pending[:0]
		return w.Error()
	}
	for i, p := range in.paths {
		file = displayPath(p)
		seen := 0
		_, err := rd.scan(p, dataset.Query{Group: in.group, Columns: in.columns}, func(g string, line int, values []float64) error {
			if countsForRatio(in, i, g) {
				seen++
			}
			copy(buf.RawRowView(len(pending)), values)
			pending = append(pending, row{g, line})
			if len(pending) == block {
				return flush()
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := checkSecondPass(in, i, seen); err != nil {
			return err
		}
		if err := flush(); err != nil {
			return err
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("--ratio-out: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("--ratio-out: %w", err)
	}
	return nil
}
