// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/progress"
	"github.com/sublinear/pearson/internal/redact"
	"github.com/sublinear/pearson/objstore"
	"github.com/sublinear/pearson/tabular"
)

// inputFlags are the flags of the commands that read tables.
func inputFlags() []cli.Flag {
	return []cli.Flag{
		delimFlag(),
		&cli.BoolFlag{Name: "drop-missing", Usage: "skip rows with an empty cell in a used column (counted on standard error) instead of failing"},
		standardizeFlag(),
		&cli.IntFlag{Name: "reservoir", Usage: "rows kept per sample, drawn at random from a file or kept while reading every row (0: (draws+2)·(k+m), what the estimate uses; --exact keeps every row)"},
		&cli.BoolFlag{Name: "scan", Usage: "read and validate every row of the input files instead of drawing the rows the estimate needs at random positions (standard input, pipes and compressed files are always read in full)"},
		&cli.StringFlag{Name: "endpoint", Usage: "`URL` of the S3-compatible server that s3:// paths are read from (http://127.0.0.1:7070, addressed path-style); empty: AWS_ENDPOINT_URL, or AWS itself"},
		&cli.DurationFlag{Name: "timeout", Value: objstore.DefaultTimeout, EnvVars: []string{"PEARSON_TIMEOUT"}, Usage: "how long (a `DURATION`: 30s, 2m) a request to an s3:// or http(s):// input waits for the answer to start, and for its bytes to keep coming (a body slower than 4 KiB/s over this span fails); a request that timed out is not retried (0: no bound)"},
		&cli.DurationFlag{Name: "connect-timeout", Value: objstore.DefaultConnectTimeout, EnvVars: []string{"PEARSON_CONNECT_TIMEOUT"}, Usage: "how long (a `DURATION`) a request to an s3:// or http(s):// input waits for its connection to the server (0: no bound)"},
	}
}

// sample is the rows of one sample, as the estimators take them.
type sample struct {
	name string     // for output: a file name, or column=value for a group
	x    *mat.Dense // the kept rows
	rows int        // the rows of the file it stands for: estimated when sampled
	// rowsStdErr is the standard error of rows when it is an estimate, 0
	// when it is a count.
	rowsStdErr float64
	sampled    bool // the rows were drawn at random positions, not all read
	rowsRead   int  // the data rows of its input file read and validated
	// units is, for a Parquet input sampled in two stages, the draw each
	// kept row was taken from (dataset.Group.Units), of draws draws; nil
	// otherwise. unitError turns it into the estimate's error bar.
	units  []int
	draws  int
	strata []int // of the draws (dataset.Table.DrawStrata); nil: one stratum
	// classes names, for mi and rank, the classes of a y column read as
	// class labels, in the order of their codes; nil otherwise.
	classes []string
	// cats are the columns of x that hold category codes (see
	// categories.go); nil when every column is numeric.
	cats []int
}

// readAs says how the sample's input was read: "sampled" (rows drawn at
// random positions, the row count estimated) or "scanned" (every row read
// and counted).
func (s sample) readAs() string {
	if s.sampled {
		return "sampled"
	}
	return "scanned"
}

// matrix returns the sample for the estimators: a Subsample when the
// reservoir kept only some of the rows.
func (s sample) matrix() mat.Matrix {
	var x mat.Matrix = s.x
	if len(s.cats) > 0 {
		x = divergence.Categorical{Matrix: s.x, Columns: s.cats}
	}
	if r, _ := s.x.Dims(); r < s.rows {
		return divergence.Subsample{Matrix: x, Rows: s.rows}
	}
	return x
}

// reader holds what every table read needs.
type reader struct {
	ctx       context.Context // stops a long read
	stdin     io.Reader       // what the file name "-" reads
	delim     rune
	reservoir int  // rows kept per group; 0 keeps every row
	seek      bool // draw the rows of a seekable file at random positions
	drop      bool
	seed      uint64
	endpoint  string // --endpoint: the S3-compatible server of s3:// paths
	// timeout and connect are --timeout and --connect-timeout (negative:
	// no bound).
	timeout, connect time.Duration
	// scanBytes bounds the bytes of the objects a scan of a URL reads
	// whole (0: no bound); see remote.
	scanBytes float64
	whole     bool     // the reads are scans: every byte in order
	quiet     bool     // read leaves the notes of a read to its caller (readDefault)
	told      []string // columns left out whose warning says so: no note of their own
	prog      *progress.Bars
	// endBar, when not nil, ends a bar of the caller's drawn while the
	// input is read (changepoint --stream's rows), as the reader's own
	// end: when it is closed, before the notes of the read.
	endBar func()
	stderr io.Writer
}

// newReader reads the input flags. s.Exact asks for every row; so does
// --ratio-out, whose second pass reads every row anyway: the first then
// validates them all before the estimate is printed.
func newReader(o *options, prog *progress.Bars, s *divergence.Settings) (*reader, error) {
	delim, err := delimiter(o)
	if err != nil {
		return nil, err
	}
	r := &reader{ctx: o.ctx, stdin: o.stdin, delim: delim, drop: o.dropMissing, seed: o.seed, prog: prog, stderr: o.stderr}
	if r.timeout, r.connect, err = timeouts(o); err != nil {
		return nil, err
	}
	if r.endpoint = o.endpoint; r.endpoint != "" {
		if u, err := url.Parse(r.endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, usageErr("--endpoint %s: give the URL of an S3-compatible server, such as http://127.0.0.1:7070", r.endpoint)
		}
	}
	switch res := o.reservoir; {
	case res < 0:
		return nil, usageErr("--reservoir %d: the rows kept per sample cannot be negative", res)
	case s.Exact:
		r.reservoir = 0
	case res > 0:
		r.reservoir = res
	default:
		r.reservoir = defaultReservoir(s)
	}
	r.seek = r.reservoir > 0 && !o.scan && o.ratioOut == ""
	return r, nil
}

// defaultReservoir is divergence.SampleRows, what the estimate uses, or
// divergence.TwoSampleRows, what a two-sample test averages over, if more: a
// file sampled by seeking reads about that many rows; a file read in full
// keeps them all the same, so that a scan and a sample of the same data draw
// the estimate from the same number of rows. Zero (every row) when that does
// not fit an int32.
func defaultReservoir(s *divergence.Settings) int {
	r := max(divergence.SampleRows(s), divergence.TwoSampleRows(s.M))
	if r > math.MaxInt32 {
		return 0
	}
	return r
}

// open opens the table at path ("-" is standard input), drawing a bar of
// the bytes read; the function returned closes it and ends the bar.
func (r *reader) open(path string) (dataset.Source, func(), error) {
	desc := "reading " + displayPath(path)
	progress, done := r.prog.Bytes(desc)
	requests, doneRequests := r.prog.Requests(desc)
	store := remote{settings: r.storeSettings(), progress: requests, whole: r.whole, maxBytes: r.scanBytes}
	src, err := openTable(r.ctx, path, dataset.Options{Delimiter: r.delim, Stdin: r.stdin, Progress: progress}, store, r.stderr)
	if err != nil {
		done()
		doneRequests()
		return nil, nil, err
	}
	return src, func() {
		src.Close()
		done()
		doneRequests()
		if r.endBar != nil {
			r.endBar()
		}
	}, nil
}

// read reads a sample of --reservoir rows of each group of the rows q
// selects in the table at path: drawn at random positions when the reader
// seeks and the file allows it, otherwise kept while every row is read.
// The columns of q.Labels are read as labels in CSV and Parquet alike, so
// that --drop-missing drops the rows with a missing label before the
// sample is drawn, as it does those with a missing number.
func (r *reader) read(path string, q dataset.Query) (*dataset.Table, error) {
	src, closeFn, err := r.open(path)
	if err != nil {
		return nil, err
	}
	q.DropMissing = r.drop
	t, err := r.sample(src, q)
	closeFn()
	if errors.Is(err, dataset.ErrEmptyCell) {
		err = fmt.Errorf("%w; --drop-missing skips such rows", err)
	}
	if r.quiet && err == nil {
		return t, nil
	}
	return r.noted(path, t, err)
}

// sample samples the rows q selects of src as the reader says.
func (r *reader) sample(src dataset.Source, q dataset.Query) (*dataset.Table, error) {
	return src.Sample(r.ctx, q, dataset.Sampling{Size: r.reservoir, Src: rand.NewPCG(r.seed, 0x72657365727665), Seek: r.seek, Blocks: r.seek})
}

// scan passes every row q selects in the table at path to fn, in file
// order.
func (r *reader) scan(path string, q dataset.Query, fn dataset.RowFunc) (*dataset.Table, error) {
	r.whole = true
	src, closeFn, err := r.open(path)
	r.whole = false
	if err != nil {
		return nil, err
	}
	q.DropMissing = r.drop
	t, err := src.Scan(r.ctx, q, fn)
	closeFn()
	return r.noted(path, t, err)
}

// noted returns the outcome of a read, after saying on standard error why a
// file that could have been sampled was read in full, or that it was
// sampled, which rows were dropped and which columns left out.
func (r *reader) noted(path string, t *dataset.Table, err error) (*dataset.Table, error) {
	if err != nil {
		return nil, err
	}
	name := displayPath(path)
	if t.Fallback != "" {
		fmt.Fprintf(r.stderr, "pearson: %s: reading every row: %s\n", name, t.Fallback)
	}
	if t.Sampled {
		counts := "the row counts estimated"
		if t.Units > 0 && t.BlockBytes == 0 && t.Objects == 0 && !slices.ContainsFunc(t.Groups, func(g dataset.Group) bool { return g.RowsStdErr > 0 }) {
			counts = "the row counts exact (from the metadata)"
		}
		fmt.Fprintf(r.stderr, "pearson: %s: sampled: %s, %s (--scan reads every row)\n", name, sampledRead(t), counts)
	}
	switch {
	case t.Dropped > 0 && t.Sampled:
		fmt.Fprintf(r.stderr, "pearson: %s: dropped about %d rows with empty cells (estimated from the rows drawn)\n", name, t.Dropped)
	case t.Dropped > 0:
		fmt.Fprintf(r.stderr, "pearson: %s: dropped %d rows with empty cells\n", name, t.Dropped)
	}
	noteSkipped(r.stderr, name, slices.DeleteFunc(slices.Clone(t.Skipped), func(s dataset.Skipped) bool { return slices.Contains(r.told, s.Column) }))
	return t, nil
}

// sampledRead says what a sampled read read, for its note: the blocks of
// a CSV file sampled in blocks, the units of a Parquet input sampled in two
// stages, or the rows drawn one by one.
func sampledRead(t *dataset.Table) string {
	switch {
	case t.Objects > 0:
		return fmt.Sprintf("%d of %d objects drawn at random and read whole (a compressed object cannot be read from an offset), %d rows read and validated", t.ObjectsRead, t.Objects, t.RowsRead)
	case t.BlockBytes > 0:
		return fmt.Sprintf("%d blocks of about %s drawn, %d rows read and validated", t.Units, formatSize(float64(t.BlockBytes)), t.RowsRead)
	case t.Units > 0:
		return fmt.Sprintf("%d units (pages or row groups) drawn in %d draws of a row group, %d distinct units and %d rows read and validated", t.UnitDraws, t.Draws, t.Units, t.RowsRead)
	}
	return fmt.Sprintf("%d rows read at random positions and validated", t.RowsRead)
}

// maxSkippedNotes is how many columns left out by the default selection are
// named on standard error, one a line.
const maxSkippedNotes = 10

// noteSkipped says on w which columns the default selection left out, and
// why: the first non-empty cell is not a number, or there is none.
func noteSkipped(w io.Writer, name string, skipped []dataset.Skipped) {
	for i, s := range skipped {
		if i == maxSkippedNotes {
			fmt.Fprintf(w, "pearson: %s: and %d more columns left out\n", name, len(skipped)-i)
			return
		}
		switch {
		case s.Column == "":
			fmt.Fprintf(w, "pearson: %s: column %d left out: it has no name in the header line\n", name, s.Index)
		case s.Line == 0 && s.Value != "": // a Parquet column: Value is its type
			fmt.Fprintf(w, "pearson: %s: column %s left out: its type, %s, is not read as numbers\n", name, quoteShort(s.Column), s.Value)
		case s.Line == 0:
			fmt.Fprintf(w, "pearson: %s: column %s left out: it is empty in every row\n", name, quoteShort(s.Column))
		default:
			fmt.Fprintf(w, "pearson: %s: column %s left out: its first value, on line %d, is %s, not a number\n", name, quoteShort(s.Column), s.Line, quoteShort(s.Value))
		}
	}
}

// quoteShort quotes s, cut to about 40 bytes (tabular.Quote).
func quoteShort(s string) string { return tabular.Quote(s) }

// groupSample turns a group of the table t into a sample.
func groupSample(name string, t *dataset.Table, g dataset.Group) sample {
	s := sample{name: name, x: mat.NewDense(g.Len(), len(t.Columns), g.Data), rows: g.Rows,
		rowsStdErr: g.RowsStdErr, sampled: t.Sampled, rowsRead: t.RowsRead}
	if t.Sampled && t.Units > 0 && len(g.Units) == g.Len() {
		s.units, s.draws, s.strata = g.Units, t.Draws, t.DrawStrata
	}
	return s
}

// splitList splits a comma-separated list of column names.
func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		out = append(out, strings.TrimSpace(f))
	}
	return out
}

// readColumns reads the named columns of one file (every numeric column
// when names is empty) as one sample. label, when not empty, names a column
// that may hold class labels as text (dataset.Query.Labels; for Parquet, a
// string column), of at most maxLabels distinct labels (no bound when
// zero): t.Categories then holds its labels. features, the named feature
// columns, may hold text (or booleans) too, read the same way as
// categories, of at most featureLabels(label, maxLabels) labels (one bound
// for every text column of a read).
func readColumns(r *reader, path string, names []string, label string, maxLabels int, features ...string) (*dataset.Table, sample, error) {
	q := dataset.Query{Columns: names}
	if label != "" {
		q.Labels, q.MaxLabels = []string{label}, maxLabels
	}
	if len(features) > 0 {
		q.Labels = append(q.Labels, features...)
		q.MaxLabels = featureLabels(label, maxLabels)
	}
	t, err := r.read(path, q)
	if err != nil {
		return nil, sample{}, err
	}
	return t, groupSample(displayPath(path), t, t.Groups[0]), nil
}

// columnsOf returns the columns of x whose names are given, as a new matrix,
// in time linear in the number of columns (a rank of 10⁵ features looks
// every one of them up).
func columnsOf(x *mat.Dense, all, names []string) *mat.Dense {
	index := make(map[string]int, len(all))
	for i, name := range all {
		if _, seen := index[name]; !seen {
			index[name] = i
		}
	}
	r, _ := x.Dims()
	out := mat.NewDense(r, len(names), nil)
	col := make([]float64, r)
	for j, name := range names {
		i, ok := index[name]
		if !ok {
			panic("pearson: columnsOf: no column " + name) // the reader kept every name asked for
		}
		out.SetCol(j, mat.Col(col, i, x))
	}
	return out
}

// quoteAll quotes each of s (tabular.QuoteAll).
func quoteAll(s []string) []string { return tabular.QuoteAll(s) }

// displayPath names a file in messages and outputs: a URL without its
// userinfo and query string (redact.URL), which may hold secrets.
func displayPath(path string) string {
	if path == "-" {
		return "<stdin>"
	}
	return redact.URL(path)
}
