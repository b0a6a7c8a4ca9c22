// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"fmt"
	"math"
)

// CheckTimes checks that a column of time labels is finite and strictly
// increasing, as the rows of a series must be in time order. The error
// wraps ErrTimes and names the first offending row, counted from 0.
func CheckTimes(times []float64) error {
	for i, t := range times {
		switch {
		case math.IsNaN(t) || math.IsInf(t, 0):
			return fmt.Errorf("changepoint: %w: the time of row %d is %v", ErrTimes, i, t)
		case i > 0 && !(t > times[i-1]):
			return fmt.Errorf("changepoint: %w: the time of row %d (%v) is not after that of row %d (%v)", ErrTimes, i, t, i-1, times[i-1])
		}
	}
	return nil
}
