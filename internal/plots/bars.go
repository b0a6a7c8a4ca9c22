package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Bars is a horizontal bar chart, one bar per label, in the order given (first at the top), with
// optional error bars (nil, or one half-width per value).
type Bars struct {
	Title  string
	Value  string // x-axis label, e.g. "SMI"
	Labels []string
	Values []float64
	Errors []float64
}

// maxLabel is the number of characters beyond which a bar label is shortened
// (with an ellipsis in the middle) so that the bars keep some width.
const maxLabel = 40

// WriteBars draws b to path (.png or .svg): one horizontal bar per label from
// 0 to its value, the first at the top, with error bars of the given
// half-widths. The height of the picture grows with the number of bars (a
// quarter of an inch each, at least 3 in). A non-finite value leaves its label
// without a bar, a non-finite error leaves its bar without an error bar. It is
// an error for Values (or a non-nil Errors) to differ in length from Labels.
func WriteBars(path string, b Bars) error {
	if err := CheckPath(path); err != nil {
		return err
	}
	if len(b.Values) != len(b.Labels) {
		return fmt.Errorf("plots: %d values for %d bar labels", len(b.Values), len(b.Labels))
	}
	if b.Errors != nil && len(b.Errors) != len(b.Labels) {
		return fmt.Errorf("plots: %d errors for %d bar labels", len(b.Errors), len(b.Labels))
	}
	p := barsPlot(b)
	h := max(minBarsHeight, perBar*vg.Length(len(b.Labels))+vg.Inch)
	return write(path, width, h, func(dc draw.Canvas) {
		p.Draw(draw.Crop(dc, vg.Points(4), -vg.Points(12), vg.Points(4), -vg.Points(6)))
	})
}

// barsPlot builds the plot of a Bars picture.
func barsPlot(b Bars) *plot.Plot {
	n := len(b.Labels)
	p := newPlot(b.Title)
	p.X.Label.Text = b.Value
	addGrid(p, true, false)

	// Bar i is drawn at y = n-1-i, so that the first is at the top.
	bs := &bars{
		vals:  make([]float64, n),
		errs:  make([]float64, n),
		fill:  translucent(blue, 0xc0),
		line:  draw.LineStyle{Color: blue, Width: vg.Points(0.75)},
		whisk: draw.LineStyle{Color: grey, Width: vg.Points(1.25)},
	}
	names := make([]string, n)
	xlo, xhi := 0.0, 0.0
	for i := range n {
		j := n - 1 - i
		names[j] = shorten(b.Labels[i])
		v, e := b.Values[i], math.NaN()
		if b.Errors != nil {
			e = math.Abs(b.Errors[i])
		}
		if !isFinite(v) {
			v, e = math.NaN(), math.NaN()
		}
		if !isFinite(e) {
			e = math.NaN()
		}
		bs.vals[j], bs.errs[j] = v, e
		if isFinite(v) {
			xlo, xhi = math.Min(xlo, v), math.Max(xhi, v)
			if isFinite(e) {
				xlo, xhi = math.Min(xlo, v-e), math.Max(xhi, v+e)
			}
		}
	}
	if xlo == xhi {
		xhi = 1
	}
	xlo, xhi = widen(xlo, xhi)
	m := 0.04 * (xhi - xlo)
	if xlo < 0 {
		xlo -= m
	}
	if xhi > 0 {
		xhi += m
	}
	p.X.Min, p.X.Max = xlo, xhi
	p.Add(vline{x: 0, LineStyle: draw.LineStyle{Color: grey, Width: vg.Points(0.75)}})
	p.Add(bs)

	if n == 0 {
		p.Add(note("no values"))
		p.Y.Min, p.Y.Max = 0, 1
		p.HideY()
		return p
	}
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	p.Y.Padding = 0
	return p
}

// shorten returns s, with its middle replaced by an ellipsis if it has more
// than maxLabel characters.
func shorten(s string) string {
	r := []rune(s)
	if len(r) <= maxLabel {
		return s
	}
	k := (maxLabel - 1) / 2
	return string(r[:k]) + "…" + string(r[len(r)-(maxLabel-1-k):])
}

// bars is a plotter drawing horizontal bars from 0 to vals[i] at y = i, with
// error bars of half-width errs[i]; NaN values are not drawn.
type bars struct {
	vals, errs []float64
	fill       color.Color
	line       draw.LineStyle
	whisk      draw.LineStyle
}

// Plot implements plot.Plotter.
func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	tr := func(x float64) vg.Length { return trX(within(x, p.X.Min, p.X.Max)) }
	const half, cap = 0.35, 0.15
	for i, v := range b.vals {
		if math.IsNaN(v) {
			continue
		}
		y := float64(i)
		x0, x1 := tr(0), tr(v)
		if x0 > x1 {
			x0, x1 = x1, x0
		}
		pts := []vg.Point{
			{X: x0, Y: trY(y - half)},
			{X: x1, Y: trY(y - half)},
			{X: x1, Y: trY(y + half)},
			{X: x0, Y: trY(y + half)},
		}
		c.FillPolygon(b.fill, c.ClipPolygonXY(pts))
		c.StrokeLines(b.line, c.ClipLinesXY(append(pts, pts[0]))...)
	}
	for i, e := range b.errs {
		v := b.vals[i]
		if math.IsNaN(e) || math.IsNaN(v) || e == 0 {
			continue
		}
		y := trY(float64(i))
		xl, xr := tr(v-e), tr(v+e)
		c.StrokeLines(b.whisk, c.ClipLinesXY([]vg.Point{{X: xl, Y: y}, {X: xr, Y: y}})...)
		for _, x := range []vg.Length{xl, xr} {
			c.StrokeLines(b.whisk, c.ClipLinesXY([]vg.Point{
				{X: x, Y: trY(float64(i) - cap)},
				{X: x, Y: trY(float64(i) + cap)},
			})...)
		}
	}
}
