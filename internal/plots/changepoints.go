// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package plots

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ChangePoints is a picture of change-point detection on a time series: the
// series on top, its score beneath on the same time axis, and the detected
// change points marked on both.
type ChangePoints struct {
	Title string // e.g. "change points: 3 detected"
	Time  string // the time axis' label, e.g. "row" or a column name
	// Names are the series' columns; Time and Values hold the series,
	// Values[j][i] the value of column j at time Time[i]. At most
	// MaxColumns columns are drawn.
	Names  []string
	Times  []float64
	Values [][]float64
	// ScoreTimes and Scores are the scores, Threshold the level a change
	// point must exceed (drawn dashed), and Points the times of the
	// detected change points.
	ScoreTimes, Scores []float64
	Threshold          float64
	// ThresholdName is the legend of the threshold's line; empty means
	// "threshold".
	ThresholdName string
	Points        []float64
}

// MaxColumns is the number of columns of a series a ChangePoints picture
// draws: the first ones, one colour each.
const MaxColumns = 6

// WriteChangePoints draws c to path (.png or .svg), 6 in by 6 in: on top the
// series, one line per column (the first MaxColumns) with a legend when
// there are several; beneath, on the same time axis, the score with the
// threshold as a dashed line; a red vertical line at each change point
// across both. Non-finite points are skipped. It is an error for the times
// and values to differ in length.
func WriteChangePoints(path string, c ChangePoints) error {
	if err := CheckPath(path); err != nil {
		return err
	}
	for j, v := range c.Values {
		if len(v) != len(c.Times) {
			return fmt.Errorf("plots: column %d has %d values for %d times", j, len(v), len(c.Times))
		}
	}
	if len(c.ScoreTimes) != len(c.Scores) {
		return fmt.Errorf("plots: %d score times for %d scores", len(c.ScoreTimes), len(c.Scores))
	}
	top, bottom := changePointPlots(c)
	return writeStacked(path, top, bottom)
}

// writeStacked draws two plots, one above the other with their axes
// aligned, to path: 6 in by 6 in.
func writeStacked(path string, top, bottom *plot.Plot) error {
	return write(path, width, samplesHeight, func(dc draw.Canvas) {
		t := draw.Tiles{
			Rows: 2, Cols: 1,
			PadX: vg.Points(4), PadY: vg.Points(10),
			PadTop: vg.Points(6), PadBottom: vg.Points(4),
			PadLeft: vg.Points(4), PadRight: vg.Points(12),
		}
		cs := plot.Align([][]*plot.Plot{{top}, {bottom}}, t, dc)
		top.Draw(cs[0][0])
		bottom.Draw(cs[1][0])
	})
}

// xys returns the finite points (x[i], y[i]), clamped into the drawable
// range.
func xys(x, y []float64) plotter.XYs {
	pts := make(plotter.XYs, 0, len(x))
	for i := range x {
		if isFinite(x[i]) && isFinite(y[i]) {
			pts = append(pts, plotter.XY{X: within(x[i], -huge, huge), Y: within(y[i], -huge, huge)})
		}
	}
	return pts
}

// changePointPlots builds the two panels of a ChangePoints picture.
func changePointPlots(c ChangePoints) (top, bottom *plot.Plot) {
	mark := draw.LineStyle{Color: translucent(red, 0xb0), Width: vg.Points(1.25)}
	xlo, xhi := widen(span(finite(c.Times), finite(c.ScoreTimes)))

	top = newPlot(c.Title)
	top.Y.Label.Text = "series"
	if len(c.Names) == 1 {
		top.Y.Label.Text = c.Names[0]
	}
	addGrid(top, true, true)
	drawn := false
	for j, v := range c.Values[:min(len(c.Values), MaxColumns)] {
		pts := xys(c.Times, v)
		if len(pts) == 0 {
			continue
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			continue
		}
		l.LineStyle = draw.LineStyle{Color: palette[j%len(palette)], Width: vg.Points(0.75)}
		top.Add(l)
		if len(c.Values) > 1 && j < len(c.Names) {
			top.Legend.Add(c.Names[j], l)
		}
		drawn = true
	}
	if !drawn {
		top.Add(note("no series values"))
	}
	if len(c.Values) > 1 {
		placeLegend(top, false)
	}

	bottom = newPlot("")
	bottom.X.Label.Text = c.Time
	bottom.Y.Label.Text = "score"
	addGrid(bottom, true, true)
	pts := xys(c.ScoreTimes, c.Scores)
	if l, err := plotter.NewLine(pts); err == nil && len(pts) > 0 {
		l.LineStyle = draw.LineStyle{Color: blue, Width: vg.Points(1.25)}
		bottom.Add(l)
		bottom.Legend.Add("score", l)
	} else {
		bottom.Add(note("no scores"))
	}
	ylo, yhi := 0.0, 1.0
	for _, p := range pts {
		ylo, yhi = min(ylo, p.Y), max(yhi, p.Y)
	}
	if isFinite(c.Threshold) {
		th := hline{y: c.Threshold, LineStyle: draw.LineStyle{
			Color:  grey,
			Width:  vg.Points(1),
			Dashes: []vg.Length{vg.Points(5), vg.Points(3)},
		}}
		bottom.Add(th)
		name := c.ThresholdName
		if name == "" {
			name = "threshold"
		}
		bottom.Legend.Add(name, th)
		ylo, yhi = min(ylo, c.Threshold), max(yhi, c.Threshold)
	}
	for i, x := range c.Points {
		if !isFinite(x) {
			continue
		}
		for _, p := range []*plot.Plot{top, bottom} {
			p.Add(vline{x: x, LineStyle: mark})
		}
		if i == 0 {
			bottom.Legend.Add("change point", vline{x: x, LineStyle: mark})
		}
	}
	placeLegend(bottom, false)
	ylo, yhi = clamp(ylo, yhi)
	m := 0.05 * (yhi - ylo)
	bottom.Y.Min, bottom.Y.Max = ylo, yhi+4*m // room for the legend
	if ylo < 0 {
		bottom.Y.Min -= m
	}
	top.X.Min, top.X.Max = xlo, xhi
	bottom.X.Min, bottom.X.Max = xlo, xhi
	return top, bottom
}
