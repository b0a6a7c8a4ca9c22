// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/drift"
	"github.com/sublinear/pearson/tabular"
)

// exitDrift is the exit code of a run with --fail-on-drift whose verdict is
// drift. 0, 1 and 2 keep their meanings.
const exitDrift = 3

// driftFound is the error of a run with --fail-on-drift that found drift:
// Run prints it and exits with exitDrift.
type driftFound struct{ msg string }

func (e *driftFound) Error() string { return e.msg }

// ExitCode returns exitDrift.
func (e *driftFound) ExitCode() int { return exitDrift }

func driftCommand() *cli.Command {
	return &cli.Command{
		Name:  "drift",
		Usage: "did any column change? compare every column of a current table with a reference, with a verdict",
		UsageText: "pearson drift [options] REF CUR\n" +
			"   pearson drift [options] --group COL [--numerator CUR --denominator REF] data.csv\n" +
			"   pearson drift [options] --save-reference FILE REF\n" +
			"   pearson drift [options] --reference FILE CUR...",
		Description: "Compares every selected column of the current table CUR with the reference table REF on its\n" +
			"own: numeric columns by PE_½(CUR‖REF) with its error bar and a permutation p-value (at most\n" +
			"--permutations, stopping at the --exceedances-th permutation that reaches the statistic), text columns by\n" +
			"their category frequencies, and the share of empty cells of every column that has any. The\n" +
			"p-values are adjusted for their number (--adjust); a column drifts when a test's q-value is below\n" +
			"--level (and, with --threshold > 0, its divergence above it: a significant column under it is\n" +
			"reported as \"significant, below the effect threshold\"); the data set drifts when the share of\n" +
			"drifted columns reaches --drift-share. Each column has an effect size: the shift of the mean, the\n" +
			"ratio of standard deviations and the Wasserstein distance (w1_sd, which a change of shape moves) in\n" +
			"reference sds, or the total-variation distance of the categories. A joint row compares all numeric columns together, each scaled by its median and\n" +
			"1.4826·MAD over both tables, so that neither a column in larger units nor one outlier rules the\n" +
			"kernel (its note says how each column was scaled).\n" +
			"Inputs are CSV files (compressed or not, rows sampled by seeking where possible; a column is\n" +
			"text when its first non-empty cell is not a number, or when --categorical names it) or Parquet\n" +
			"files and directories (a string or boolean column is text). With --group, the rows of --numerator are the\n" +
			"current table and those of --denominator the reference (default: the first value met is current).\n" +
			"--save-reference stores a sample of REF (bounded by --reservoir rows) for later runs with\n" +
			"--reference FILE CUR..., one result per CUR (JSON: one object per line).\n" +
			fmt.Sprintf("Exit codes: 0 success, 1 a data or runtime error, 2 a usage error, %d drift found with --fail-on-drift.", exitDrift),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "group", Usage: "with one input file: the `COL`umn whose values split the rows into current and reference"},
			&cli.StringFlag{Name: "numerator", Usage: "with --group: the `VALUE` of the current rows (default: the first value in the file)"},
			&cli.StringFlag{Name: "denominator", Usage: "with --group: the `VALUE` of the reference rows (default: the other value)"},
			&cli.StringFlag{Name: "columns", Usage: "comma-separated `COLS` to compare (default: every named column but the group column)"},
			excludeFlag("the default selection or of --columns"),
			&cli.StringFlag{Name: "categorical", Usage: "comma-separated `COLS` read as text whatever their cells (codes written as digits)"},
			&cli.Float64Flag{Name: "level", Value: drift.DefaultLevel, Usage: "level of the adjusted p-values (q-values) below which a column can drift"},
			&cli.Float64Flag{Name: "threshold", Value: drift.DefaultThreshold, Usage: "divergence PE_½ a significant column must exceed to drift (0: none, every significant column drifts; 0.00125 is a 0.1-sd shift)"},
			&cli.Float64Flag{Name: "drift-share", Value: drift.DefaultDriftShare, Usage: "share of drifted columns at which the data set drifts"},
			&cli.StringFlag{Name: "adjust", Value: "bh", Usage: "adjustment of the p-values for their number: bh (Benjamini–Hochberg), holm or none"},
			&cli.IntFlag{Name: "permutations", Usage: "permutations of the columns that may drift, and of text columns", DefaultText: fmt.Sprintf("max(%d, ⌈2·columns/level⌉): enough for one drifted column to pass the adjustment", drift.DefaultPermutations)},
			countFlag("column-k", drift.DefaultColumnK, "centres of each numeric column's own estimate (divergence, stderr); its test and the joint row use --k"),
			&cli.IntFlag{Name: "exceedances", Value: drift.DefaultExceedances, Usage: "a numeric column's permutations stop at the h-th that reaches its statistic, p-value h/(permutations run): valid, and cheap for columns far from drifting (negative: run them all)", DefaultText: fmt.Sprintf("%d; 0 means the default", drift.DefaultExceedances)},
			&cli.IntFlag{Name: "settle-permutations", Usage: "most permutations of a numeric column whose p-value's Monte Carlo interval straddles the adjustment's cut: it gets 4× more, round after round, so that reruns at other seeds flag the same columns; one still at the cut reports the upper end of its interval (negative: none)", DefaultText: "10·permutations"},
			&cli.BoolFlag{Name: "no-joint", Usage: "leave out the joint row over all numeric columns"},
			&cli.BoolFlag{Name: "sample-only", Usage: "test on the sample alone: no second pass over the rows the sample left out, whose means, scales, distribution functions and label counts otherwise give each column's tests the power of every row (constant cost; power stops growing at the sample). A remote input (s3://, http(s)://) is never read twice: its tests are on the sample"},
			countFlag("k", divergence.DefaultK, "centres per draw"),
			&cli.IntFlag{Name: "m", Usage: "points averaged per draw of the estimates and by every test",
				DefaultText: fmt.Sprintf("0, the library's rule: %d for the estimates and the joint row's test, every present value of both tables up to %d together for each column's test", divergence.DefaultM, divergence.TwoSamplePointsCap)},
			countFlag("draws", divergence.DefaultDraws, "independent draws; their spread gives the standard error"),
			countFlag("folds", divergence.DefaultFolds, "cross-validation folds"),
			&cli.Float64Flag{Name: "lambda", Usage: "all-centre regularisation λ (0: cross-validate)"},
			seedFlag(),
			delimFlag(),
			&cli.IntFlag{Name: "reservoir", Usage: "rows kept of each table (0: (draws+2)·(k+m), all the comparison reads)"},
			&cli.StringFlag{Name: "save-reference", Usage: "store a sample of REF to `FILE` for later --reference runs"},
			&cli.StringFlag{Name: "reference", Usage: "compare each CUR with the reference stored in `FILE` by --save-reference"},
			&cli.StringFlag{Name: "html", Usage: "write the report as one self-contained HTML page to `FILE`"},
			&cli.BoolFlag{Name: "fail-on-drift", Usage: fmt.Sprintf("exit with code %d when drift is found by --fail-rule, and with 1 when a column cannot be judged (too few values)", exitDrift)},
			&cli.StringFlag{Name: "fail-rule", Value: drift.AnyColumn.String(), Usage: "with --fail-on-drift: column (any compared column drifted, by its values or its missing share; the joint row is reported, not gated) or share (the share of drifted columns reaches --drift-share)"},
			maxMemoryFlag(), progressFlag(), formatFlag(),
		},
		Action: action(runDrift),
	}
}

// driftCmd is a run of the drift command.
type driftCmd struct {
	j        *job
	settings drift.Settings
	columns  []string // --columns, less --exclude
	exclude  []string // --exclude, with the default selection
	text     []string // --categorical
	saveRef  string
	refFile  string
	html     string
	fail     bool
	gate     drift.Gate // --fail-rule
	// sampleOnly is --sample-only: no second pass over every row.
	sampleOnly bool
	// notes say why a table's tests are on the sample alone.
	notes []string
}

// adjustments are the values of --adjust.
var adjustments = map[string]drift.Adjustment{"bh": drift.BenjaminiHochberg, "holm": drift.Holm, "none": drift.NoAdjustment}

// runDrift runs drift with the options o.
func runDrift(o *options) error {
	start := time.Now()
	j, err := newJob(o)
	if err != nil {
		return err
	}
	d := &driftCmd{j: j, columns: o.columns, exclude: o.exclude, text: o.categorical,
		saveRef: o.saveRef, refFile: o.reference, html: o.html, fail: o.failOnDrift,
		sampleOnly: o.sampleOnly}
	inputs, err := d.parse(o)
	if err != nil {
		return err
	}
	outs := []output{{"--save-reference", d.saveRef}, {"--html", d.html}}
	files, release, err := createOutputs(o, inputs, outs)
	defer release()
	if err != nil {
		return err
	}

	var results []*driftResult
	switch {
	case d.saveRef != "":
		err = d.save(files[0], start)
	case d.refFile != "":
		results, err = d.againstSaved(start)
	default:
		var res *driftResult
		res, err = d.raw(start)
		results = []*driftResult{res}
	}
	if err != nil {
		return err
	}
	for _, res := range results {
		if err := j.format.table(o.stdout, res.table(len(results) > 1)); err != nil {
			return err
		}
	}
	if files[1] != nil {
		title := fmt.Sprintf("pearson drift: %s against %s", results[0].cur, results[0].ref)
		if err := drift.WriteHTML(files[1].f, results[0].res, title); err != nil {
			return fmt.Errorf("--html: %w", err)
		}
	}
	if err := commitOutputs(files); err != nil {
		return err
	}
	if d.fail {
		var drifted []string
		for _, res := range results {
			if why := res.res.CannotJudge(d.gate); why != "" {
				return fmt.Errorf("%s: cannot judge drift: %s; --fail-on-drift fails a batch it cannot judge", res.cur, why)
			}
			if len(res.res.Absent) > 0 {
				return fmt.Errorf("%s: cannot judge drift: it lacks the reference's column(s) %s; --fail-on-drift fails a batch it cannot judge",
					res.cur, strings.Join(quoteAll(res.res.Absent), ", "))
			}
			if fails, why := res.res.Fails(d.gate); fails {
				drifted = append(drifted, fmt.Sprintf("%s: %s", res.cur, why))
			}
		}
		if len(drifted) > 0 {
			return &driftFound{msg: fmt.Sprintf("drift found (--fail-on-drift, --fail-rule %s): %s", d.gate, strings.Join(drifted, "; "))}
		}
	}
	return nil
}

// parse checks the arguments and the settings, and returns the input files
// (the stored reference included).
func (d *driftCmd) parse(o *options) ([]string, error) {
	args := o.args
	group := o.group
	switch {
	case d.saveRef != "" && d.refFile != "":
		return nil, usageErr("--save-reference and --reference: store a reference, or compare with one, not both")
	case d.saveRef != "" && (len(args) != 1 || group != ""):
		return nil, usageErr("--save-reference stores one reference file: give REF alone")
	case d.saveRef != "" && (d.html != "" || d.fail):
		return nil, usageErr("--save-reference compares nothing: --html and --fail-on-drift do not apply")
	case d.refFile != "" && len(args) == 0:
		return nil, usageErr("missing input: --reference FILE compares one or more current files CUR...")
	case d.refFile != "" && group != "":
		return nil, usageErr("--group goes with a single input file holding both tables, not with --reference")
	case d.refFile != "" && d.html != "" && len(args) > 1:
		return nil, usageErr("--html reports one comparison: give one current file")
	case d.refFile == "" && d.saveRef == "":
		if err := checkTwoSamples(d.j.opt); err != nil {
			return nil, err
		}
	}
	if _, err := selectionUsage()(nil, tabular.Selection{Exclude: d.exclude, Group: group}.CheckGroup()); err != nil {
		return nil, err
	}
	if len(d.columns) > 0 && len(d.exclude) > 0 {
		var err error
		if d.columns, err = excludeListed(d.columns, d.exclude, "columns"); err != nil {
			return nil, err
		}
		d.exclude = nil
	}
	var ok bool
	if d.gate, ok = drift.ParseGate(o.failRule); !ok {
		return nil, usageErr("unknown --fail-rule %q: use column or share", o.failRule)
	}
	adjust, ok := adjustments[o.adjust]
	if !ok {
		return nil, usageErr("unknown --adjust %q: use bh, holm or none", o.adjust)
	}
	d.settings = drift.Settings{
		Settings:     d.j.settings,
		Points:       d.j.settings.M, // --m: the estimates' and every test's
		Level:        o.level,
		Threshold:    o.threshold,
		DriftShare:   o.driftShare,
		Adjust:       adjust,
		Permutations: o.permutations,
		Exceedances:  o.exceedances,
		NoJoint:      o.noJoint,
		ColumnK:      ifGiven(o, "column-k", o.columnK),

		SettlePermutations: o.settlePermutations,
	}
	if o.given["reservoir"] {
		d.settings.SampleRows = d.j.reader.reservoir
	} else {
		d.j.reader.reservoir = d.settings.SampleSize()
	}
	if err := d.checkSettings(); err != nil {
		return nil, err
	}
	inputs := args
	if d.refFile != "" {
		inputs = append([]string{d.refFile}, args...)
	}
	return inputs, nil
}

// checkSettings has drift check the settings before any input is read
// (drift.Settings.Validate: its own fields, then the estimator's).
func (d *driftCmd) checkSettings() error {
	if err := d.settings.Validate(); err != nil {
		return err
	}
	return nil
}

// read reads the table at path as drift reads each input
// (tabular.ReadDrift, with r's query, less its Text, Mixed and sampling):
// a sample of the rows it selects as a mixed table (text columns and
// missing values kept), from CSV or Parquet, rows drawn by seeking or in
// units where the file allows; when the sample does not hold every row
// (and without --sample-only), a second pass counts every row into the
// columns' tallies. A note says why a table's tests are on its sample.
func (d *driftCmd) read(path string, r tabular.DriftRead) (*tabular.DriftTable, error) {
	rd := d.j.reader
	src, closeFn, err := rd.open(path)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	r.Query.Text = d.text
	r.Sampling = dataset.Sampling{Size: rd.reservoir, Src: rand.NewPCG(rd.seed, 0x72657365727665), Seek: true}
	r.SampleOnly = d.sampleOnly
	r.Keep = d.keep
	t, err := tabular.ReadDrift(rd.ctx, src, r)
	if err != nil {
		return nil, err
	}
	if _, err := rd.noted(path, t.Table, nil); err != nil {
		return nil, err
	}
	if t.Note != "" {
		d.notes = append(d.notes, displayPath(path)+": "+t.Note)
	}
	return t, nil
}

// keep is how many bytes of parsed values a read of a table of cols
// columns may hold to count every row's tallies without a second pass
// (tabular.DriftRead.Keep): what the budget, or the machine when it gives
// less, leaves beside the run's base and the comparison's need at the
// largest samples of that many columns (checkMemory's model). The values
// are dropped once counted, before the comparison, and the read holds the
// samples besides, which that need counts: the read stays within what the
// comparison may use. A table whose values do not fit is read twice.
func (d *driftCmd) keep(cols int) int64 {
	avail := d.j.budget
	if m := processMemory().bytes; m > 0 && m < avail {
		avail = m
	}
	n := d.settings.SampleSize()
	free := avail - baseMemory - d.settings.Memory(n, n, cols, cols)
	if !(free > 0) {
		return 0
	}
	return int64(free)
}

// readOne reads the table at path as drift's columns, with the rows read
// and kept, less those of --exclude; each column's Whole counts every row
// (see read) in tallies like the reference's (like: Reference.Tally), or,
// with like nil, in tallies made from the sample (drift.NewTally).
func (d *driftCmd) readOne(path string, like func(name string) *drift.Tally) ([]drift.Column, *dataset.Table, error) {
	t, err := d.read(path, tabular.DriftRead{Query: dataset.Query{Columns: d.columns}, Like: like})
	if err != nil {
		return nil, nil, err
	}
	return d.excluded(t.Columns(0)), t.Table, nil
}

// excluded returns cols less the columns of --exclude.
func (d *driftCmd) excluded(cols []drift.Column) []drift.Column {
	return slices.DeleteFunc(cols, func(col drift.Column) bool { return slices.Contains(d.exclude, col.Name) })
}

// checkExclude returns an error naming a column of --exclude that the
// table t (read from file) does not have, nor the others (names, a stored
// reference's), or when --exclude leaves none of t's columns.
func (d *driftCmd) checkExclude(file string, t *dataset.Table, others []string) error {
	if len(d.exclude) == 0 {
		return nil
	}
	names := slices.Clone(t.Columns)
	for _, o := range others {
		if !slices.Contains(names, o) {
			names = append(names, o)
		}
	}
	_, err := keptColumns(file, names, d.exclude, t.Skipped)
	return err
}

// checkMemory refuses, before the comparison, one that would need more
// than --max-memory or the machine gives (drift.Settings.Memory of the
// columns cur: the joint row's test over d numeric columns holds d×d
// matrices).
func (d *driftCmd) checkMemory(cur []drift.Column) error {
	rows, numeric := 0, 0
	for _, col := range cur {
		if col.Categories == nil {
			numeric++
			rows = max(rows, len(col.Values))
		} else {
			rows = max(rows, len(col.Categories))
		}
	}
	need := d.settings.Memory(d.settings.SampleSize(), rows, len(cur), numeric)
	return asUsage(cost{need: baseMemory + need, budget: d.j.budget, when: fmt.Sprintf(" to compare %d columns (%d numeric, in the joint row)", len(cur), numeric), lower: "--reservoir or --columns, or give --no-joint"}.check())
}

// compare runs the comparison with the reference, with a progress bar of
// the columns.
func (d *driftCmd) compare(ref *drift.Reference, cur []drift.Column) (*drift.Result, error) {
	if len(cur) > maxColumns { // see bounds.go
		return nil, usageErr("drift compares %d columns one by one, more than the %d it takes: name fewer with --columns", len(cur), maxColumns)
	}
	if err := d.checkMemory(cur); err != nil {
		return nil, err
	}
	s := d.settings
	var done func()
	s.Progress, done = d.j.prog.Steps("columns")
	res, err := ref.Compare(d.j.opt.ctx, cur, &s)
	done()
	if err != nil {
		return nil, err
	}
	return res, nil
}

// raw compares two tables read from the inputs: REF CUR, or one file with
// --group.
func (d *driftCmd) raw(start time.Time) (*driftResult, error) {
	args := d.j.opt.args
	out := &driftResult{settings: d}
	var refCols, curCols []drift.Column
	var ref *drift.Reference
	if len(args) == 2 {
		var rt, ct *dataset.Table
		var err error
		if refCols, rt, err = d.readOne(args[0], nil); err != nil {
			return nil, err
		}
		if err := d.checkExclude(displayPath(args[0]), rt, nil); err != nil {
			return nil, err
		}
		if ref, err = drift.NewReference(refCols, &d.settings); err != nil {
			return nil, err
		}
		if curCols, ct, err = d.readOne(args[1], ref.Tally); err != nil {
			return nil, err
		}
		out.ref, out.cur = displayPath(args[0]), displayPath(args[1])
		out.refRead, out.curRead = rt.RowsRead, ct.RowsRead
	} else {
		group, num, den := d.j.opt.group, d.j.opt.numerator, d.j.opt.denominator
		q := dataset.Query{Group: group, Columns: d.columns, MaxGroups: 2}
		if num != "" && den != "" {
			q.Groups = []string{num, den}
		}
		dt, err := d.read(args[0], tabular.DriftRead{Query: q, Reference: func(t *dataset.Table) (int, error) {
			_, ri, err := chooseGroups(t, group, num, den)
			return ri, err
		}})
		if err != nil {
			return nil, err
		}
		t := dt.Table
		ci, ri, err := chooseGroups(t, group, num, den)
		if err != nil {
			return nil, err
		}
		if err := d.checkExclude(displayPath(args[0]), t, nil); err != nil {
			return nil, err
		}
		curCols, refCols = d.excluded(dt.Columns(ci)), d.excluded(dt.Columns(ri))
		if ref, err = drift.NewReference(refCols, &d.settings); err != nil {
			return nil, err
		}
		out.cur, out.ref = group+"="+t.Groups[ci].Key, group+"="+t.Groups[ri].Key
		out.refRead, out.curRead = t.RowsRead, t.RowsRead
	}
	load := time.Since(start)
	out.warnings = append(idColumnWarnings(refCols, curCols), d.notes...)
	var err error
	if out.res, err = d.compare(ref, curCols); err != nil {
		return nil, err
	}
	out.timing = timing{load: load, estimate: time.Since(start) - load}
	return out, nil
}

// save stores the reference read from REF in f.
func (d *driftCmd) save(f *outFile, start time.Time) error {
	path := d.j.opt.args[0]
	cols, t, err := d.readOne(path, nil)
	if err != nil {
		return err
	}
	if err := d.checkExclude(displayPath(path), t, nil); err != nil {
		return err
	}
	ref, err := drift.NewReference(cols, &d.settings)
	if err != nil {
		return err
	}
	if err := ref.Save(f.f); err != nil {
		return fmt.Errorf("--save-reference %s: %w", d.saveRef, err)
	}
	g := t.Groups[0]
	rec := new(record).
		add("reference", displayPath(path)).
		add("saved", d.saveRef).
		add("columns", ref.Columns()).
		add("rows", g.Rows).
		add("sampled_rows", min(g.Len(), d.settings.SampleSize())).
		add("rows_read", t.RowsRead).
		add("seed", d.j.seed).
		add("timing", timing{load: time.Since(start)})
	return rec.writeTo(d.j.opt.stdout, d.j.format)
}

// againstSaved compares every CUR with the reference stored in --reference.
func (d *driftCmd) againstSaved(start time.Time) ([]*driftResult, error) {
	f, err := os.Open(d.refFile)
	if err != nil {
		return nil, fmt.Errorf("--reference: %w", err)
	}
	ref, err := drift.Load(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("--reference %s: %w", d.refFile, err)
	}
	var out []*driftResult
	for _, path := range d.j.opt.args {
		t0 := time.Now()
		d.notes = nil
		cols, t, err := d.readOne(path, ref.Tally)
		if err != nil {
			return nil, err
		}
		if err := d.checkExclude(displayPath(path), t, ref.Columns()); err != nil {
			return nil, err
		}
		load := time.Since(t0)
		res := &driftResult{settings: d, ref: d.refFile, cur: displayPath(path), refRead: -1, curRead: t.RowsRead, warnings: append(idColumnWarnings(cols), d.notes...)}
		if res.res, err = d.compare(ref, cols); err != nil {
			return nil, err
		}
		res.timing = timing{load: load, estimate: time.Since(t0) - load}
		out = append(out, res)
	}
	return out, nil
}

// driftResult is one comparison, as the command prints it.
type driftResult struct {
	settings         *driftCmd
	ref, cur         string // names of the tables
	refRead, curRead int    // data rows read of each input; -1 for a stored reference
	res              *drift.Result
	timing           timing
	// warnings are about the columns compared: those that look like row
	// identifiers (idColumnWarnings).
	warnings []string
}

// idColumnWarnings returns a warning for each column of the tables that
// looks like a row identifier in one of them: numbers by idLikeValues,
// text by idText's rule (distinct labels on more than half the rows). The
// ids of two tables differ by construction: a column of numbers drifts
// whatever happened to the data, one of labels compares categories of one
// row each.
func idColumnWarnings(tables ...[]drift.Column) []string {
	w := []string{}
	var seen []string
	for _, cols := range tables {
		for _, col := range cols {
			if slices.Contains(seen, col.Name) || !idColumn(col) {
				continue
			}
			seen = append(seen, col.Name)
			if col.Categories != nil {
				w = append(w, fmt.Sprintf("column %s holds distinct labels on most rows, like an identifier: compared between tables its frequencies say nothing about the data (every label is its own category); leave it out with --exclude %s", quoteShort(col.Name), col.Name))
			} else {
				w = append(w, idWarning(col.Name, "compared between tables it drifts whenever the rows are other rows, whatever happened to the data, and measures nothing"))
			}
		}
	}
	return w
}

// idColumn reports whether a column of drift looks like a row identifier.
func idColumn(col drift.Column) bool {
	if col.Categories == nil {
		return idLikeValues(col.Values, max(col.Rows, len(col.Values)))
	}
	labels := make(map[string]bool, len(col.Categories))
	for _, s := range col.Categories {
		if s != "" {
			labels[s] = true
		}
	}
	return len(col.Categories) >= minIDRows && tabular.TextLikeID(len(labels), len(col.Categories))
}

// jointName names the joint row in the table of columns.
const jointName = drift.JointName

// number returns v, or notComputed when it is not finite (a p-value of a
// column not tested, no threshold): JSON has no NaN.
func number(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return notComputed{}
	}
	return v
}

// columnRecord is the row of one column result.
func columnRecord(cr *drift.ColumnResult, kind string) *record {
	return new(record).
		add("column", cr.Name).
		add("type", kind).
		add("divergence", cr.Divergence).
		add("stderr", cr.StdErr).
		add("p_value", number(cr.PValue)).
		add("q_value", number(cr.QValue)).
		add("p_all_rows", number(allRowsP(cr))).
		add("shift_sd", number(cr.Shift)).
		add("sd_ratio", number(cr.SDRatio)).
		add("tv", number(cr.TotalVariation)).
		add("w1_sd", number(cr.Wasserstein)).
		add("drifted", cr.Drifted).
		add("status", cr.Status()).
		add("missing_ref", cr.MissingRef).
		add("missing_cur", cr.MissingCur).
		add("missing_q", number(cr.MissingQValue)).
		add("note", cr.Note)
}

// allRowsP is the p-value of a column's tests on every row
// (drift.WholeTest), NaN without them.
func allRowsP(cr *drift.ColumnResult) float64 {
	if cr.Whole == nil {
		return math.NaN()
	}
	return cr.Whole.PValue
}

// rows returns the rows of the columns, sorted as a report shows them, and
// the joint row (nil without one).
func (r *driftResult) rows() (cols []*record, joint *record) {
	for _, cr := range r.res.Sorted() {
		cols = append(cols, columnRecord(&cr, cr.Kind.String()))
	}
	if j := r.res.Joint; j != nil {
		jr := *j
		// The joint row's note says how its columns were scaled, in every
		// format (JSON has the numbers under "joint_scales").
		if how := r.res.JointScaling(); how != "" {
			jr.Note = strings.Join(slices.DeleteFunc([]string{jr.Note, how}, func(s string) bool { return s == "" }), "; ")
		}
		joint = columnRecord(&jr, "joint")
		joint.vals[0] = jointName
	}
	return cols, joint
}

// jointScales are the scales of the joint row's columns, for JSON.
func (r *driftResult) jointScales() []*record {
	var out []*record
	for _, sc := range r.res.JointScales {
		out = append(out, new(record).add("column", sc.Name).add("centre", sc.Centre).add("spread", sc.Spread).add("rule", sc.Rule))
	}
	return out
}

// verdict says in words whether the data set drifted, and by which rule.
func (r *driftResult) verdict() string {
	word := "no drift"
	if r.res.Compared == 0 {
		return fmt.Sprintf("cannot judge: no column of %d holds enough values to compare (see the notes)", len(r.res.Columns))
	}
	switch {
	case r.res.Drift:
		word = "DRIFT"
	case r.res.Drifted > 0 || (r.res.Joint != nil && r.res.Joint.Drifted):
		word = "some drift"
	}
	out := word + ": " + r.res.Summary()
	if r.settings.fail {
		out += "; --fail-on-drift fails by --fail-rule " + r.settings.gate.String()
	}
	return out
}

// table is the result as the writers print it: JSON the object of the
// result; text and CSV a row per column and the joint row, CSV with the
// current table's name leading every row and a last row of the verdict,
// text with the current table's name as a heading when there are several
// (many) and the verdict in words after.
func (r *driftResult) table(many bool) *table {
	cols, joint := r.rows()
	t := &table{run: r.record(cols, joint), rows: cols}
	if joint != nil {
		t.rows = append(slices.Clip(t.rows), joint)
	}
	t.caption.key, t.caption.value, t.caption.heading = "current", r.cur, many
	res := r.res
	t.total = new(record).
		add("column", "(dataset)").add("type", "verdict").
		add("divergence", res.Share).add("stderr", "").add("p_value", "").add("q_value", "").add("p_all_rows", "").
		add("shift_sd", "").add("sd_ratio", "").add("tv", "").add("w1_sd", "").
		add("drifted", res.Drift).add("status", r.verdict()).add("missing_ref", "").add("missing_cur", "").add("missing_q", "").
		add("note", fmt.Sprintf("%d of %d columns drifted", res.Drifted, res.Compared))
	for _, name := range res.Absent {
		t.notes = append(t.notes, fmt.Sprintf("column %s of the reference is absent from %s", quoteShort(name), r.cur))
	}
	for _, name := range res.Unknown {
		t.notes = append(t.notes, fmt.Sprintf("column %s of %s is not in the reference", quoteShort(name), r.cur))
	}
	t.notes = append(append(t.notes, r.warnings...), r.verdict())
	return t
}

// record is the JSON object of the result.
func (r *driftResult) record(cols []*record, joint *record) *record {
	res, s := r.res, &r.settings.settings
	var rowsRef, rowsCur, sampledRef, sampledCur int
	if len(res.Columns) > 0 {
		c := res.Columns[0]
		rowsRef, rowsCur, sampledRef, sampledCur = c.RowsRef, c.RowsCur, c.SampledRef, c.SampledCur
	}
	if cols == nil {
		cols = []*record{}
	}
	return new(record).
		add("reference", r.ref).
		add("current", r.cur).
		add("drift", res.Drift).
		add("drifted", res.Drifted).
		add("compared", res.Compared).
		add("share", res.Share).
		add("verdict", r.verdict()).
		add("columns", cols).
		add("joint", joint).
		add("joint_scales", r.jointScales()).
		add("absent", res.Absent).
		add("unknown", res.Unknown).
		add("warnings", r.warnings).
		add("rows_ref", rowsRef).
		add("rows_cur", rowsCur).
		add("sampled_ref", sampledRef).
		add("sampled_cur", sampledCur).
		add("rows_read_ref", r.refRead).
		add("rows_read_cur", r.curRead).
		add("level", res.Level).
		add("threshold", number(res.Threshold)).
		add("drift_share", res.DriftShare).
		add("adjust", res.Adjust.String()).
		add("fail_rule", r.settings.gate.String()).
		add("permutations", res.Permutations).
		add("exceedances", s.Exceedances).
		add("settle_permutations", s.SettlePermutations).
		add("sample_rows", s.SampleSize()).
		add("seed", r.settings.j.seed).
		add("timing", r.timing)
}
