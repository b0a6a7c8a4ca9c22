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

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/drift"
	"github.com/sublinear/pearson/tabular"
)

// readDrift reads the table at path as the drift command does
// (tabular.ReadDrift): a mixed table (text columns as categories, missing
// values kept), a sample of at most the rows the comparison keeps, drawn
// with the command's seed, and, when the sample leaves rows out, a second
// pass counting every row; like is the reference's tallies for a current
// table (nil for the reference).
func readDrift(path string, s *drift.Settings, like func(string) *drift.Tally) []drift.Column {
	src, err := dataset.Open(path, dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	t, err := tabular.ReadDrift(context.Background(), src, tabular.DriftRead{
		Sampling: dataset.Sampling{Size: s.SampleSize(), Src: rand.NewPCG(1, 0x72657365727665), Seek: true},
		Like:     like,
	})
	if err != nil {
		log.Fatal(err)
	}
	return t.Columns(0)
}

// The call `pearson drift testdata/examples/ref.csv testdata/examples/cur.csv`
// makes, with its seed 1: the columns of each table (numbers and text),
// read as the command reads them, compared with the reference's; the
// numbers are the command's (docs/cli.md), which lists the columns in
// another order.
func Example_drift() {
	s := &drift.Settings{Settings: divergence.Settings{Src: rand.NewPCG(1, 0x70656172736f6e)}}
	ref, err := drift.NewReference(readDrift("../testdata/examples/ref.csv", s, nil), s)
	if err != nil {
		log.Fatal(err)
	}
	res, err := ref.Compare(context.Background(), readDrift("../testdata/examples/cur.csv", s, ref.Tally), s)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range res.Columns {
		fmt.Printf("%-8s %-12v divergence %.6g drifted %v\n", c.Name, c.Kind, c.Divergence, c.Drifted)
	}
	fmt.Printf("%s divergence %.6g drifted %v\n", res.Joint.Name, res.Joint.Divergence, res.Joint.Drifted)
	// Output:
	// latency  numeric      divergence 0.0320827 drifted true
	// amount   numeric      divergence -0.000516576 drifted false
	// region   categorical  divergence 0.000937353 drifted false
	// device   categorical  divergence 0.0120326 drifted true
	// (joint) divergence 0.0317446 drifted true
}
