package plots

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Samples is a picture of two samples and a fitted relative density ratio.
type Samples struct {
	Title        string    // e.g. "PE_α(P‖Q) = 0.102 ± 0.001"
	Column       string    // name of the plotted variable (x-axis label)
	P, Q         []float64 // values of that variable in each sample (may be thousands)
	NameP, NameQ string    // legend entries, e.g. "P (a.csv)", "Q (b.csv)"
	// The fitted ratio r̂: points (RatioX[i], RatioY[i]). With RatioCurve true they lie on a grid and
	// are drawn as a line (one-dimensional data); otherwise they are drawn as a scatter of small
	// points (the ratio at sample rows, for data of several dimensions plotted against one of them).
	RatioX, RatioY []float64
	RatioCurve     bool
	RatioLabel     string // y-axis label of the ratio panel, e.g. "r̂_α(x)"
}

// WriteSamples draws s to path (.png or .svg): on top the normalised
// histograms (densities) of P and Q over their common range, with a legend;
// below, on the same x range, the ratio points as a line or a scatter with a
// dashed reference line at 1. Non-finite values (and ratio points with a
// non-finite coordinate) are skipped; an empty sample or ratio leaves its part
// of the picture empty. It is an error for RatioX and RatioY to differ in
// length.
func WriteSamples(path string, s Samples) error {
	if err := CheckPath(path); err != nil {
		return err
	}
	if len(s.RatioX) != len(s.RatioY) {
		return fmt.Errorf("plots: %d ratio abscissas for %d ratio values", len(s.RatioX), len(s.RatioY))
	}
	top, bottom := samplesPlots(s)
	return write(path, width, samplesHeight, func(dc draw.Canvas) {
		t := draw.Tiles{
			Rows: 2, Cols: 1,
			PadX: vg.Points(4), PadY: vg.Points(10),
			PadTop: vg.Points(6), PadBottom: vg.Points(4),
			PadLeft: vg.Points(4), PadRight: vg.Points(12),
		}
		plots := [][]*plot.Plot{{top}, {bottom}}
		cs := plot.Align(plots, t, dc)
		top.Draw(cs[0][0])
		bottom.Draw(cs[1][0])
	})
}

// samplesPlots builds the two panels of a Samples picture.
func samplesPlots(s Samples) (top, bottom *plot.Plot) {
	p, q := finite(s.P), finite(s.Q)
	var rx, ry []float64
	for i := range s.RatioX {
		if isFinite(s.RatioX[i]) && isFinite(s.RatioY[i]) {
			rx = append(rx, within(s.RatioX[i], -huge, huge))
			ry = append(ry, within(s.RatioY[i], -huge, huge))
		}
	}
	if s.RatioCurve {
		sort.Stable(byX{rx, ry})
	}

	// The common x range.
	lo, hi := span(p, q)
	xlo, xhi := widen(span(p, q, rx))

	top = newPlot(s.Title)
	top.Y.Label.Text = "density"
	addGrid(top, true, false)
	if len(p)+len(q) == 0 {
		top.Add(note("no sample values"))
		top.Y.Min, top.Y.Max = 0, 1
	} else {
		lo, hi = widen(lo, hi)
		xlo, xhi = math.Min(xlo, lo), math.Max(xhi, hi)
		n := len(p)
		if len(q) > 0 && (n == 0 || len(q) < n) {
			n = len(q)
		}
		all := append(append([]float64(nil), p...), q...)
		edges := binEdges(lo, hi, numBins(all, n, hi-lo))
		hp, hq := histogram(edges, p, true), histogram(edges, q, true)
		for i, v := range []struct {
			name string
			def  string
			n    int
			bins []plotter.HistogramBin
		}{{s.NameP, "P", len(p), hp}, {s.NameQ, "Q", len(q), hq}} {
			if v.n == 0 {
				continue
			}
			col := blue
			if i == 1 {
				col = orange
			}
			h := &plotter.Histogram{
				Bins:      v.bins,
				Width:     (hi - lo) / float64(len(v.bins)),
				FillColor: translucent(col, 0x60),
			}
			h.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1)}
			top.Add(h)
			name := v.name
			if name == "" {
				name = v.def
			}
			top.Legend.Add(name, h)
		}
		// Put the legend over the emptier side, above the highest bar.
		placeLegend(top, !crowdedLeft(xlo, xhi, hp, hq))
		top.Y.Min, top.Y.Max = 0, 1.25*maxWeight(hp, hq)
		if top.Y.Max == 0 {
			top.Y.Max = 1
		}
	}
	top.X.Min, top.X.Max = xlo, xhi

	bottom = newPlot("")
	bottom.X.Label.Text = s.Column
	bottom.Y.Label.Text = s.RatioLabel
	if bottom.Y.Label.Text == "" {
		bottom.Y.Label.Text = "ratio"
	}
	addGrid(bottom, true, false)
	pts := make(plotter.XYs, len(rx))
	for i := range rx {
		pts[i] = plotter.XY{X: rx[i], Y: ry[i]}
	}
	switch {
	case len(pts) == 0:
		bottom.Add(note("no ratio values"))
	case s.RatioCurve:
		l, err := plotter.NewLine(pts)
		if err == nil {
			l.LineStyle = draw.LineStyle{Color: red, Width: vg.Points(1.75)}
			bottom.Add(l)
		}
	default:
		sc, err := plotter.NewScatter(pts)
		if err == nil {
			sc.GlyphStyle = draw.GlyphStyle{
				Color:  translucent(red, 0x80),
				Radius: vg.Points(1.25),
				Shape:  draw.CircleGlyph{},
			}
			bottom.Add(sc)
		}
	}
	// The reference line, over the points.
	bottom.Add(hline{y: 1, LineStyle: draw.LineStyle{
		Color:  color.Black,
		Width:  vg.Points(1),
		Dashes: []vg.Length{vg.Points(5), vg.Points(3)},
	}})
	ylo, yhi := clamp(span(ry, []float64{0, 1}))
	m := 0.05 * (yhi - ylo)
	if ylo < 0 {
		ylo -= m
	}
	bottom.Y.Min, bottom.Y.Max = ylo, yhi+m
	bottom.X.Min, bottom.X.Max = xlo, xhi
	return top, bottom
}

// byX sorts points (x[i], y[i]) by x.
type byX struct{ x, y []float64 }

func (b byX) Len() int           { return len(b.x) }
func (b byX) Less(i, j int) bool { return b.x[i] < b.x[j] }
func (b byX) Swap(i, j int) {
	b.x[i], b.x[j] = b.x[j], b.x[i]
	b.y[i], b.y[j] = b.y[j], b.y[i]
}
