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

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/tabular"
)

// readSample reads every row of the columns the selection keeps of the
// CSV file at path, as one sample.
func readSample(path string, sel tabular.Selection) (*mat.Dense, []string) {
	src, err := dataset.Open(path, dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	named, err := sel.Named()
	if err != nil {
		log.Fatal(err)
	}
	t, err := src.Sample(context.Background(), dataset.Query{Columns: named}, dataset.Sampling{})
	if err != nil {
		log.Fatal(err)
	}
	g := t.Groups[0]
	return mat.NewDense(g.Len(), len(t.Columns), g.Data), t.Columns
}

// The call `pearson divergence testdata/shift/P.csv testdata/shift/Q.csv`
// makes: the default selection of each file (every numeric column, here
// x), scaled as the command scales it (by default only when there are
// several columns), and RelativePE at α = ½ with the command's seed 1
// (rand.NewPCG(seed, 0x70656172736f6e)). The files hold 1000 rows each,
// fewer than the command's reservoir, so it keeps them all: the estimate
// is the command's "pe 0.097515" (docs/cli.md).
func Example_divergence() {
	sel := tabular.Selection{} // --columns and --exclude not given
	p, cols := readSample("../testdata/shift/P.csv", sel)
	q, _ := readSample("../testdata/shift/Q.csv", sel)
	if tabular.ScaledByDefault(len(cols)) {
		tabular.Standardize(nil, p, q)
	}
	s := divergence.PESettings{Settings: divergence.Settings{Src: rand.NewPCG(1, 0x70656172736f6e)}}
	res, err := divergence.RelativePE(context.Background(), p, q, 0.5, &s)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("columns %v\npe %.6g\n", cols, res.PE)
	// Output:
	// columns [x]
	// pe 0.097515
}
