// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"errors"
	"fmt"
	"math"
)

// CheckTimes checks that a column of time labels is finite and strictly
// increasing, as the rows of a series must be in time order. The error
// wraps ErrTimes and names the first offending row, counted from 0.
func CheckTimes(times []float64) error {
	var c TimeChecker
	for _, t := range times {
		if err := c.Next(t); err != nil {
			return err
		}
	}
	return nil
}

// TimeChecker checks the time labels of a stream of rows as they arrive,
// as CheckTimes checks a column: each must be finite and later than the
// one before. The zero value is ready for the first row.
type TimeChecker struct {
	rows int     // labels accepted so far
	last float64 // the last of them
}

// Next checks the label of the next row. The error wraps ErrTimes and
// names the row, counted from 0; the label is not accepted.
func (c *TimeChecker) Next(t float64) error {
	if c == nil {
		return errors.New("changepoint: nil *TimeChecker")
	}
	switch {
	case math.IsNaN(t) || math.IsInf(t, 0):
		return fmt.Errorf("changepoint: %w: the time of row %d is %v", ErrTimes, c.rows, t)
	case c.rows > 0 && !(t > c.last):
		return fmt.Errorf("changepoint: %w: the time of row %d (%v) is not after that of row %d (%v)", ErrTimes, c.rows, t, c.rows-1, c.last)
	}
	c.rows++
	c.last = t
	return nil
}
