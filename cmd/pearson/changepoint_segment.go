// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/changepoint"
	"github.com/sublinear/pearson/internal/progress"
)

// streamOnlyFlags are the flags of the streaming detector: any of them set
// chooses it over the segmentation of the whole series.
var streamOnlyFlags = []string{"stream", "threshold", "step", "retune", "exact", "k", "m", "draws", "sigma", "lambda"}

// segmentBase is what a segmentation run holds besides the rows kept and
// Segment's own (SegmentSettings.Memory): the runtime, the program, the
// reader's buffers and the writers, 29–31 MB resident at 10³ rows. The
// run keeps its own allowance, not baseMemory (64 MiB), which is twice it.
const segmentBase = 30 << 20

// segmentResident is the resident memory of a segmentation run per byte
// of live data at its peak: the collector's slack (1.25) and the pages
// the runtime keeps once freed (1.24), measured at 10⁶ rows of white
// noise (88 MB live, 111 MB of heap, 164 MB resident) when the collector
// ran at GOGC = 25. segmentLimit now holds the run to it.
const segmentResident = 1.55

// segmentOvershoot is how far, in arrays of the series' size, the heap
// may pass the runtime's soft limit while the collector marks: Segment
// allocates such arrays whole (at 10⁶ rows of noise the heap reached 140
// MB against a goal of 120, two and a half arrays). 2 left the peak 10–11%
// under the model's need at 10⁶ and 10⁷ rows of noise; 3, 21% under at 10⁷.
const segmentOvershoot = 2

// segmentLimit sets the runtime's soft memory limit for Segment on a series
// of values values to what the model allows (need, the run's resident bound, less
// the program's own file pages, which the runtime does not count, and the
// overshoot), if that is below the limit in force, and returns a function
// that restores it. The collector keeps its default target (GOGC = 100)
// below that limit: on the small heaps of 10⁵ rows a tight target (GOGC =
// 25, which bounded the peak before) ran it every 2.5 MB allocated, a
// quarter of the CPU; the limit bounds the peak whatever the heap. main
// sets the budget as the limit; a process without one (a test calling
// Run, beside others sharing its heap) is left without.
func segmentLimit(need float64, values int) (restore func()) {
	limit := int64(need - fileResident() - segmentOvershoot*8*float64(values))
	old := debug.SetMemoryLimit(-1)
	// No limit in force: not a process main set up (a test calling Run,
	// beside others sharing its heap), which keeps none.
	if old == math.MaxInt64 || limit <= 0 || limit >= old {
		return func() {}
	}
	debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(old) }
}

// fileResident returns the process's resident pages that are mapped from
// files (the program's text and data: Linux's statm "shared"), 0 where
// that is not known.
func fileResident() float64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return 0
	}
	pages, err := strconv.ParseFloat(f[2], 64)
	if err != nil {
		return 0
	}
	return pages * float64(os.Getpagesize())
}

// segmentNeed returns the memory a segmentation of rows rows of dim
// columns needs: segmentBase, and segmentResident times the rows kept
// (values and times) and Segment's own (SegmentSettings.Memory). Measured
// (issue 36, load 2–9): 29, 39, 164 MB resident at 10³, 10⁵, 10⁶ rows of
// one column without a change against 32, 45, 168 MB predicted; with a
// shift in the middle the run holds less (125 MB at 10⁶, 39 MB at 10⁵),
// 259 MB at 10⁶ rows of three columns against 290 MB.
func segmentNeed(s *changepoint.SegmentSettings, rows, dim int) float64 {
	kept := 8 * float64(rows) * float64(dim+1)
	return segmentBase + segmentResident*(kept+s.Memory(rows, dim))
}

// cpSegment is the state of a segmentation run: the rows kept until the end
// of the input, and the budget they must fit in.
type cpSegment struct {
	s      changepoint.SegmentSettings
	values []float64 // rows kept, one after the other
	dim    int
	labels []float64 // the time of each row kept
	budget float64
	scores string // --scores: all, none or auto
	prog   *progress.Bars
}

// autoScoreRows is the most rows whose scores --scores auto writes: the
// JSON of a million rows' scores is some 100 MB.
const autoScoreRows = 100000

// segmentMode reports whether the run segments the whole series (no
// streaming-only flag set), and checks the flags of that mode.
func segmentMode(o *options) (bool, error) {
	for _, name := range streamOnlyFlags {
		if o.given[name] {
			for _, seg := range []string{"changes", "penalty", "scores"} {
				if o.given[seg] {
					return false, usageErr("--%s and --%s: --%s is an option of the segmentation (the default), --%s of the streaming detector", seg, name, seg, name)
				}
			}
			return false, nil
		}
	}
	return true, nil
}

// newCPSegment reads the segmentation's settings: --embed, --window and
// --min-distance adapt to the series unless set. budget is --max-memory's.
func newCPSegment(o *options, budget float64) (*cpSegment, error) {
	g := &cpSegment{s: changepoint.SegmentSettings{Changes: o.changes, Penalty: o.penalty}, scores: o.scores, budget: budget}
	switch g.scores {
	case "all", "none", "auto":
	default:
		return nil, usageErr("--scores %q: want all, none or auto", g.scores)
	}
	g.s.Embed = ifGiven(o, "embed", o.embed)
	g.s.Window = ifGiven(o, "window", o.window)
	g.s.MinDistance = ifGiven(o, "min-distance", o.minDistance)
	if err := g.s.Validate(o.alpha); err != nil {
		return nil, err
	}
	if err := g.checkMemory(1, 0); err != nil {
		return nil, err
	}
	return g, nil
}

// checkMemory refuses a run whose rows kept, and the windows of its
// candidates, would need more than --max-memory: a window holds at most
// as many subsequences as the series has rows.
func (g *cpSegment) checkMemory(dim, rows int) error {
	p := changepoint.SegmentParamsFor(max(rows, 1), &g.s)
	n := float64(min(p.Window, rows))
	window := 8 * (2*n*float64(p.Embed)*float64(dim) + (2*n+float64(p.Embed))*float64(dim))
	c := cost{need: segmentNeed(&g.s, rows, dim), budget: g.budget,
		what: fmt.Sprintf("segmenting the series (which holds its %d rows of %d columns)", rows, dim),
		also: "score it as a stream (--stream), whose memory does not grow with the series"}
	if window > g.budget/2 {
		c = cost{need: c.need, budget: g.budget, what: fmt.Sprintf("--embed %d on %d rows of %d columns", p.Embed, rows, dim), when: " for the windows", lower: "--embed"}
	}
	return c.check()
}

// add keeps a row and its time.
func (g *cpSegment) add(label float64, v []float64) error {
	if g.dim == 0 {
		g.dim = len(v)
		if err := g.checkMemory(g.dim, 0); err != nil {
			return err
		}
	}
	g.values = append(g.values, v...)
	g.labels = append(g.labels, label)
	if n := len(g.labels); n&(n-1) == 0 || n%4096 == 0 {
		return g.checkMemory(g.dim, n)
	}
	return nil
}

// segment segments the rows kept and writes the outcome in the format
// asked for.
func (j *cpJob) segment(stdout io.Writer, name string, columns []string, seed uint64) error {
	g := j.seg
	if len(g.labels) == 0 {
		return fmt.Errorf("%s: %w: no rows", name, changepoint.ErrTooFew)
	}
	// add checks at powers of two and every 4096 rows: the last rows read
	// are checked here, before the work.
	if err := g.checkMemory(g.dim, len(g.labels)); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	// The limit holds the segmentation's peak; it is lifted as soon as
	// Segment returns, before the output (whose every score at 10⁶ rows is
	// about 100 MB of JSON) is written.
	restore := segmentLimit(segmentNeed(&g.s, len(g.labels), g.dim), len(g.values))
	x := mat.NewDense(len(g.labels), g.dim, g.values)
	g.s.Src = seedSource(seed)
	if g.prog != nil {
		var done func()
		g.s.Progress, done = g.prog.Steps("segmenting")
		defer done()
	}
	res, err := changepoint.Segment(j.ctx, x, j.alpha, &g.s)
	restore()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	j.found = len(res.Changes)
	timeName := j.timeCol
	if timeName == "" {
		timeName = "row"
	}
	p := res.Params
	summary := new(record).
		add("input", name).
		add("columns", columns)
	j.addColumnNotes(summary, columns)
	summary.add("time", timeName).
		add("rows", j.rows).
		add("rows_used", len(g.labels))
	if j.drop {
		summary.add("rows_dropped", j.rowNum-j.rows)
	}
	summary.
		add("method", "segmentation").
		add("embed", p.Embed).
		add("window", p.Window).
		add("min_distance", p.MinDistance).
		add("alpha", j.alpha)
	if p.Changes > 0 {
		summary.add("changes_asked", p.Changes)
	} else {
		summary.add("penalty", p.Penalty)
	}
	summary.add("score_median", res.Median).add("score_spread", res.Spread).add("seed", seed).add("detected", len(res.Changes))

	var points, segments, scores []*record
	for _, ch := range res.Changes {
		points = append(points, new(record).add("time", j.iso.value(g.labels[ch.Time])).add("score", ch.Score).add("calibrated", ch.Calibrated).add("what", ch.What).add("strength", ch.Strength).add("rule", ch.Rule))
	}
	for _, sp := range res.Segments {
		segments = append(segments, new(record).add("start", j.iso.value(g.labels[sp.Start])).add("end", j.iso.value(g.labels[sp.End-1])).add("rows", sp.End-sp.Start))
	}
	if g.scores == "all" || (g.scores == "auto" && len(g.labels) <= autoScoreRows) {
		for _, s := range res.Scores {
			scores = append(scores, new(record).add("time", j.iso.value(g.labels[s.Time])).add("score", s.Value).add("before", s.Before).add("after", s.After))
		}
	} else {
		summary.add("scores", fmt.Sprintf("left out (--scores %s, %d rows): --scores all writes them", g.scores, len(g.labels)))
	}
	if j.plot != nil {
		j.plot.segmented = true
		j.plot.threshold = res.Median + p.Penalty*res.Spread
		for _, s := range res.Scores {
			j.plot.scores.add(g.labels[s.Time], []float64{s.Value})
		}
		for _, ch := range res.Changes {
			j.plot.points = append(j.plot.points, g.labels[ch.Time])
		}
	}
	out := j.format.stream(stdout, segmentLayout)
	for _, part := range []struct {
		kind string
		recs []*record
	}{{"score", scores}, {"change_point", points}, {"segment", segments}} {
		for _, r := range part.recs {
			if err := out.put(part.kind, r); err != nil {
				return err
			}
		}
	}
	return out.end(summary)
}

// segmentLayout is how the formats write a segmentation: the scores (text
// leaves them out), the change points and the segments; CSV writes a
// segment's start as its time, and no count of rows.
var segmentLayout = &layout{
	kinds:   []string{"score", "change_point", "segment"},
	quiet:   []string{"score"},
	none:    "no change point: no calibrated score above the penalty is the highest within min_distance rows",
	columns: []string{"time", "end", "score", "before", "after", "calibrated", "what", "strength", "rule"},
	alias:   map[string]string{"start": "time", "rows": ""},
}
