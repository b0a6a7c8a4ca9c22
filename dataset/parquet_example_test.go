// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset_test

import (
	"context"
	"fmt"
	"log"
	"math"

	"github.com/sublinear/pearson/dataset"
)

// A two-stage sample of a Parquet file sorted by its value (16 row groups,
// more than 4 per draw, so that the file is sampled): the kept rows
// are labelled with their draw (Group.Units), and a jackknife over the
// draws gives the standard error of their mean, including the variance
// between the units, which the rows' own spread misses.
func ExampleNewParquetAt() {
	src, err := dataset.Open("../testdata/parquet/sorted.parquet", dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	const draws = 3
	t, err := src.Sample(context.Background(), dataset.Query{},
		dataset.Sampling{Size: 300, Seek: true, Units: draws})
	if err != nil {
		log.Fatal(err)
	}
	g := t.Groups[0]
	fmt.Printf("%d rows read of %d, sampled: %v\n", t.RowsRead, g.Rows, t.Sampled)

	// The mean without each draw in turn.
	sum, cnt := make([]float64, draws), make([]float64, draws)
	total := 0.0
	for i, x := range g.Data {
		sum[g.Units[i]] += x
		cnt[g.Units[i]]++
		total += x
	}
	mean := total / float64(g.Len())
	var loo []float64
	for j := range draws {
		if cnt[j] > 0 {
			loo = append(loo, (total-sum[j])/(float64(g.Len())-cnt[j]))
		}
	}
	m, v := 0.0, 0.0
	for _, x := range loo {
		m += x / float64(len(loo))
	}
	for _, x := range loo {
		v += (x - m) * (x - m)
	}
	k := float64(len(loo))
	se := math.Sqrt(v * (k - 1) / k)
	fmt.Printf("mean %.2f ± %.2f\n", mean, se)
	// Output:
	// 300 rows read of 32768, sampled: true
	// mean 0.57 ± 0.18
}
