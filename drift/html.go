// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"

	"github.com/sublinear/pearson/internal/isnil"
)

// WriteHTML writes the result as one self-contained HTML page: the verdict,
// the table of columns (sorted as by Sorted) with divergence ± standard
// error, p- and q-values, the drift flag and missing shares, the joint row
// with how its columns were scaled (Result.JointScaling), and for each column its reference and current distributions overlaid, as
// inline SVG. The page loads nothing: no scripts, fonts, styles or images
// from elsewhere. title heads the page.
// A nil writer or result is an error, not a panic.
func WriteHTML(w io.Writer, res *Result, title string) error {
	if isnil.Is(w) || res == nil {
		return errors.New("drift: WriteHTML: the writer or the result is nil")
	}
	type row struct {
		ColumnResult
		Chart template.HTML
	}
	var rows []row
	for _, c := range res.Sorted() {
		rows = append(rows, row{c, template.HTML(chart(&c))})
	}
	data := struct {
		Title string
		*Result
		Rows []row
	}{title, res, rows}
	if err := page.Execute(w, data); err != nil {
		return fmt.Errorf("drift: writing the report: %w", err)
	}
	return nil
}

// Effect describes the column's effect size in words: "shift +0.12 sd,
// sd ×1.05" for a numeric column, "TV 0.050" for categories, "means 0.31 sd
// apart" for the joint row, "" when there is none.
func (c *ColumnResult) Effect() string {
	switch {
	case c.Name == JointName && !math.IsNaN(c.Shift):
		return fmt.Sprintf("means %.2g sd apart", c.Shift)
	case !math.IsNaN(c.TotalVariation):
		return fmt.Sprintf("TV %.2g", c.TotalVariation)
	case !math.IsNaN(c.Wasserstein):
		return fmt.Sprintf("shift %+.2g sd, sd ×%.3g, W₁ %.2g sd", c.Shift, c.SDRatio, c.Wasserstein)
	case !math.IsNaN(c.Shift):
		return fmt.Sprintf("shift %+.2g sd, sd ×%.3g", c.Shift, c.SDRatio)
	}
	return ""
}

// Judged reports whether the column had a test: of its values or of its
// missing share.
func (c *ColumnResult) Judged() bool { return !math.IsNaN(c.PValue) || !math.IsNaN(c.MissingPValue) }

// Status is "drifted (RULE)", "significant, below the effect threshold",
// "no", or "cannot judge" for a column with no test (see Note).
func (c *ColumnResult) Status() string {
	switch {
	case !c.Judged():
		return "cannot judge"
	case c.Drifted:
		return "drifted (" + c.Rule + ")"
	case c.BelowThreshold:
		return "significant, below the effect threshold"
	}
	return "no"
}

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"num": func(x float64) string {
		if math.IsNaN(x) {
			return "–"
		}
		return strconv.FormatFloat(x, 'g', 3, 64)
	},
	"pct":    percent,
	"effect": func(c ColumnResult) string { return c.Effect() },
	"status": func(c ColumnResult) string { return c.Status() },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; margin: 2em; color: #222; background: #fff; }
.verdict { font-size: 1.4em; padding: 0.6em 1em; border-radius: 6px; display: inline-block; }
.drift { background: #f8d7da; color: #721c24; }
.nodrift { background: #d4edda; color: #155724; }
.some { background: #fff3cd; color: #856404; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #f0f0f0; }
td.name, td.kind { text-align: left; }
tr.drifted td { background: #fdecea; }
.charts { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; border: 1px solid #ddd; padding: 0.5em; }
figcaption { font-weight: bold; margin-bottom: 0.3em; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{if .Drift}}<p id="verdict" class="verdict drift">Drift: {{.Summary}}</p>
{{else if or .Drifted (and .Joint .Joint.Drifted)}}<p id="verdict" class="verdict some">Some drift: {{.Summary}}</p>
{{else if not .Compared}}<p id="verdict" class="verdict some">Cannot judge: no column holds enough values to compare (see the notes)</p>
{{else}}<p id="verdict" class="verdict nodrift">No drift: {{.Summary}}</p>
{{end}}
<p>A column drifts when the adjusted p-value (q, {{.Adjust}}) of its values or of its missing share is below {{.Level}}{{if gt .Threshold -1e300}} and that test's divergence PE<sub>½</sub>(current‖reference) is above {{num .Threshold}}; a significant column below it is marked “significant, below the effect threshold”{{end}}. The effect is the shift of the mean and the ratio of standard deviations in reference standard deviations (numeric columns), the total-variation distance of the frequencies (categories), or the distance between the means in standard deviations (joint row).</p>
<table id="columns">
<thead><tr><th>column</th><th>type</th><th>divergence</th><th>± stderr</th><th>p</th><th>q</th><th>effect</th><th>drifted</th><th>missing (ref)</th><th>missing (cur)</th><th>missing q</th></tr></thead>
<tbody>
{{range .Rows}}<tr class="{{if .Drifted}}drifted{{end}}"><td class="name">{{.Name}}</td><td class="kind">{{.Kind}}</td><td>{{num .Divergence}}</td><td>{{num .StdErr}}</td><td>{{num .PValue}}</td><td>{{num .QValue}}</td><td>{{effect .ColumnResult}}</td><td>{{status .ColumnResult}}</td><td>{{pct .MissingRef}}</td><td>{{pct .MissingCur}}</td><td>{{num .MissingQValue}}</td></tr>
{{end}}</tbody>
{{with .Joint}}<tfoot><tr class="{{if .Drifted}}drifted{{end}}"><td class="name">{{.Name}}</td><td class="kind">all numeric</td><td>{{num .Divergence}}</td><td>{{num .StdErr}}</td><td>{{num .PValue}}</td><td>{{num .QValue}}</td><td>{{effect .}}</td><td>{{status .}}</td><td></td><td></td><td></td></tr></tfoot>{{end}}
</table>
{{with .JointScaling}}<p id="joint-scaling">Joint row: {{.}}.</p>{{end}}
{{with .Absent}}<p>Columns of the reference not in the current data: {{range $i, $n := .}}{{if $i}}, {{end}}{{$n}}{{end}}.</p>{{end}}
{{with .Unknown}}<p>Columns not in the reference (not compared): {{range $i, $n := .}}{{if $i}}, {{end}}{{$n}}{{end}}.</p>{{end}}
<h2>Distributions</h2>
<div class="charts">
{{range .Rows}}{{if .Chart}}<figure><figcaption>{{.Name}}{{if .Drifted}} (drifted){{end}}</figcaption>{{.Chart}}{{with .Note}}<p>{{.}}</p>{{end}}</figure>
{{end}}{{end}}</div>
</body>
</html>
`))
