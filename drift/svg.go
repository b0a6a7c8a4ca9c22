// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// Chart geometry and colours of the report's plots.
const (
	chartWidth, chartHeight = 440, 200
	chartLeft, chartRight   = 44, 10
	chartTop, chartBottom   = 10, 46
	refColour, curColour    = "#4c72b0", "#dd8452"
)

// chart draws the reference and current distributions of a column as
// inline SVG: overlaid histograms (outlines over translucent fills) for a
// numeric column, grouped bars for a categorical one.
func chart(c *ColumnResult) string {
	if len(c.Ref.Shares) == 0 || len(c.Ref.Shares) != len(c.Cur.Shares) {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s: reference and current distributions">`,
		chartWidth, chartHeight, chartWidth, chartHeight, html.EscapeString(c.Name))
	top := 0.0
	for i := range c.Ref.Shares {
		top = math.Max(top, math.Max(c.Ref.Shares[i], c.Cur.Shares[i]))
	}
	if top == 0 {
		top = 1
	}
	w := float64(chartWidth - chartLeft - chartRight)
	h := float64(chartHeight - chartTop - chartBottom)
	y := func(s float64) float64 { return chartTop + h*(1-s/top) }
	// Axes and the top share.
	fmt.Fprintf(&b, `<line x1="%d" y1="%g" x2="%d" y2="%g" stroke="#444"/>`, chartLeft, y(0), chartWidth-chartRight, y(0))
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%g" stroke="#444"/>`, chartLeft, chartTop, chartLeft, y(0))
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="10" text-anchor="end">%s</text>`, chartLeft-3, chartTop+8, percent(top))
	fmt.Fprintf(&b, `<text x="%d" y="%g" font-size="10" text-anchor="end">0</text>`, chartLeft-3, y(0))
	n := len(c.Ref.Shares)
	slot := w / float64(n)
	if c.Ref.Edges != nil {
		for k, d := range []Distribution{c.Ref, c.Cur} {
			colour := []string{refColour, curColour}[k]
			var path strings.Builder
			fmt.Fprintf(&path, "M%g %g", float64(chartLeft), y(0))
			for i, s := range d.Shares {
				x0, x1 := chartLeft+slot*float64(i), chartLeft+slot*float64(i+1)
				fmt.Fprintf(&path, " L%.2f %.2f L%.2f %.2f", x0, y(s), x1, y(s))
			}
			fmt.Fprintf(&path, " L%d %g Z", chartWidth-chartRight, y(0))
			fmt.Fprintf(&b, `<path d="%s" fill="%s" fill-opacity="0.35" stroke="%s" stroke-width="1.5"/>`, path.String(), colour, colour)
		}
		e := c.Ref.Edges
		for k, i := range []int{0, n / 2, n} {
			fmt.Fprintf(&b, `<text x="%.2f" y="%g" font-size="10" text-anchor="%s">%s</text>`,
				chartLeft+slot*float64(i), y(0)+13, []string{"start", "middle", "end"}[k],
				html.EscapeString(strconv.FormatFloat(e[i], 'g', 4, 64)))
		}
	} else {
		bw := slot * 0.4
		for i := range n {
			x := chartLeft + slot*float64(i) + slot*0.1
			for k, s := range []float64{c.Ref.Shares[i], c.Cur.Shares[i]} {
				colour := []string{refColour, curColour}[k]
				fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"/>`, x+bw*float64(k), y(s), bw, y(0)-y(s), colour)
			}
			label := c.Ref.Labels[i]
			if len([]rune(label)) > 10 {
				label = string([]rune(label)[:9]) + "…"
			}
			fmt.Fprintf(&b, `<text x="%.2f" y="%g" font-size="10" text-anchor="end" transform="rotate(-35 %.2f %g)">%s</text>`,
				x+bw, y(0)+12, x+bw, y(0)+12, html.EscapeString(label))
		}
	}
	// Legend.
	lx := chartWidth - chartRight - 150
	for k, name := range []string{"reference", "current"} {
		colour := []string{refColour, curColour}[k]
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d" font-size="11">%s</text>`,
			lx+75*k, chartTop, colour, lx+75*k+14, chartTop+9, name)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// percent formats a share as a percentage.
func percent(s float64) string {
	if math.IsNaN(s) {
		return "–"
	}
	return strconv.FormatFloat(100*s, 'g', 3, 64) + " %"
}
