// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"fmt"
	"strings"
)

// Gate is the rule by which a comparison fails a job (the command line's
// --fail-on-drift): what a CI user who asked to fail on drift is told.
type Gate int

const (
	// AnyColumn fails when any compared column drifted (its values or its
	// missing share, by the adjusted rule of Settings.Level and Threshold):
	// the rule a user who monitors columns expects, and the default. The
	// joint row, which is not adjusted with the columns, is reported and
	// does not fail the job.
	AnyColumn Gate = iota
	// DriftShare fails when the data set drifted: the share of drifted
	// columns reaches Settings.DriftShare (evidently's drift_share).
	DriftShare
)

// String returns "column" or "share".
func (g Gate) String() string {
	if g == DriftShare {
		return "share"
	}
	return "column"
}

// ParseGate returns the Gate String names, or false.
func ParseGate(s string) (Gate, bool) {
	switch s {
	case "column":
		return AnyColumn, true
	case "share":
		return DriftShare, true
	}
	return 0, false
}

// Fails reports whether the result fails a job by rule g, and says why in
// a sentence naming the rule ("" when it does not fail): for AnyColumn the
// drifted columns (up to five named), for DriftShare the share.
func (res *Result) Fails(g Gate) (bool, string) {
	if g == DriftShare {
		if !res.Drift {
			return false, ""
		}
		return true, fmt.Sprintf("the share of drifted columns %s reaches the drift share %s (%d of %d)", fmtG(res.Share), fmtG(res.DriftShare), res.Drifted, res.Compared)
	}
	if res.Drifted == 0 {
		return false, ""
	}
	var names []string
	for _, c := range res.Sorted() {
		if c.Drifted && len(names) < 5 {
			names = append(names, fmt.Sprintf("%q", c.Name))
		}
	}
	more := ""
	if res.Drifted > len(names) {
		more = fmt.Sprintf(" and %d more", res.Drifted-len(names))
	}
	return true, fmt.Sprintf("%d of %d columns drifted: %s%s", res.Drifted, res.Compared, strings.Join(names, ", "), more)
}

// CannotJudge says why a job gated by rule g cannot be judged, or "":
// no column was compared, or, for AnyColumn, some column could not be
// (see ColumnResult.Judged), named with the first one's Note.
func (res *Result) CannotJudge(g Gate) string {
	if res.Compared > 0 && (g != AnyColumn || res.Unjudged == 0) {
		return ""
	}
	var names []string
	why := ""
	for _, c := range res.Columns {
		if !c.Judged() {
			names = append(names, fmt.Sprintf("%q", c.Name))
			if why == "" {
				why = c.Note
			}
		}
	}
	if res.Compared == 0 || len(names) == 0 {
		return "no column holds enough values to compare"
	}
	return fmt.Sprintf("%d of %d columns (%s): %s", len(names), len(res.Columns), strings.Join(names, ", "), why)
}
