// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/isnil"
)

// Result is the outcome of Scores.
type Result struct {
	// Scores holds the score of every candidate time, in time order.
	Scores []Score
	// ChangePoints holds the detected change points, in time order: the
	// scores above Settings.Threshold that are the highest within
	// Settings.MinDistance rows on either side.
	ChangePoints []Score
	// Tunings holds each choice of σ and λ, in time order; each holds from
	// its Time until the next.
	Tunings []Tuning
}

// Scores scores every candidate time of a series whose rows are in time
// order (one or more columns) by the symmetrised PE_α (see NewDetector for
// α), with a Detector fed one row at a time, and detects its change points. A series with fewer than 2n + k − 1 rows
// (n = Window, k = Embed) gives an error wrapping ErrTooFew; a NaN or
// infinite value a *DataError naming its row and column; a setting out of
// range a *SettingsError. s may be nil: all defaults.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func Scores(ctx context.Context, series mat.Matrix, alpha float64, s *Settings) (*Result, error) {
	isnil.Context(ctx, "changepoint.Scores")
	if isnil.Is(series) {
		return nil, fmt.Errorf("changepoint: %w: the series is nil", ErrTooFew)
	}
	rows, dim := series.Dims()
	d, err := NewDetector(dim, alpha, s)
	if err != nil {
		return nil, err
	}
	if rows < d.MinRows() {
		return nil, d.tooFew(rows)
	}
	res := &Result{}
	row := make([]float64, dim)
	for i := range rows {
		mat.Row(row, i, series)
		sc, ok, err := d.Push(ctx, row)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		res.Scores = append(res.Scores, sc)
		res.ChangePoints = append(res.ChangePoints, d.ChangePoints()...)
		if t, ok := d.Tuning(); ok && (len(res.Tunings) == 0 || res.Tunings[len(res.Tunings)-1].Time != t.Time) {
			res.Tunings = append(res.Tunings, t)
		}
	}
	last, err := d.Flush()
	if err != nil {
		return nil, err
	}
	res.ChangePoints = append(res.ChangePoints, last...)
	return res, nil
}
