package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Picture sizes.
const (
	width         = 6 * vg.Inch
	samplesHeight = 6 * vg.Inch
	nullHeight    = 4 * vg.Inch
	minBarsHeight = 3 * vg.Inch
	perBar        = vg.Inch / 4
	dpi           = 96
)

// Colours (the first ones of the Tableau 10 palette).
var (
	blue   = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	orange = color.NRGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}
	red    = color.NRGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	grey   = color.NRGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
	grid   = color.NRGBA{R: 0xdd, G: 0xdd, B: 0xdd, A: 0xff}
)

// translucent returns c with alpha a.
func translucent(c color.NRGBA, a uint8) color.NRGBA {
	c.A = a
	return c
}

// CheckPath returns an error unless path ends in .png or .svg
// (case-insensitive), so that the command line can reject a bad picture path
// before any work. The error reads, for example:
//
//	plots: "x.jpg": the picture format is chosen by the extension: use .png or .svg
func CheckPath(path string) error {
	if format(path) == "" {
		return fmt.Errorf("plots: %q: the picture format is chosen by the extension: use .png or .svg", path)
	}
	return nil
}

// format returns "png" or "svg" according to the extension of path, or "".
func format(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return "png"
	case ".svg":
		return "svg"
	}
	return ""
}

// write draws a picture of size w×h with draw and writes it to path in the
// format chosen by its extension. The picture is rendered in memory first, so
// that a failure to draw leaves no file behind.
func write(path string, w, h vg.Length, drawFn func(dc draw.Canvas)) error {
	if err := CheckPath(path); err != nil {
		return err
	}
	var (
		c  vg.CanvasSizer
		wt io.WriterTo
	)
	switch format(path) {
	case "png":
		img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
		c, wt = img, vgimg.PngCanvas{Canvas: img}
	default:
		svg := vgsvg.New(w, h)
		c, wt = svg, svg
	}
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	drawFn(dc)

	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return fmt.Errorf("plots: encoding %q: %w", path, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	return nil
}

// newPlot returns a plot with the package's fonts (Liberation Sans).
func newPlot(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(8)
	for _, f := range []struct {
		font *font.Font
		size vg.Length
	}{
		{&p.Title.TextStyle.Font, 13},
		{&p.X.Label.TextStyle.Font, 11},
		{&p.Y.Label.TextStyle.Font, 11},
		{&p.X.Tick.Label.Font, 9},
		{&p.Y.Tick.Label.Font, 9},
		{&p.Legend.TextStyle.Font, 10},
	} {
		*f.font = font.Font{Typeface: "Liberation", Variant: "Sans", Size: f.size}
	}
	p.Legend.Padding = vg.Points(3)
	p.Legend.ThumbnailWidth = vg.Points(16)
	return p
}

// addGrid adds grid lines: vertical ones if vert, horizontal ones if horiz.
func addGrid(p *plot.Plot, vert, horiz bool) {
	g := plotter.NewGrid()
	g.Vertical.Color = grid
	g.Horizontal.Color = grid
	if !vert {
		g.Vertical.Color = nil
	}
	if !horiz {
		g.Horizontal.Color = nil
	}
	p.Add(g)
}

// finite returns the finite values of xs in a new slice.
func finite(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if isFinite(x) {
			out = append(out, x)
		}
	}
	return out
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// span returns the smallest and largest values of the given slices, or
// (+Inf, -Inf) if they hold no value. The values must be finite.
func span(xss ...[]float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, xs := range xss {
		for _, x := range xs {
			lo = math.Min(lo, x)
			hi = math.Max(hi, x)
		}
	}
	return lo, hi
}

// widen returns a non-degenerate interval containing [lo, hi]: [0, 1] if the
// interval is empty, and an interval of width 1 (or 10% of |x|) around its
// middle x if it is a single point or too narrow to be divided into bins and
// ticks (narrower than 1e-9 of its magnitude, or than 1e-200). The result is
// clamped as by clamp.
func widen(lo, hi float64) (float64, float64) {
	if lo > hi {
		return 0, 1
	}
	lo, hi = clamp(lo, hi)
	if w := hi - lo; w < 1e-200 || w <= 1e-9*math.Max(math.Abs(lo), math.Abs(hi)) {
		x := lo + w/2
		d := math.Max(0.5, 0.05*math.Abs(x))
		lo, hi = x-d, x+d
	}
	return clamp(lo, hi)
}

// huge bounds the axis ranges, so that their widths (with some margin) are
// finite: values beyond it are drawn at the edge or clipped.
const huge = math.MaxFloat64 / 4

// clamp returns lo and hi moved into [-huge, huge].
func clamp(lo, hi float64) (float64, float64) {
	return within(lo, -huge, huge), within(hi, -huge, huge)
}

// within returns x moved into [lo, hi]. Drawing only such values keeps the
// canvas coordinates finite.
func within(x, lo, hi float64) float64 {
	return math.Max(lo, math.Min(hi, x))
}

// quantile returns the q-quantile of sorted values, linearly interpolated.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(sorted)-1)
	i := int(pos)
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	f := pos - float64(i)
	return sorted[i] + f*(sorted[i+1]-sorted[i])
}

// Bounds on the number of bins of a histogram.
const (
	minBins = 10
	maxBins = 60
)

// numBins chooses the number of bins of a histogram of values (finite) over
// a range of width w by the Freedman–Diaconis rule, with n the number of
// observations each histogram holds, falling back to √n when the
// interquartile range is 0, and clamped to [minBins, maxBins].
func numBins(values []float64, n int, w float64) int {
	if n <= 0 || len(values) == 0 {
		return minBins
	}
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	iqr := quantile(s, 0.75) - quantile(s, 0.25)
	k := math.Sqrt(float64(n))
	if h := 2 * iqr / math.Cbrt(float64(n)); h > 0 && w > 0 {
		k = math.Ceil(w / h)
	}
	return int(math.Max(minBins, math.Min(maxBins, k)))
}

// binEdges returns k bins of equal width covering [lo, hi].
func binEdges(lo, hi float64, k int) []plotter.HistogramBin {
	bins := make([]plotter.HistogramBin, k)
	w := (hi - lo) / float64(k)
	for i := range bins {
		bins[i].Min = lo + float64(i)*w
		bins[i].Max = lo + float64(i+1)*w
	}
	bins[k-1].Max = hi
	return bins
}

// histogram counts values (finite, within the bins' range) into a copy of
// bins; with density set the weights are normalised to integrate to 1.
func histogram(bins []plotter.HistogramBin, values []float64, density bool) []plotter.HistogramBin {
	out := append([]plotter.HistogramBin(nil), bins...)
	k := len(out)
	if k == 0 {
		return out
	}
	lo, hi := out[0].Min, out[k-1].Max
	w := (hi - lo) / float64(k)
	for _, v := range values {
		// Values beyond the range (at most rounding errors, or beyond ±huge)
		// go to the first or last bin.
		i := 0
		if f := (v - lo) / w; f >= float64(k) {
			i = k - 1
		} else if f > 0 {
			i = int(f)
		}
		out[i].Weight++
	}
	if density && len(values) > 0 {
		for i := range out {
			out[i].Weight /= float64(len(values)) * w
		}
	}
	return out
}

// maxWeight returns the largest weight of the bins (0 for none).
func maxWeight(bins ...[]plotter.HistogramBin) float64 {
	m := 0.0
	for _, bs := range bins {
		for _, b := range bs {
			m = math.Max(m, b.Weight)
		}
	}
	return m
}

// crowdedLeft reports whether the bins reach higher in the left third of
// [lo, hi] than in the right third, so that a legend is better put on the
// right.
func crowdedLeft(lo, hi float64, bins ...[]plotter.HistogramBin) bool {
	l, r := 0.0, 0.0
	third := (hi - lo) / 3
	for _, bs := range bins {
		for _, b := range bs {
			if b.Min < lo+third {
				l = math.Max(l, b.Weight)
			}
			if b.Max > hi-third {
				r = math.Max(r, b.Weight)
			}
		}
	}
	return l > r
}

// placeLegend puts the legend of p at the top, on the left or right, a little
// away from the edges of the data area.
func placeLegend(p *plot.Plot, left bool) {
	p.Legend.Top = true
	p.Legend.Left = left
	p.Legend.YOffs = -vg.Points(4)
	if left {
		p.Legend.XOffs = vg.Points(8)
	} else {
		p.Legend.XOffs = -vg.Points(8)
	}
}

// note is a plotter writing a message in the data area.
type note string

// Plot implements plot.Plotter.
func (n note) Plot(c draw.Canvas, p *plot.Plot) {
	sty := p.X.Label.TextStyle
	sty.Font.Size = 11
	sty.Color = grey
	sty.XAlign = draw.XCenter
	sty.YAlign = draw.YCenter
	sty.Rotation = 0
	// Above the middle, clear of a line across the data area.
	at := vg.Point{X: c.Center().X, Y: c.Min.Y + 0.7*(c.Max.Y-c.Min.Y)}
	c.FillText(sty, at, string(n))
}

// vline is a plotter drawing a vertical line across the data area.
type vline struct {
	x float64
	draw.LineStyle
}

// Plot implements plot.Plotter.
func (l vline) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	if l.x < p.X.Min || l.x > p.X.Max {
		return
	}
	x := trX(l.x)
	c.StrokeLine2(l.LineStyle, x, c.Min.Y, x, c.Max.Y)
}

// Thumbnail implements plot.Thumbnailer.
func (l vline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(l.LineStyle, c.Min.X, y, c.Max.X, y)
}

// hline is a plotter drawing a horizontal line across the data area.
type hline struct {
	y float64
	draw.LineStyle
}

// Plot implements plot.Plotter.
func (l hline) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	if l.y < p.Y.Min || l.y > p.Y.Max {
		return
	}
	y := trY(l.y)
	c.StrokeLine2(l.LineStyle, c.Min.X, y, c.Max.X, y)
}

// Thumbnail implements plot.Thumbnailer.
func (l hline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(l.LineStyle, c.Min.X, y, c.Max.X, y)
}
