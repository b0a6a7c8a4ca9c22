// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"

	"github.com/sublinear/pearson/dataset"
)

// Open a file, then keep a uniform sample of at most two rows of each group,
// with the true row counts.
func Example() {
	src, err := dataset.Open(filepath.Join("testdata", "small.csv"), dataset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	tab, err := src.Sample(context.Background(), dataset.Query{Group: "group"}, dataset.Sampling{Size: 2, Src: rand.NewPCG(1, 2)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("columns:", tab.Columns)
	for _, g := range tab.Groups {
		fmt.Printf("group %s: %d rows, kept %d\n", g.Key, g.Rows, g.Len())
	}
	// Output:
	// columns: [x y]
	// group A: 3 rows, kept 2
	// group B: 2 rows, kept 2
}

func ExampleNewCSV() {
	const data = `arm,dose,response,note
ctl,0,1.5,baseline
A,0.5,2.25,
ctl,0,1.75,"late, retested"
A,1,3.5,
`
	ctx := context.Background()
	src := dataset.NewCSV(strings.NewReader(data), "trial.csv", dataset.Options{})
	tab, err := src.Sample(ctx, dataset.Query{Group: "arm"}, dataset.Sampling{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("columns:", tab.Columns)
	c := len(tab.Columns)
	for _, g := range tab.Groups {
		fmt.Printf("group %s: %d rows\n", g.Key, g.Rows)
		for i, line := range g.Lines {
			fmt.Printf("  line %d: %v\n", line, g.Data[i*c:(i+1)*c])
		}
	}

	src = dataset.NewCSV(strings.NewReader(data), "trial.csv", dataset.Options{})
	_, err = src.Sample(ctx, dataset.Query{Columns: []string{"dose", "note"}}, dataset.Sampling{})
	fmt.Println(err)
	fmt.Println(errors.Is(err, dataset.ErrNotNumber))
	// Output:
	// columns: [dose response]
	// group ctl: 2 rows
	//   line 2: [0 1.5]
	//   line 4: [0 1.75]
	// group A: 2 rows
	//   line 3: [0.5 2.25]
	//   line 5: [1 3.5]
	// dataset: trial.csv: line 2, column "note" (field 4): cannot parse "baseline" as a number
	// true
}

// Stream every row of a file through a computation, in file order.
func ExampleCSV_Scan() {
	src, err := dataset.Open(filepath.Join("testdata", "small.csv"), dataset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	sum := map[string]float64{}
	_, err = src.Scan(context.Background(), dataset.Query{Group: "group", Columns: []string{"y"}}, func(group string, line int, row []float64) error {
		sum[group] += row[0]
		return nil
	})
	fmt.Println(sum, err)
	// Output: map[A:10.5 B:12] <nil>
}

func ExampleReadMatrix() {
	rows, cols, data, err := dataset.ReadMatrix(strings.NewReader("2 1\n1 3\n"), "A.txt", ' ')
	fmt.Println(rows, cols, data, err)
	// Output: 2 2 [2 1 1 3] <nil>
}

func ExampleReadVector() {
	v, err := dataset.ReadVector(strings.NewReader("1.5 2 -3\n"), "b.txt", ' ')
	fmt.Println(v, err)
	// Output: [1.5 2 -3] <nil>
}

func ExampleOpenMatrix() {
	rows, cols, data, err := dataset.OpenMatrix(filepath.Join("testdata", "matrix.txt"), ' ')
	fmt.Println(rows, cols, data, err)
	// Output: 2 3 [1 0 -1 2 0.5 3] <nil>
}

func ExampleOpenVector() {
	v, err := dataset.OpenVector(filepath.Join("testdata", "vector.txt"), 0)
	fmt.Println(v, err)
	// Output: [1 -2 0.5] <nil>
}

// Sample 100 rows of a file of 200 000 by seeking: only the rows drawn are
// read, and the number of rows is an estimate.
func ExampleNewCSVAt() {
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := range 200_000 {
		fmt.Fprintf(&b, "%d,%d\n", i%1000, i%7)
	}
	data := strings.NewReader(b.String())
	src := dataset.NewCSVAt(data, data.Size(), "big.csv", dataset.Options{})
	tab, err := src.Sample(context.Background(), dataset.Query{}, dataset.Sampling{Size: 100, Seek: true, Src: rand.NewPCG(1, 2)})
	if err != nil {
		fmt.Println(err)
		return
	}
	g := tab.Groups[0]
	fmt.Printf("sampled: %v, kept %d rows, %d draws\n", tab.Sampled, g.Len(), tab.Draws)
	fmt.Printf("about %d ± %.0f rows\n", g.Rows, g.RowsStdErr)
	// Output:
	// sampled: true, kept 100 rows, 151 draws
	// about 195033 ± 11335 rows
}
