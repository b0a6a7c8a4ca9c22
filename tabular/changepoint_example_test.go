// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// The examples run whole estimates, single-threaded arithmetic whose
// numbers they print: they gain nothing from the race detector, which the
// estimators' own packages run on their concurrent code (testtier,
// SkipUnderRace), and .ci/run runs them without it.

//go:build !race

package tabular_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/sublinear/pearson/changepoint"
	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/tabular"
)

// The call `pearson changepoint --time t --step 3
// testdata/examples/series.csv` makes: the default selection less the time
// column (the series x), pushed row by row into a detector scoring every
// third row at α = 0.1 with the command's seed 1, and each change point's
// row shown by its time label. The numbers are the command's
// (docs/cli.md).
func Example_changepoint() {
	src, err := dataset.Open("../testdata/examples/series.csv", dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	t, err := src.Sample(context.Background(), dataset.Query{}, dataset.Sampling{})
	if err != nil {
		log.Fatal(err)
	}
	series, err := tabular.Selection{Exclude: []string{"t"}}.Kept(t.Name, t.Columns, t.Skipped)
	if err != nil {
		log.Fatal(err)
	}
	s := &changepoint.Settings{Step: 3, Src: rand.NewPCG(1, 0x70656172736f6e)}
	d, err := changepoint.NewDetector(len(series), 0.1, s)
	if err != nil {
		log.Fatal(err)
	}
	g, c := t.Groups[0], len(t.Columns)
	label := func(row int) float64 { return g.Data[row*c] } // t is the first column
	for i := range g.Len() {
		if _, _, err := d.Push(context.Background(), g.Data[i*c+1:i*c+2]); err != nil {
			log.Fatal(err)
		}
	}
	rest, err := d.Flush()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("series", series)
	for _, p := range append(d.ChangePoints(), rest...) {
		fmt.Printf("time %g score %.6g\n", label(p.Time), p.Value)
	}
	// Output:
	// series [x]
	// time 126.5 score 4.46504
	// time 251 score 4.24624
	// time 374 score 4.48796
}
