package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Null is a picture of a permutation test: the histogram of the statistic under permutation and
// the observed statistic as a vertical line.
type Null struct {
	Title     string // e.g. "two-sample test: p = 0.001"
	Statistic string // x-axis label, e.g. "PE statistic"
	Null      []float64
	Observed  float64
}

// WriteNull draws n to path (.png or .svg): the histogram (counts) of the
// finite values of Null and a thick red vertical line at Observed, labelled
// "observed" in the legend. The x range is widened so that the line is
// visible wherever it lies; a non-finite Observed is not drawn.
func WriteNull(path string, n Null) error {
	if err := CheckPath(path); err != nil {
		return err
	}
	p := nullPlot(n)
	return write(path, width, nullHeight, func(dc draw.Canvas) {
		p.Draw(draw.Crop(dc, vg.Points(4), -vg.Points(12), vg.Points(4), -vg.Points(6)))
	})
}

// nullPlot builds the plot of a Null picture.
func nullPlot(n Null) *plot.Plot {
	null := finite(n.Null)
	obs := within(n.Observed, -huge, huge)
	hasObs := isFinite(n.Observed)

	p := newPlot(n.Title)
	p.X.Label.Text = n.Statistic
	p.Y.Label.Text = "permutations"
	addGrid(p, false, true)

	lo, hi := span(null)
	var bins []plotter.HistogramBin
	if len(null) > 0 {
		lo, hi = widen(lo, hi)
		bins = histogram(binEdges(lo, hi, numBins(null, len(null), hi-lo)), null, false)
		h := &plotter.Histogram{
			Bins:      bins,
			Width:     bins[0].Max - bins[0].Min,
			FillColor: translucent(blue, 0xa0),
			LineStyle: draw.LineStyle{Color: blue, Width: vg.Points(0.75)},
		}
		p.Add(h)
		p.Legend.Add(fmt.Sprintf("null (%d permutations)", len(null)), h)
	}

	// The x range: the histogram's, widened to show the observed value with
	// a margin.
	xlo, xhi := lo, hi
	if hasObs {
		xlo, xhi = math.Min(xlo, obs), math.Max(xhi, obs)
	}
	xlo, xhi = widen(xlo, xhi)
	if hasObs && (obs < lo || obs > hi || len(null) == 0) {
		m := 0.04 * (xhi - xlo)
		if obs == xlo {
			xlo -= m
		}
		if obs == xhi {
			xhi += m
		}
	}
	p.X.Min, p.X.Max = xlo, xhi

	if hasObs {
		l := vline{x: obs, LineStyle: draw.LineStyle{Color: red, Width: vg.Points(2.5)}}
		p.Add(l)
		p.Legend.Add("observed", l)
	}
	if len(null) == 0 {
		p.Add(note("no permutation values"))
	}

	p.Y.Min, p.Y.Max = 0, 1.35*maxWeight(bins)
	if p.Y.Max == 0 {
		p.Y.Max = 1
	}
	// Put the legend away from the observed line, or over the emptier side.
	left := !crowdedLeft(xlo, xhi, bins)
	if hasObs {
		left = obs > (xlo+xhi)/2
	}
	placeLegend(p, left)
	return p
}
