// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"math"
	"runtime"

	"github.com/sublinear/pearson/divergence"
)

// Validate reports the first field of s out of range, drift's own fields
// (Package "drift") before the estimator's (Package "divergence", as
// divergence.TwoSampleSettings.Validate reports them): the checks
// NewReference and Compare make, without data. A nil s is valid.
func (s *Settings) Validate() error {
	if s == nil {
		return nil
	}
	if err := s.check(); err != nil {
		return err
	}
	ts := divergence.TwoSampleSettings{PESettings: divergence.PESettings{Settings: s.Settings}, Permutations: s.Permutations, Points: s.Points}
	return ts.Validate()
}

// Memory returns a bound, in bytes, of what Compare holds for a reference
// of refRows rows and a current table of curRows rows of cols columns,
// numeric of them numeric (each table cut to SampleSize rows): the
// columns' values three times (the caller's Columns, the package's copy,
// the joint row's matrix), the tests of Workers numeric columns at once
// (divergence.TwoSampleSettings.Memory of one column) and the null
// distribution of one column settled at SettlePermutations (ambiguous
// columns are usually none or one), and the joint row's test over
// the numeric columns, whose mean part holds d×d matrices
// (divergence.TwoSampleSettings.Memory of d columns). Settings out of
// range (see Validate) give +Inf.
func (s *Settings) Memory(refRows, curRows, cols, numeric int) float64 {
	p, err := s.resolve()
	if err != nil {
		return math.Inf(1)
	}
	p.forColumns(cols)
	nr, nc := float64(min(refRows, p.sampleRows)), float64(min(curRows, p.sampleRows))
	data := 3 * 8 * (nr + nc) * float64(cols)
	w := p.est.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	est := p.est
	est.Workers = 1
	column := func(b int) float64 {
		ts := divergence.TwoSampleSettings{PESettings: divergence.PESettings{Settings: est}, Permutations: b}
		ts.Points = p.columnPoints
		return ts.Memory(int(nc), int(nr), 1)
	}
	need := data + float64(min(w, max(numeric, 1)))*column(p.permutations)
	if p.settlePermutations > p.permutations {
		need += column(p.settlePermutations) - column(p.permutations)
	}
	if !p.noJoint && numeric >= 2 {
		joint := divergence.TwoSampleSettings{PESettings: divergence.PESettings{Settings: est}, Permutations: p.jointPermutations}
		joint.Points = p.jointPoints
		need += joint.Memory(int(nc), int(nr), numeric)
	}
	return need
}
