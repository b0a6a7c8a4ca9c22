// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/sublinear/pearson/dataset"
)

// A table held by an object read by ranges; an objstore.Object (an S3
// object, a file behind a URL) fetches them from its server.
func ExampleOpenObjects() {
	text := "x,y\n1,2\n3,4\n5,6\n"
	obj := dataset.Object{Path: "s3://bucket/t.csv", Size: int64(len(text)), R: strings.NewReader(text)}
	src, err := dataset.OpenObjects(obj.Path, []dataset.Object{obj}, dataset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	t, err := src.Sample(context.Background(), dataset.Query{}, dataset.Sampling{Size: 2, Seek: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t.Columns, t.Groups[0].Rows, "rows; sampled in blocks:", t.Sampled)
	// Output:
	// [x y] 3 rows; sampled in blocks: false
}
