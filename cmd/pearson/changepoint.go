// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sublinear/pearson/changepoint"
	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/plots"
)

// changepointFormats are the output formats of changepoint, in the order
// the help lists them: those of the other commands and JSON Lines.
var changepointFormats = []string{"text", "json", "jsonl", "csv"}

func changepointCommand() *cli.Command {
	return &cli.Command{
		Name:  "changepoint",
		Usage: "find the times at which the distribution of a time series changes",
		UsageText: "pearson changepoint [--columns COLS] [--time COL] [--changes K | --penalty P] [--drop-missing] [options] series.csv\n" +
			"pearson changepoint --stream [--embed 10] [--window 50] [--step 1] [--threshold 3] [options] series.csv",
		Description: "By default the whole series is segmented, with settings that adapt to its length T: subsequences\n" +
			"of --embed rows (1 below 200 rows, 2 below 1000, else 3), windows of up to --window = √T of them\n" +
			"(3 to 50) on either side of every row, shrinking at the edges of the series, and\n" +
			"n·(PE_α(after‖before) + PE_α(before‖after)) as the score of each row, n the window's size, after\n" +
			"removing a significant linear trend (its slope the median of the lag-n differences). The\n" +
			"scores are calibrated on the series itself (minus their median, over their scaled MAD), so that a\n" +
			"trend, a season or a random walk does not read as changes; a change point is a calibrated score\n" +
			"above --penalty (default 2·ln T) that is the highest within --min-distance rows (a third of\n" +
			"the window), placed by re-scoring its neighbourhood with windows that stop at the neighbouring\n" +
			"changes. --changes K asks for the K highest instead. Three rules over whole segments then find\n" +
			"changes of spread, dense or small changes of level (the steps rule: penalised least squares at\n" +
			"the noise's long-run variance, estimated from differences and residuals, beside a smooth trend,\n" +
			"several per segment) and single changes of level that windows of √T rows see weakly (a step is\n" +
			"tested against each segment's own long-run variance, with a trend in the model when the segment\n" +
			"has one; neither level rule speaks in a random walk); the rule column says which found each\n" +
			"change. The output lists the change points, what\n" +
			"changed at each (level, spread, dependence between columns, or shape), and the segments. The\n" +
			"series is held in memory (refused beyond --max-memory). A missing value (an empty cell or line,\n" +
			"or one of " + strings.Join(dataset.MissingWords(), " ") + ") is an error naming its row and\n" +
			"column (in Parquet, a null or NaN); --drop-missing leaves such rows out, and times keep their\n" +
			"row numbers.\n" +
			"An s3:// or http(s):// URL is read whole, in order, by ranged requests of 8 MiB, a few in flight;\n" +
			"objects larger than what --max-memory leaves for the data are refused before any is fetched.\n" +
			"\n" +
			"Output: text prints the run's details, a table of the change points and one of the segments;\n" +
			"json one object with \"scores\", \"change_points\", \"segments\" and the details; csv and jsonl a\n" +
			"line per score, change point and segment, with a kind column or key (jsonl ends with a summary\n" +
			"line). Times are rows counted from 0 (the first data row), or the values of --time: numbers, or\n" +
			"ISO 8601 dates or timestamps (2024-01-31, 2024-01-31T12:00:00Z, 2024-01-31 12:00:00.5+02:00),\n" +
			"printed in the form of the first (times with offsets in its offset); in Parquet also a DATE or\n" +
			"TIMESTAMP column, printed as 2024-01-31 or 2024-01-31T12:00:00Z (without Z when the timestamp is\n" +
			"not adjusted to UTC), with the fraction of a second the first time needs. A change\n" +
			"point's time is the first row of the new segment; a segment's start and end are its first and\n" +
			"last rows (end inclusive). --scores none leaves the score of every row out (auto, the default,\n" +
			"does so beyond 100000 rows); with --drop-missing the summary counts the rows left out.\n" +
			"\n" +
			"With --stream (or any of --threshold, --step, --retune, --exact, --k, --m, --draws, --sigma,\n" +
			"--lambda) each time is scored as the rows arrive, in memory that does not grow with the series,\n" +
			"by how much the window of subsequences before it differs from the window after it:\n" +
			"PE_α(after‖before) + PE_α(before‖after), each term estimated in constant time (Liu, Yamada,\n" +
			"Collier & Sugiyama 2013, with the estimator of Hayashi & Yoshida 2016). A subsequence is --embed\n" +
			"consecutive rows stacked into one point; each window holds --window of them. Change points are\n" +
			"the scores above --threshold that are the highest within --min-distance rows on either side.\n" +
			"Scores are written as the rows arrive (\"-\" is standard input): csv and jsonl write one line per\n" +
			"score and per confirmed change point as they come (a change point is confirmed once the\n" +
			"scores --min-distance rows after it are in), with a kind column or key: score or\n" +
			"change_point; jsonl ends with a summary line. json writes one object, its \"scores\" array as\n" +
			"they come, then \"change_points\" and the run's details. text prints the run's details and a\n" +
			"table of the change points at the end.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "columns", Usage: "comma-separated `COLS` of the series (default: every numeric column but the --time column; a column is numeric when its first non-empty cell is a number)"},
			excludeFlag("the default selection or of --columns"),
			&cli.StringFlag{Name: "time", Usage: "a `COL`umn of time labels, numbers or ISO 8601 dates or timestamps (in Parquet also DATE or TIMESTAMP), strictly increasing, to report times in (without --columns the series is every other numeric column); default: the row, from 0"},
			countFlag("embed", changepoint.DefaultEmbed, "rows per subsequence (default when segmenting: 1, 2 or 3 by the series' length)"),
			countFlag("window", changepoint.DefaultWindow, "subsequences in each of the windows before and after a time (--stream: at least 10; default when segmenting: √rows, 3 to 50)"),
			&cli.IntFlag{Name: "changes", Usage: "segmentation: report exactly `K` change points, the highest scores (0: those above --penalty)"},
			&cli.Float64Flag{Name: "penalty", Usage: "segmentation: the calibrated score a change point must exceed (0: 2·ln(rows))"},
			&cli.BoolFlag{Name: "stream", Usage: "score the rows as they arrive, in bounded memory, with a fixed --threshold, instead of segmenting the whole series"},
			countFlag("step", 1, "rows between scored times"),
			&cli.Float64Flag{Name: "alpha", Value: changepoint.DefaultAlpha, Usage: "α of the relative ratio, in [0, 1); each term of the score lies in [0, (1−α)/α]; 0 is the plain Pearson divergence, unbounded"},
			countFlag("k", changepoint.DefaultK, "centres per draw"),
			countFlag("m", changepoint.DefaultM, "points of both windows averaged per draw (given: each time estimated afresh, about 50× slower)"),
			countFlag("draws", changepoint.DefaultDraws, "independent draws per term (given: each time estimated afresh)"),
			&cli.BoolFlag{Name: "exact", Usage: "RuLSIF's all-centre solution at every step, as the reference implementations: O(n³), windows up to 5000; --k, --m and --draws do not apply"},
			&cli.Float64Flag{Name: "sigma", Usage: "kernel width σ on the standardised subsequences (0: 0.35·√(2·embed·columns), or cross-validated with --retune, --m, --draws or --exact)"},
			&cli.Float64Flag{Name: "lambda", Usage: "all-centre regularisation λ (0: 0.003, or cross-validated with --retune, --m, --draws or --exact)"},
			&cli.IntFlag{Name: "retune", Usage: "rows between choices of σ and λ by cross-validation (0: fixed σ and λ, or at every scored time with --m, --draws or --exact; negative: once, on the first windows)"},
			&cli.Float64Flag{Name: "threshold", Value: changepoint.DefaultThreshold, Usage: "score a change point must exceed (the default gives about one false alarm in 1000 rows at the default settings; 0 means the default; negative: every peak)"},
			&cli.IntFlag{Name: "min-distance", Usage: "rows on either side within which a change point has the highest score (0: the window; a third of it when segmenting)"},
			maxMemoryFlag(),
			&cli.BoolFlag{Name: "drop-missing", Usage: "leave out the rows with a missing value (an empty cell or line, NA, NaN, null), which are otherwise an error, counted in rows_dropped; the other rows keep their row numbers as times"},
			seedFlag(),
			delimFlag(),
			progressFlag(),
			&cli.StringFlag{Name: "format", Value: changepointFormats[0], Usage: "output format: " + strings.Join(changepointFormats, ", ")},
			&cli.StringFlag{Name: "scores", Value: "auto", Usage: "write the score of every row when segmenting: all, none, or auto (all up to 100000 rows)"},
			&cli.StringFlag{Name: "plot", Usage: "draw the series, the score and the change points to `FILE`.png or FILE.svg"},
		},
		Action: action(runChangepoint),
	}
}

// cpJob is a run of changepoint: what the flags say, and the state of the
// stream.
type cpJob struct {
	path    string
	columns []string  // --columns, less --exclude; empty: every numeric column
	exclude []string  // --exclude, with the default selection
	timeCol string    // --time; empty: times are rows
	iso     *isoTimes // reads and prints the --time column; nil without one
	alpha   float64
	s       changepoint.Settings
	frame
	out  stream  // the streaming detector's output; nil when segmenting
	plot *cpPlot // nil unless --plot

	// timeAt is the index of the time column among the values of a row,
	// -1 until known: with --columns it is 0, without it the default
	// selection's order says (findColumns, columnsFromHead). seriesAt are
	// the indices of the series' values among them (nil: every value):
	// all but the time column and the columns of --exclude.
	timeAt   int
	seriesAt []int
	head     *headRecorder // the start of standard input, to find the columns from
	delim    rune
	drop     bool
	series   []float64 // scratch: a row's values of the series (seriesAt)
	// first holds the first idRows rows of the series, row after row, for
	// the warning about columns like row identifiers (idSeriesWarnings).
	first []float64

	seg       *cpSegment // nil when streaming
	lastLine  int        // line of the last row read, 0 before the first
	firstLine int        // line of the first row read
	rowNum    int        // row number of the next row, missing rows counted

	ctx    context.Context
	d      *changepoint.Detector
	times  changepoint.TimeChecker
	labels []float64 // time labels of the last len(labels) rows, by row mod len
	rows   int
	tick   func(rows int64) // draws the rows streamed (streamBar); nil: no bar
	found  int              // change points written
	// lastLabel is the time label of the last row, for the message about
	// times out of order.
	lastLabel float64
}

// runChangepoint runs changepoint with the options o.
func runChangepoint(o *options) error {
	j, err := newCPJob(o)
	if err != nil {
		return err
	}
	plotPath := o.plot
	files, release, err := createOutputs(o, []string{j.path}, []output{{"--plot", plotPath}})
	defer release()
	if err != nil {
		return err
	}
	plotFile := files[0]
	if plotFile != nil {
		j.plot = new(cpPlot)
	}
	readBars := j.prog
	if j.seg != nil {
		j.seg.prog = j.prog
	} else {
		// The stream's bar counts the rows scored (streamBar) and stands
		// for the reader's, which would share its line.
		readBars = noBars()
	}
	// Every row passes through: there is no reservoir to size.
	r, err := newReader(o, readBars, &divergence.Settings{Exact: true})
	if err != nil {
		return err
	}
	// A URL is read whole, by a stream of requests in order: objects
	// larger than the memory budget leaves beside the run's base are
	// refused before their first byte.
	r.scanBytes = max(j.budget-baseMemory, 1)
	q := j.query(j.iso)
	switch {
	case len(j.columns) > 0 && j.timeCol != "":
		q.Columns = append([]string{j.timeCol}, j.columns...)
		j.timeAt = 0
		j.seriesAt = make([]int, len(j.columns))
		for i := range j.seriesAt {
			j.seriesAt[i] = i + 1
		}
	case len(j.columns) > 0:
		q.Columns = j.columns
	case j.timeCol != "" || len(j.exclude) > 0:
		cols, err := j.findColumns(r)
		if err != nil {
			return err
		}
		// Named, the columns found are in every row passed on, even one
		// whose cell of a column not yet decided is missing (dropped).
		q.Columns = cols
	}
	if j.seg == nil {
		// Drawn from here, after findColumns's notes, and ended with the
		// read, before its notes.
		var end func()
		j.tick, end = streamBar(j.prog, j.path)
		r.endBar = end
		defer end()
	}
	t, err := r.scan(j.path, q, j.row)
	if err != nil {
		return j.missingHint(err)
	}
	// Blank lines right after the header are missing rows too, which row
	// could not see: the header's line is known only now.
	// So are rows --drop-missing left out there: segmenting, the times of
	// the rows kept move to their row numbers.
	if shift := j.firstLine - t.HeaderLine - 1; t.HeaderLine > 0 && shift > 0 {
		switch {
		case !j.drop:
			return fmt.Errorf("%s: line %d: row 0 is missing (an empty line): a missing value is not skipped silently; --drop-missing leaves such rows out, and times keep their row numbers", displayPath(j.path), t.HeaderLine+1)
		case j.timeCol == "" && j.seg == nil:
			return fmt.Errorf("%s: line %d: row 0 is missing (an empty line, or a row --drop-missing left out, right after the header): the rows' times would shift; remove the empty lines, give a --time column, or segment the series (leave --stream out)", displayPath(j.path), t.HeaderLine+1)
		case j.timeCol == "":
			j.shiftRows(shift)
		}
		j.rowNum += shift
	}
	cols := t.Columns
	if j.timeCol != "" || len(j.exclude) > 0 {
		cols = slices.DeleteFunc(slices.Clone(cols), func(c string) bool { return c == j.timeCol || slices.Contains(j.exclude, c) })
	}
	if j.seg != nil {
		if err := j.segment(o.stdout, t.Name, cols, o.seed); err != nil {
			return err
		}
		return j.writePlot(plotFile, cols)
	}
	if j.d == nil {
		return fmt.Errorf("%s: %w: no rows", t.Name, changepoint.ErrTooFew)
	}
	last, err := j.d.Flush()
	if err != nil {
		return fmt.Errorf("%s: %w", t.Name, err)
	}
	for _, p := range last {
		if err := j.point(p); err != nil {
			return err
		}
	}
	if err := j.out.end(j.summary(t.Name, cols, o.seed)); err != nil {
		return err
	}
	return j.writePlot(plotFile, cols)
}

// writePlot draws the scores to --plot's temporary file and puts it in
// place, when a plot was asked for and there are scores to draw.
func (j *cpJob) writePlot(plotFile *outFile, cols []string) error {
	if plotFile == nil || len(j.plot.scores.y) == 0 {
		return nil
	}
	if err := j.plot.write(plotFile.name(), j, cols); err != nil {
		return err
	}
	return plotFile.commit()
}

// newCPJob reads and checks the flags and the argument of changepoint, and
// has the library check the settings, before any input is read.
func newCPJob(o *options) (*cpJob, error) {
	j := &cpJob{
		columns: o.columns,
		exclude: o.exclude,
		timeCol: o.timeCol,
		timeAt:  -1,
		alpha:   o.alpha,
		ctx:     o.ctx,
		drop:    o.dropMissing,
		s: changepoint.Settings{
			Embed:       o.embed,
			Window:      o.window,
			Step:        o.step,
			K:           o.est.K,
			M:           ifGiven(o, "m", o.est.M),
			Draws:       ifGiven(o, "draws", o.est.Draws),
			Exact:       o.est.Exact,
			Sigma:       o.sigma,
			Lambda:      o.est.Lambda,
			Retune:      o.retune,
			Threshold:   thresholdGiven(o),
			MinDistance: o.minDistance,
		},
	}
	var err error
	if j.frame, err = newFrame(o, changepointFormats); err != nil {
		return nil, err
	}
	if j.path, err = oneInput(o); err != nil {
		return nil, err
	}
	if j.timeCol != "" {
		j.iso = new(isoTimes)
	}
	switch {
	case slices.Contains(j.columns, j.timeCol):
		return nil, usageErr("--time %s is also in --columns: the time labels are not part of the series", j.timeCol)
	case j.timeCol != "" && slices.Contains(j.exclude, j.timeCol):
		return nil, usageErr("--time %s is also in --exclude: the time labels are not part of the series already", j.timeCol)
	case len(j.columns) > 0 && len(j.exclude) > 0:
		if j.columns, err = excludeListed(j.columns, j.exclude, "columns"); err != nil {
			return nil, err
		}
		j.exclude = nil
	}
	if j.s.Exact {
		for _, name := range []string{"k", "m", "draws"} {
			if o.given[name] {
				return nil, usageErr("--%s and --exact: the all-centre solution uses every subsequence of both windows; leave --%s out", name, name)
			}
		}
	}
	segment, err := segmentMode(o)
	if err != nil {
		return nil, err
	}
	if segment {
		if j.seg, err = newCPSegment(o, j.budget); err != nil {
			return nil, err
		}
		return j, nil
	}
	if err := j.s.Validate(j.alpha); err != nil {
		return nil, err
	}
	if err := j.checkStreamMemory(1); err != nil {
		return nil, err
	}
	j.s.Src = seedSource(o.seed)
	j.out = j.format.stream(o.stdout, streamLayout)
	return j, nil
}

// ifGiven is v, the value of the integer flag name, when the user gave
// it, and zero (the library's default) when not: changepoint's --m and
// --draws choose the estimate of each candidate afresh when given.
func ifGiven(o *options, name string, v int) int {
	if !o.given[name] {
		return 0
	}
	return v
}

// thresholdGiven returns --threshold if given and 0 if not: the library's
// default then follows the columns (changepoint.Detector.Threshold).
func thresholdGiven(o *options) float64 {
	if !o.given["threshold"] {
		return 0
	}
	return o.threshold
}

// row takes the next row of the input: it checks its time label, pushes
// it to the detector, and writes the score and the change points that
// arrive.
func (j *cpJob) row(_ string, line int, v []float64) error {
	// Rows are one line each: a line skipped since the last row was an
	// empty line, or a row that --drop-missing left out for an empty cell.
	if j.lastLine > 0 && line > j.lastLine+1 {
		if !j.drop {
			return fmt.Errorf("%s: line %d: row %d is missing (an empty line): a missing value is not skipped silently; --drop-missing leaves such rows out, and times keep their row numbers", displayPath(j.path), j.lastLine+1, j.rowNum)
		}
		j.rowNum += line - j.lastLine - 1
	}
	if j.lastLine == 0 {
		j.firstLine = line
	}
	j.lastLine = line
	label := float64(j.rowNum)
	j.rowNum++
	if j.head != nil {
		if err := j.columnsFromHead(len(v)); err != nil {
			return err
		}
	}
	if j.timeCol != "" {
		label = v[j.timeAt]
		if err := j.times.Next(label); err != nil {
			if j.iso.layout != "" && j.rows > 0 {
				return fmt.Errorf("%s: line %d: %w: the time of row %d (%v) is not after that of the row before (%v)", displayPath(j.path), line, changepoint.ErrTimes, j.rowNum-1, j.iso.value(label), j.iso.value(j.lastLabel))
			}
			return fmt.Errorf("%s: line %d: %w", displayPath(j.path), line, err)
		}
		j.lastLabel = label
	}
	if j.seriesAt != nil {
		j.series = j.series[:0]
		for _, i := range j.seriesAt {
			j.series = append(j.series, v[i])
		}
		v = j.series
	}
	if j.rows < idRows && len(j.first)+len(v) <= maxIDValues {
		j.first = append(j.first, v...)
	}
	if j.seg != nil {
		j.rows++
		if j.plot != nil {
			j.plot.series.add(label, v)
		}
		if err := j.seg.add(label, v); err != nil {
			return fmt.Errorf("%s: line %d: %w", displayPath(j.path), line, err)
		}
		return nil
	}
	if j.d == nil {
		if err := j.checkStreamMemory(len(v)); err != nil {
			return err
		}
		var err error
		if j.d, err = changepoint.NewDetector(len(v), j.alpha, &j.s); err != nil {
			return err
		}
		if j.timeCol != "" || j.drop {
			// Times are labels, or row numbers that rows left out skip.
			// A change point is confirmed at most MinDistance + Step rows
			// after its time, which is at most MinRows rows before the
			// row that completes its score.
			r := j.s.Resolved()
			j.labels = make([]float64, j.d.MinRows()+r.MinDistance+r.Step+1)
		}
	}
	if j.labels != nil {
		j.labels[j.rows%len(j.labels)] = label
	}
	if j.plot != nil {
		j.plot.series.add(label, v)
	}
	j.rows++
	if j.tick != nil {
		j.tick(int64(j.rows))
	}
	s, ok, err := j.d.Push(j.ctx, v)
	if err != nil || !ok {
		return err
	}
	if j.plot != nil {
		j.plot.scores.add(j.label(s.Time), []float64{s.Value})
	}
	if err := j.out.put("score", scoreRecord(j.iso.value(j.label(s.Time)), s)); err != nil {
		return err
	}
	for _, p := range j.d.ChangePoints() {
		if err := j.point(p); err != nil {
			return err
		}
	}
	return nil
}

// point writes a change point.
func (j *cpJob) point(p changepoint.Score) error {
	j.found++
	if j.plot != nil {
		j.plot.points = append(j.plot.points, j.label(p.Time))
	}
	return j.out.put("change_point", scoreRecord(j.iso.value(j.label(p.Time)), p))
}

// label returns the time of a row: its --time label, or the row itself.
func (j *cpJob) label(row int) float64 {
	if j.labels == nil {
		return float64(row)
	}
	return j.labels[row%len(j.labels)]
}

// threshold is the streaming detector's threshold at the last row, which
// with several columns and no --threshold follows their correlation; def
// when there is no detector.
func (j *cpJob) threshold(def float64) float64 {
	if j.d == nil {
		return def
	}
	return j.d.Threshold()
}

// summary is the record of the run's details.
func (j *cpJob) summary(name string, columns []string, seed uint64) *record {
	timeName := j.timeCol
	if timeName == "" {
		timeName = "row"
	}
	s := j.s.Resolved()
	r := new(record).
		add("input", name).
		add("columns", columns)
	j.addColumnNotes(r, columns)
	r.add("time", timeName).add("rows", j.rows)
	if j.drop {
		r.add("rows_dropped", j.rowNum-j.rows)
	}
	return r.add("embed", s.Embed).
		add("window", s.Window).
		add("step", s.Step).
		add("alpha", j.alpha).
		add("retune", j.s.Retune).
		add("threshold", j.threshold(s.Threshold)).
		add("min_distance", s.MinDistance).
		add("seed", seed).
		add("detected", j.found)
}

// windowScale says how the columns of a series are scaled: by the
// detector and the segmentation themselves, each coordinate of the
// subsequences over the two windows of each time, so that columns on
// different scales weigh alike (and a column multiplied by a constant
// gives the same scores, TestChangepointScaleFree); the output says so,
// as divergence's "scaled" does, when there are several columns.
const windowScale = "(x − mean)/sd per column, over the two windows of each time"

// addWindowScale adds the "scaled" key to the summary r of a series of
// several columns.
func addWindowScale(r *record, columns []string) {
	if len(columns) > 1 {
		r.add("scaled", windowScale)
	}
}

// addColumnNotes adds to the summary r what it says about the columns:
// "scaled" (addWindowScale), and "warnings" when a column looks like a row
// identifier (idSeriesWarnings).
func (j *cpJob) addColumnNotes(r *record, columns []string) {
	addWindowScale(r, columns)
	if w := j.idSeriesWarnings(columns); len(w) > 0 {
		r.add("warnings", w)
	}
}

// idRows is how many rows of the series idSeriesWarnings looks at, and
// maxIDValues the most values it keeps (1 MiB: fewer rows of a series of
// more than 128 columns).
const (
	idRows      = 1000
	maxIDValues = 1 << 17
)

// idSeriesWarnings returns a warning for each column of the series that
// looks like a row identifier (idLikeValues) over its first idRows rows:
// a row number or an integer time stamp, which changes at every row.
func (j *cpJob) idSeriesWarnings(columns []string) []string {
	d := len(columns)
	if d == 0 || len(j.first) < d*minIDRows {
		return nil
	}
	n := len(j.first) / d
	var w []string
	col := make([]float64, n)
	for c, name := range columns {
		for i := range n {
			col[i] = j.first[i*d+c]
		}
		if idLikeValues(col, n) {
			w = append(w, fmt.Sprintf("column %s holds distinct integers on each of its first %d rows, like a row identifier or a time stamp: in the series it changes at every row and hides the changes of the others; give it as --time if it labels the rows, or leave it out with --exclude %s", quoteShort(name), n, name))
		}
	}
	return w
}

// streamLayout is how the formats write the streaming detector's output:
// a score per scored time (text leaves them out) and the change points as
// they are confirmed.
var streamLayout = &layout{
	kinds:   []string{"score", "change_point"},
	quiet:   []string{"score"},
	none:    "no change point: no score above the threshold is the highest within min_distance rows",
	columns: []string{"time", "score", "before", "after"},
}

// scoreRecord is a score or a change point as the formats write it, at
// time (isoTimes.value).
func scoreRecord(time any, s changepoint.Score) *record {
	return new(record).add("time", time).add("score", s.Value).add("before", s.Before).add("after", s.After)
}

// timeValue returns a time label for a record: an integer label (a row, an
// epoch time in seconds or milliseconds) as an int, which every format
// prints in full — as a float64 the text format would print 1.70000e+09 for
// 1700000123 — and any other as it is.
func timeValue(v float64) any {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return int(v)
	}
	return v
}

// cpPlot keeps what the picture of a run shows: at most 2·plotPoints
// points of the series and of the scores, evenly thinned, and every change
// point, so that its memory does not grow with the series either.
type cpPlot struct {
	series, scores thinned
	points         []float64
	// segmented is set when the series was segmented: the line drawn is
	// then the penalty in the scores' units, threshold.
	segmented bool
	threshold float64
}

// write draws the picture to path.
func (p *cpPlot) write(path string, j *cpJob, columns []string) error {
	timeName := j.timeCol
	if timeName == "" {
		timeName = "row"
	}
	title := fmt.Sprintf("change points: %d detected (window %d, embed %d, α = %g)",
		len(p.points), j.s.Resolved().Window, j.s.Resolved().Embed, j.alpha)
	if p.series.stride > 1 {
		timeName += fmt.Sprintf(" (1 row in %d drawn)", p.series.stride)
	}
	threshold := j.threshold(changepoint.DefaultThreshold)
	if j.s.Threshold != 0 {
		threshold = j.s.Threshold
	}
	thresholdName := ""
	if p.segmented {
		threshold, thresholdName = p.threshold, "penalty (full windows)"
		title = fmt.Sprintf("change points: %d detected (segmentation, α = %g)", len(p.points), j.alpha)
	}
	return plots.WriteChangePoints(path, plots.ChangePoints{
		Title:         title,
		Time:          timeName,
		Names:         columns,
		Times:         p.series.x,
		Values:        p.series.y,
		ScoreTimes:    p.scores.x,
		Scores:        p.scores.y[0],
		Threshold:     threshold,
		ThresholdName: thresholdName,
		Points:        p.points,
	})
}

// thinned keeps every stride-th of a sequence of points (x, y[0], y[1], …),
// doubling the stride, and dropping every other point kept, whenever
// 2·plotPoints are kept.
type thinned struct {
	stride, seen int
	x            []float64
	y            [][]float64 // y[j][i] is coordinate j of point i
}

func (t *thinned) add(x float64, y []float64) {
	if t.stride == 0 {
		t.stride = 1
		t.y = make([][]float64, len(y))
	}
	if t.seen%t.stride == 0 {
		t.x = append(t.x, x)
		for j, v := range y {
			t.y[j] = append(t.y[j], v)
		}
	}
	t.seen++
	if len(t.x) < 2*plotPoints {
		return
	}
	t.stride *= 2
	t.x = everyOther(t.x)
	for j := range t.y {
		t.y[j] = everyOther(t.y[j])
	}
}

// everyOther keeps the elements of s at even indices, in place.
func everyOther(s []float64) []float64 {
	n := 0
	for i := 0; i < len(s); i += 2 {
		s[n] = s[i]
		n++
	}
	return s[:n]
}

// maxHead is the most of standard input kept to find the --time column
// in: the header and the rows up to the first valid one.
const maxHead = 16 << 20

// findColumns prepares the search for the --time column and those of
// --exclude among the columns of the default selection (every numeric
// column), which the rows passed on do not name. A file is opened once
// more and its columns read before the series (from a few rows drawn by
// seeking when the file allows it; a compressed file is read in full);
// standard input, which cannot be read twice, is recorded as it is read
// until the first row arrives, and columnsFromHead reads the columns from
// that record. It returns the columns of a file (nil for standard input).
func (j *cpJob) findColumns(r *reader) ([]string, error) {
	j.delim, j.drop = r.delim, r.drop
	if j.path == "-" {
		j.head = &headRecorder{r: r.stdin}
		r.stdin = j.head
		return nil, nil
	}
	src, done, err := r.open(j.path)
	if err != nil {
		return nil, err
	}
	t, err := src.Sample(r.ctx, j.query(new(isoTimes)), dataset.Sampling{Size: 1, Seek: true, Src: rand.NewPCG(r.seed, 0x74696d65)})
	done()
	if err != nil {
		return nil, j.missingHint(err)
	}
	noteSkipped(r.stderr, displayPath(j.path), t.Skipped)
	return t.Columns, j.setColumns(t.Columns)
}

// columnsFromHead finds the --time column and those of --exclude among the
// n values of the first row of standard input, from the record of the
// input read so far: its header and at least that row.
func (j *cpJob) columnsFromHead(n int) error {
	head := j.head.stop()
	j.head = nil
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
		head = head[:i+1] // complete lines only
	}
	src, err := dataset.Open("-", dataset.Options{Delimiter: j.delim, Stdin: bytes.NewReader(head)})
	var t *dataset.Table
	if err == nil {
		t, err = src.Sample(j.ctx, j.query(new(isoTimes)), dataset.Sampling{})
		src.Close()
	}
	if pe := (*dataset.ParseError)(nil); errors.As(err, &pe) && slices.Contains([]error{dataset.ErrEmptyCell, dataset.ErrBadCell, dataset.ErrNotNumber, dataset.ErrNonFinite}, pe.Err) {
		return err // a cell, which the columns do not explain (scan adds missingHint)
	}
	if err == nil && len(t.Columns) != n {
		err = fmt.Errorf("%d columns in the first %d bytes, %d in the first row", len(t.Columns), len(head), n)
	}
	if err != nil {
		flag := "--exclude"
		if j.timeCol != "" {
			flag = "--time " + j.timeCol
		}
		return fmt.Errorf("%s: %s: cannot tell the numeric columns from the start of the input (%w); name the series with --columns", displayPath(j.path), flag, err)
	}
	return j.setColumns(t.Columns)
}

// setColumns finds the --time column and those of --exclude among the
// columns of the default selection, and the series' values among a row's
// (seriesAt).
func (j *cpJob) setColumns(cols []string) error {
	if j.timeCol != "" {
		j.timeAt = slices.Index(cols, j.timeCol)
		switch {
		case j.timeAt < 0:
			return fmt.Errorf("%s: --time %s is not among the numeric columns of the input (%s)", displayPath(j.path), j.timeCol, strings.Join(cols, ", "))
		case len(cols) == 1:
			return fmt.Errorf("%s: --time %s is the only numeric column: there is no series to score; name it with --columns", displayPath(j.path), j.timeCol)
		}
	}
	if _, err := keptColumns(displayPath(j.path), cols, j.exclude, nil); err != nil {
		return err
	}
	j.seriesAt = []int{}
	for i, name := range cols {
		if name != j.timeCol && !slices.Contains(j.exclude, name) {
			j.seriesAt = append(j.seriesAt, i)
		}
	}
	if len(j.seriesAt) == 0 {
		return fmt.Errorf("%s: --exclude leaves no column of the series but --time %s", displayPath(j.path), j.timeCol)
	}
	return nil
}

// headRecorder passes a stream on and keeps a copy of the first maxHead
// bytes read from it until stop.
type headRecorder struct {
	r       io.Reader
	buf     []byte
	stopped bool
}

func (h *headRecorder) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if !h.stopped && len(h.buf) < maxHead {
		h.buf = append(h.buf, p[:min(n, maxHead-len(h.buf))]...)
	}
	return n, err
}

// stop ends the record and returns it.
func (h *headRecorder) stop() []byte {
	b := h.buf
	h.stopped, h.buf = true, nil
	return b
}

// checkStreamMemory refuses, before the first row is scored, a streaming
// run whose windows would need more than --max-memory: the last 2n + k − 1
// rows, the running sums of the k·dim coordinates, the scores of the last
// MinDistance rows and a time label for each.
func (j *cpJob) checkStreamMemory(dim int) error {
	r := j.s.Resolved()
	// Before the columns are read, dim is 1: what one column needs.
	cols := fmt.Sprintf("%d columns", dim)
	if dim == 1 {
		cols = "one column"
	}
	c := cost{need: float64(baseMemory) + j.s.StreamMemory(dim), budget: j.budget,
		what:  fmt.Sprintf("--window %d, --embed %d and --min-distance %d on %s", r.Window, r.Embed, r.MinDistance, cols),
		lower: "them"}
	if r.Exact {
		c.what, c.when = fmt.Sprintf("--exact with --window %d on %s", r.Window, cols), " (the all-centre fit grows as the window squared)"
		c.lower = "--window, leave --exact out"
	}
	return asUsage(c.check())
}

// missingHint adds to err, when it is about a missing value and
// --drop-missing is not given, what --drop-missing does.
func (j *cpJob) missingHint(err error) error {
	if errors.Is(err, dataset.ErrEmptyCell) && !j.drop {
		return fmt.Errorf("%w; --drop-missing leaves such rows out (counted in rows_dropped), and times keep their row numbers", err)
	}
	return err
}

// query is the query of changepoint's reads: the words of
// dataset.MissingWords are missing values, as empty cells are, and the
// --time column is read by iso, numbers or ISO 8601 times.
func (j *cpJob) query(iso *isoTimes) dataset.Query {
	q := dataset.Query{DropMissing: j.drop, NA: true}
	if j.timeCol != "" {
		q.Cells = map[string]func(string) (float64, error){j.timeCol: iso.parse}
	}
	return q
}

// shiftRows adds n to the times of the rows kept for the segmentation,
// which are rows counted from the first one read: the n lines before it
// were missing rows.
func (j *cpJob) shiftRows(n int) {
	for i := range j.seg.labels {
		j.seg.labels[i] += float64(n)
	}
	if j.plot != nil {
		for i := range j.plot.series.x {
			j.plot.series.x[i] += float64(n)
		}
	}
}
