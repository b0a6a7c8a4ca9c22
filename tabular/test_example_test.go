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

// The call `pearson test --group group --numerator A --denominator ctl
// testdata/groups.csv` makes: the rows of the two values of the group
// column, its default selection (every numeric column but the group
// column: a and b), scaled as the command scales several columns (each by
// its median and MAD, pooled over both samples), and TwoSampleTest at
// α = ½ with the command's seed 1. The numbers are the command's
// (docs/cli.md).
func Example_test() {
	src, err := dataset.Open("../testdata/groups.csv", dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	t, err := src.Sample(context.Background(), dataset.Query{Group: "group", Groups: []string{"A", "ctl"}, MaxGroups: 2}, dataset.Sampling{})
	if err != nil {
		log.Fatal(err)
	}
	sample := func(key string) *mat.Dense {
		for _, g := range t.Groups {
			if g.Key == key {
				return mat.NewDense(g.Len(), len(t.Columns), g.Data)
			}
		}
		log.Fatalf("no group %s", key)
		return nil
	}
	p, q := sample("A"), sample("ctl")
	scale := tabular.Standardize(tabular.CategoryColumns(t, t.Columns), p, q)
	s := divergence.TwoSampleSettings{PESettings: divergence.PESettings{Settings: divergence.Settings{Src: rand.NewPCG(1, 0x70656172736f6e)}}}
	res, err := divergence.TwoSampleTest(context.Background(), p, q, 0.5, &s)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("columns %v\nscaled %s\npe %.6g\np_value %.6g\n", t.Columns, scale.Describe(t.Columns), res.PE.PE, res.PValue)
	// Output:
	// columns [a b]
	// scaled (x − median)/(1.4826·MAD) per column
	// pe 0.0295437
	// p_value 0.000999001
}
