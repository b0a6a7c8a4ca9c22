// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/plots"
)

// plotPoints is the number of rows of each sample a picture shows.
const plotPoints = 5000

// firstColumn returns the first column of at most plotPoints rows of x,
// drawn at random (reproducibly) when there are more, with their rows.
func firstColumn(x *mat.Dense, rnd *rand.Rand) ([]float64, []int) {
	r, _ := x.Dims()
	rows := indices.Range(r)
	if r > plotPoints {
		rnd.Shuffle(r, func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		rows = rows[:plotPoints]
	}
	v := make([]float64, len(rows))
	for i, row := range rows {
		v[i] = x.At(row, 0)
	}
	return v, rows
}

// plotSamples draws the first feature of both samples and the fitted ratio:
// a curve for one-dimensional data, the ratio at sample rows otherwise.
func plotSamples(path string, in *twoSamples, res *divergence.PEResult, seed uint64) error {
	rnd := rand.New(rand.NewPCG(seed, 0x706c6f74))
	p, prow := firstColumn(in.p.x, rnd)
	q, qrow := firstColumn(in.q.x, rnd)
	s := plots.Samples{
		Title:      fmt.Sprintf("relative Pearson divergence (α = %g): %.4g ± %.2g", res.Alpha, res.PE, res.StdErr),
		Column:     in.columns[0],
		P:          p,
		Q:          q,
		NameP:      "P: " + in.p.name,
		NameQ:      "Q: " + in.q.name,
		RatioLabel: "fitted relative ratio",
	}
	if len(in.columns) == 1 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range append(append([]float64(nil), p...), q...) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		const n = 200
		grid := mat.NewDense(n, 1, nil)
		for i := range n {
			grid.Set(i, 0, lo+(hi-lo)*float64(i)/(n-1))
		}
		y, err := res.Ratio.Eval(grid)
		if err != nil {
			return err
		}
		s.RatioX, s.RatioY, s.RatioCurve = mat.Col(nil, 0, grid), y, true
	} else {
		s.Column += " (first of the columns)"
		for _, part := range []struct {
			x    *mat.Dense
			rows []int
		}{{in.p.x, prow}, {in.q.x, qrow}} {
			_, dim := part.x.Dims()
			pts := mat.NewDense(len(part.rows), dim, nil)
			for i, r := range part.rows {
				pts.SetRow(i, part.x.RawRowView(r))
			}
			y, err := res.Ratio.Eval(pts)
			if err != nil {
				return err
			}
			s.RatioX = append(s.RatioX, mat.Col(nil, 0, pts)...)
			s.RatioY = append(s.RatioY, y...)
		}
	}
	return plots.WriteSamples(path, s)
}

// plotNull draws a permutation test's null distribution and statistic.
func plotNull(path, title string, null []float64, observed float64) error {
	const statistic = "statistic (largest standardised over the kernel widths)"
	return plots.WriteNull(path, plots.Null{Title: title, Statistic: statistic, Null: null, Observed: observed})
}

// plotBars draws a ranking.
func plotBars(path, title string, labels []string, values, errs []float64) error {
	return plots.WriteBars(path, plots.Bars{Title: title, Value: "SMI", Labels: labels, Values: values, Errors: errs})
}
