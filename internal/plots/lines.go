// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package plots

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Lines is a chart of several series of points joined by lines, with
// optional error bars, on logarithmic axes if asked: a figure of errors
// against a parameter, one series per setting of another.
type Lines struct {
	Title      string
	X, Y       string // axis labels
	LogX, LogY bool
	Series     []Series
}

// Series is one line of a Lines chart: points (X[i], Y[i]) with error bars
// of half-width Err[i] (nil for none). On a logarithmic axis, values ≤ 0 and
// error bars reaching below 0 are clipped to the smallest positive value.
type Series struct {
	Name string
	X, Y []float64
	Err  []float64
}

// palette are the colours of successive series (Tableau 10).
var palette = []color.NRGBA{
	blue, orange, {R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, red,
	{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}, {R: 0x8c, G: 0x56, B: 0x4b, A: 0xff},
}

// WriteLines draws l to path (.png or .svg), 6 in by 4.5 in. Non-finite
// points are skipped; series of mismatched lengths are an error.
func WriteLines(path string, l Lines) error {
	if err := CheckPath(path); err != nil {
		return err
	}
	p := newPlot(l.Title)
	p.X.Label.Text, p.Y.Label.Text = l.X, l.Y
	addGrid(p, true, true)
	if l.LogX {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	if l.LogY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	tiny := smallestPositive(l)
	for i, s := range l.Series {
		if len(s.Y) != len(s.X) || (s.Err != nil && len(s.Err) != len(s.X)) {
			return fmt.Errorf("plots: series %q has %d x, %d y and %d error values", s.Name, len(s.X), len(s.Y), len(s.Err))
		}
		pts := plotter.XYs{}
		errs := plotter.YErrors{}
		for j := range s.X {
			x, y := s.X[j], s.Y[j]
			if !isFinite(x) || !isFinite(y) || (l.LogX && x <= 0) {
				continue
			}
			lo, hi := 0.0, 0.0
			if s.Err != nil && isFinite(s.Err[j]) {
				lo, hi = s.Err[j], s.Err[j]
			}
			if l.LogY {
				y = max(y, tiny)
				lo = min(lo, y-tiny) // keep the lower end positive
			}
			pts = append(pts, plotter.XY{X: x, Y: y})
			errs = append(errs, struct{ Low, High float64 }{lo, hi})
		}
		if len(pts) == 0 {
			continue
		}
		c := palette[i%len(palette)]
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		line.Color, line.Width = c, vg.Points(1.5)
		points.Color, points.Shape = c, draw.CircleGlyph{}
		p.Add(line, points)
		if s.Err != nil {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYer
				plotter.YErrorer
			}{pts, errs})
			if err != nil {
				return fmt.Errorf("plots: %w", err)
			}
			eb.Color = c
			p.Add(eb)
		}
		p.Legend.Add(s.Name, line, points)
	}
	p.Legend.Top = true
	return write(path, width, 4.5*vg.Inch, func(dc draw.Canvas) {
		p.Draw(draw.Crop(dc, vg.Points(4), -vg.Points(12), vg.Points(4), -vg.Points(6)))
	})
}

// smallestPositive returns the smallest positive finite y value (minus error
// bars) of the chart, or 1e-300.
func smallestPositive(l Lines) float64 {
	tiny := 0.0
	for _, s := range l.Series {
		for _, y := range s.Y {
			if isFinite(y) && y > 0 && (tiny == 0 || y < tiny) {
				tiny = y
			}
		}
	}
	if tiny == 0 {
		return 1e-300
	}
	return tiny / 10
}
