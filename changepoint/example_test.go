// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/changepoint"
)

// A series of 600 rows whose spread triples at row 300: the mean stays
// where it was. With the default settings (nil), subsequences of 10 rows
// and windows of 50, and the default threshold, which a series without a
// change exceeds about once in 1000 rows.
func ExampleScores() {
	rnd := rand.New(rand.NewPCG(1, 2))
	y := make([]float64, 600)
	for t := range y {
		sd := 1.0
		if t >= 300 {
			sd = 3
		}
		y[t] = sd * rnd.NormFloat64()
	}
	res, err := changepoint.Scores(context.Background(), mat.NewVecDense(len(y), y), changepoint.DefaultAlpha, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d times scored, from row %d to row %d\n", len(res.Scores), res.Scores[0].Time, res.Scores[len(res.Scores)-1].Time)
	for _, c := range res.ChangePoints {
		fmt.Printf("change at row %d, score %.1f\n", c.Time, c.Value)
	}
	// Output:
	// 492 times scored, from row 55 to row 546
	// change at row 303, score 4.7
}

// A stream of rows, scored as they arrive: memory holds the two windows,
// not the series. A change point is reported once the scores MinDistance
// rows after it are in.
func ExampleDetector() {
	rnd := rand.New(rand.NewPCG(1, 2))
	d, err := changepoint.NewDetector(1, changepoint.DefaultAlpha, &changepoint.Settings{Embed: 1, Window: 50, Step: 5})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	for t := range 1000 {
		mean := 0.0
		if t >= 400 {
			mean = 2 // the level jumps at row 400
		}
		if _, _, err := d.Push(ctx, []float64{mean + rnd.NormFloat64()}); err != nil {
			log.Fatal(err)
		}
		for _, c := range d.ChangePoints() {
			fmt.Printf("after row %d: a change at row %d (score %.1f)\n", t, c.Time, c.Value)
		}
	}
	last, err := d.Flush()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(last), "more at the end")
	// Output:
	// after row 504: a change at row 400 (score 3.3)
	// 0 more at the end
}

// A short series of 80 rows on a rising trend, whose level drops by 4
// standard deviations at row 50: Segment adapts its windows to the length,
// calibrates its scores on the series (the trend alone is no change), and
// reports the change, what changed, and the segments.
func ExampleSegment() {
	rnd := rand.New(rand.NewPCG(1, 2))
	y := make([]float64, 80)
	for t := range y {
		y[t] = 0.05*float64(t) + rnd.NormFloat64()
		if t >= 50 {
			y[t] -= 4
		}
	}
	res, err := changepoint.Segment(context.Background(), mat.NewVecDense(len(y), y), changepoint.DefaultAlpha, nil)
	if err != nil {
		log.Fatal(err)
	}
	p := res.Params
	fmt.Printf("embed %d, window %d, penalty %.1f\n", p.Embed, p.Window, p.Penalty)
	for _, c := range res.Changes {
		fmt.Printf("change at row %d: %s\n", c.Time, c.What)
	}
	for _, s := range res.Segments {
		fmt.Printf("rows %d to %d\n", s.Start, s.End-1)
	}
	// Output:
	// embed 1, window 8, penalty 8.8
	// change at row 50: level
	// rows 0 to 49
	// rows 50 to 79
}
