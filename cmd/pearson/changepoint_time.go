// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"math"
	"strings"
	"time"

	"github.com/sublinear/pearson/dataset"
)

// isoLayouts are the ISO 8601 forms a --time cell may take: a date, or a
// date and a time of day (to the minute or the second, with any fraction
// of a second), after a T or a space, with or without a zone (Z, ±hh:mm or
// ±hhmm). A cell without a zone is read as UTC and printed as it was.
var isoLayouts = func() []string {
	l := []string{time.DateOnly}
	for _, sep := range []string{"T", " "} {
		for _, clock := range []string{"15:04:05", "15:04"} {
			for _, zone := range []string{"Z07:00", "Z0700", ""} {
				l = append(l, "2006-01-02"+sep+clock+zone)
			}
		}
	}
	return l
}()

// errNotTime is the error of a --time cell that is neither a number nor
// an ISO 8601 date or time.
var errNotTime = errors.New("neither a number nor an ISO 8601 date or time (2024-01-31, 2024-01-31T12:00:00Z, 2024-01-31 12:00:00+02:00)")

// isoTimes reads a --time column of numbers or of ISO 8601 dates and times,
// and prints its times back in the form of its first cell: its first cell
// decides which (numbers stay numbers, printed as before). A time is a
// label in seconds since 1970-01-01 UTC, which orders the rows whatever
// their offsets; times are printed in the offset of the first cell.
type isoTimes struct {
	layout string         // the first cell's form; "" while numbers (or before the first cell)
	loc    *time.Location // the first cell's offset
	digits int            // digits of the first cell's fraction of a second
	cells  int            // cells read
}

// parse is the dataset.Query.Cells function of the --time column.
func (t *isoTimes) parse(cell string) (float64, error) {
	s := strings.TrimSpace(cell)
	v, err := dataset.ParseNumber(s)
	isNumber := !errors.Is(err, dataset.ErrNotNumber)
	switch {
	case isNumber && t.layout == "":
		t.cells++
		return v, err
	case isNumber:
		return 0, errors.New("a number, where the first time is an ISO 8601 date or time: a --time column holds numbers or ISO 8601 times, not both")
	case t.cells > 0 && t.layout == "":
		return 0, errors.New("not a number, where the first time is one: a --time column holds numbers or ISO 8601 times, not both")
	}
	for _, layout := range isoLayouts {
		at, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		if t.cells == 0 {
			t.layout, t.loc = layout, at.Location()
			if i := strings.LastIndexByte(s, '.'); i > 0 && strings.Contains(layout, ":05") {
				for t.digits = 0; i+1+t.digits < len(s) && s[i+1+t.digits] >= '0' && s[i+1+t.digits] <= '9'; t.digits++ {
				}
				t.layout = strings.Replace(layout, ":05", ":05."+strings.Repeat("0", t.digits), 1)
			}
		}
		t.cells++
		return float64(at.Unix()) + float64(at.Nanosecond())/1e9, nil
	}
	return 0, errNotTime
}

// value returns a time label as a record holds it: a time in the first
// cell's form, or a number (timeValue).
func (t *isoTimes) value(v float64) any {
	if t == nil || t.layout == "" {
		return timeValue(v)
	}
	sec := math.Floor(v)
	unit := math.Pow10(9 - t.digits)
	ns := math.Round((v-sec)*1e9/unit) * unit
	return time.Unix(int64(sec), int64(ns)).In(t.loc).Format(t.layout)
}
