// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/sublinear/pearson/changepoint"
)

// TestSegmentProgress checks SegmentSettings.Progress: the work done never
// decreases nor passes the total, which stays fixed, ends at the total, is
// reported a bounded number of times, and the segmentation is the one
// without the callback.
func TestSegmentProgress(t *testing.T) {
	t.Parallel()
	x := steps(rand.New(rand.NewPCG(3, 4)), 800, []int{300, 550}, 3, 1)
	plain, err := changepoint.Segment(context.Background(), x, changepoint.DefaultAlpha, nil)
	if err != nil {
		t.Fatal(err)
	}
	var calls, last, total int
	s := &changepoint.SegmentSettings{Progress: func(done, tot int) {
		if calls > 0 && (tot != total || done < last) || done > tot || tot <= 0 {
			t.Errorf("call %d: %d of %d after %d of %d", calls, done, tot, last, total)
		}
		calls, last, total = calls+1, done, tot
	}}
	res, err := changepoint.Segment(context.Background(), x, changepoint.DefaultAlpha, s)
	if err != nil {
		t.Fatal(err)
	}
	if calls < 2 || calls > 1100 || last != total {
		t.Errorf("%d calls, the last %d of %d", calls, last, total)
	}
	if !reflect.DeepEqual(res, plain) {
		t.Errorf("the segmentation differs with Progress set: %v, %v", res.Changes, plain.Changes)
	}
}
