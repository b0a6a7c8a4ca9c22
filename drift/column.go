// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"fmt"
	"math"
)

// Kind is the type of a column.
type Kind int

const (
	// Numeric columns hold real numbers, compared by the relative Pearson
	// divergence of their distributions with Gaussian kernels.
	Numeric Kind = iota
	// Categorical columns hold labels, compared by their frequencies.
	Categorical
)

// String returns "numeric" or "categorical".
func (k Kind) String() string {
	if k == Categorical {
		return "categorical"
	}
	return "numeric"
}

// Column is one column of a table, or a uniform random sample of the rows of
// a larger table. A table is a slice of columns holding the same sampled rows,
// in the same order, so that the rows can be compared jointly.
//
// Exactly one of Values and Categories is non-nil: the column is Numeric or
// Categorical. A missing value is NaN in Values and "" in Categories; an
// infinite value is an error.
type Column struct {
	// Name identifies the column; current columns are matched to the
	// reference's by name.
	Name string
	// Values holds a numeric column's value in each sampled row.
	Values []float64
	// Categories holds a categorical column's label in each sampled row.
	Categories []string
	// Rows is the number of rows of the data set the sample stands for.
	// Zero means the sample is the whole column: Rows is its length and
	// Missing its count of missing values.
	Rows int
	// Missing is the number of missing values among Rows. It must be zero
	// when Rows is zero, and positive when the sample holds a missing value.
	Missing int
	// Whole, when not nil, holds the statistics of every row of the data
	// set the sample stands for, counted in one pass as the rows were read
	// (see Tally): the reference's made by NewTally on the reference's
	// sample, the current table's by the reference's Tally. Nil means the
	// values are all there is: their own tally is counted (every row when
	// Rows is zero).
	Whole *Tally
}

// Kind returns the kind of the column.
func (c *Column) Kind() Kind {
	if c.Categories != nil {
		return Categorical
	}
	return Numeric
}

// len returns the number of sampled rows.
func (c *Column) len() int {
	if c.Categories != nil {
		return len(c.Categories)
	}
	return len(c.Values)
}

// missingInSample counts the missing values of the sample.
func (c *Column) missingInSample() int {
	n := 0
	for _, v := range c.Values {
		if math.IsNaN(v) {
			n++
		}
	}
	for _, v := range c.Categories {
		if v == "" {
			n++
		}
	}
	return n
}

// maxMagnitude is the largest magnitude of a numeric value: beyond it the
// distances between values, and so the kernel widths, overflow (as the
// command line's pe refuses such values).
const maxMagnitude = 1e300

// counts returns the rows and missing values of the data set the column
// stands for, checking that the column is well formed.
func (c *Column) counts() (rows, missing int, err error) {
	if (c.Values == nil) == (c.Categories == nil) {
		return 0, 0, fmt.Errorf("%w: column %q: exactly one of Values and Categories must be set", ErrColumn, c.Name)
	}
	for i, v := range c.Values {
		if math.IsInf(v, 0) {
			return 0, 0, fmt.Errorf("%w: column %q: row %d: infinite value", ErrColumn, c.Name, i)
		}
		if math.Abs(v) > maxMagnitude {
			return 0, 0, fmt.Errorf("%w: column %q: row %d holds %g: values beyond ±%g make the kernel widths overflow: rescale the column", ErrColumn, c.Name, i, v, maxMagnitude)
		}
	}
	inSample := c.missingInSample()
	switch {
	case c.Rows == 0 && c.Missing != 0:
		return 0, 0, fmt.Errorf("%w: column %q: Missing is %d with Rows zero", ErrColumn, c.Name, c.Missing)
	case c.Rows == 0:
		return c.len(), inSample, nil
	case c.Rows < c.len():
		return 0, 0, fmt.Errorf("%w: column %q: Rows %d below the %d sampled rows", ErrColumn, c.Name, c.Rows, c.len())
	case c.Missing < 0 || c.Missing > c.Rows:
		return 0, 0, fmt.Errorf("%w: column %q: Missing %d out of [0, Rows = %d]", ErrColumn, c.Name, c.Missing, c.Rows)
	case inSample > c.Missing:
		return 0, 0, fmt.Errorf("%w: column %q: the sample holds %d missing values, more than Missing = %d", ErrColumn, c.Name, inSample, c.Missing)
	case c.len()-inSample > c.Rows-c.Missing:
		return 0, 0, fmt.Errorf("%w: column %q: the sample holds %d values, more than Rows − Missing = %d", ErrColumn, c.Name, c.len()-inSample, c.Rows-c.Missing)
	}
	return c.Rows, c.Missing, nil
}
