// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/sublinear/pearson/drift"
)

// table returns a numeric column "price", shifted by shift, and a
// categorical column "colour" drawn with probability pRed of "red".
func table(n int, shift, pRed float64, rnd *rand.Rand) []drift.Column {
	price := make([]float64, n)
	colour := make([]string, n)
	for i := range price {
		price[i] = 10 + rnd.NormFloat64() + shift
		colour[i] = "blue"
		if rnd.Float64() < pRed {
			colour[i] = "red"
		}
	}
	return []drift.Column{{Name: "price", Values: price}, {Name: "colour", Categories: colour}}
}

func ExampleCompare() {
	rnd := rand.New(rand.NewPCG(1, 2))
	ref := table(2000, 0, 0.5, rnd)
	cur := table(2000, 0.8, 0.5, rnd) // the price moved, the colours did not

	s := &drift.Settings{}
	s.K, s.M, s.Points, s.Draws = 50, 1000, 1000, 2 // cheaper than the defaults
	res, err := drift.Compare(context.Background(), ref, cur, s)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range res.Sorted() {
		fmt.Printf("%s (%v): drifted %v\n", c.Name, c.Kind, c.Drifted)
	}
	fmt.Printf("data set drifts: %v (%d of %d columns)\n", res.Drift, res.Drifted, res.Compared)
	// Output:
	// price (numeric): drifted true
	// colour (categorical): drifted false
	// data set drifts: true (1 of 2 columns)
}

func ExampleReference_Save() {
	rnd := rand.New(rand.NewPCG(1, 2))
	ref, err := drift.NewReference(table(5000, 0, 0.5, rnd), &drift.Settings{SampleRows: 1000})
	if err != nil {
		log.Fatal(err)
	}
	var file bytes.Buffer // a file, in practice
	if err := ref.Save(&file); err != nil {
		log.Fatal(err)
	}
	fmt.Println("saved bytes at most:", file.Len() <= 1000*(8+4)+1000) // the sample, the metadata and the tallies of every row

	loaded, err := drift.Load(&file)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(loaded.Columns())
	// Output:
	// saved bytes at most: true
	// [price colour]
}
