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

// The call `pearson mi --x x1 --y y --permutations 200
// testdata/regression.csv` makes: the named columns, one each (so neither
// is scaled: tabular.ScaledByDefault), and IndependenceTest with 200
// permutations and the command's seed 1. The numbers are the command's
// (docs/cli.md).
func Example_mi() {
	src, err := dataset.Open("../testdata/regression.csv", dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	sel := tabular.Selection{Columns: []string{"x1", "y"}}
	named, err := sel.Named()
	if err != nil {
		log.Fatal(err)
	}
	t, err := src.Sample(context.Background(), dataset.Query{Columns: named}, dataset.Sampling{})
	if err != nil {
		log.Fatal(err)
	}
	all := mat.NewDense(t.Groups[0].Len(), len(t.Columns), t.Groups[0].Data)
	x, y := mat.DenseCopyOf(all.ColView(0)), mat.DenseCopyOf(all.ColView(1))
	fmt.Println("scaled:", tabular.ScaledByDefault(1))
	s := divergence.IndependenceSettings{LSMISettings: divergence.LSMISettings{Settings: divergence.Settings{Src: rand.NewPCG(1, 0x70656172736f6e)}}, Permutations: 200}
	res, err := divergence.IndependenceTest(context.Background(), x, y, &s)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("smi %.6g\np_value %.6g\n", res.LSMI.SMI, res.PValue)
	// Output:
	// scaled: false
	// smi 0.291365
	// p_value 0.00497512
}
