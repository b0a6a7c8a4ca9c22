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
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/tabular"
)

// The call `pearson rank --target y --permutations 100
// testdata/regression.csv` makes: the default selection less the target
// as the features, each scored on its own (so none is scaled:
// tabular.ScaledByDefault of one column), by Rank with 100 permutations
// and the command's seed 1. The numbers are the command's (docs/cli.md).
func Example_rank() {
	src, err := dataset.Open("../testdata/regression.csv", dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	t, err := src.Sample(context.Background(), dataset.Query{}, dataset.Sampling{})
	if err != nil {
		log.Fatal(err)
	}
	features := slices.DeleteFunc(slices.Clone(t.Columns), func(s string) bool { return s == "y" })
	all := mat.NewDense(t.Groups[0].Len(), len(t.Columns), t.Groups[0].Data)
	n, _ := all.Dims()
	x := mat.DenseCopyOf(all.Slice(0, n, 0, len(features)))
	y := mat.DenseCopyOf(all.ColView(slices.Index(t.Columns, "y")))
	s := divergence.RankSettings{LSMISettings: divergence.LSMISettings{Settings: divergence.Settings{Src: rand.NewPCG(1, 0x70656172736f6e)}}, PValuePermutations: 100}
	res, err := divergence.Rank(context.Background(), x, y, &s)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("scaled:", tabular.ScaledByDefault(1))
	for _, f := range res.Features {
		fmt.Printf("%d %s smi %.6g\n", f.Rank, features[f.Column], f.SMI)
	}
	// Output:
	// scaled: false
	// 1 x1 smi 0.290996
	// 2 x3 smi 0.0556999
	// 3 x4 smi 0.048454
	// 4 x2 smi 0.0409653
	// 5 x6 smi 0.000602234
	// 6 x5 smi 2.51683e-05
}
