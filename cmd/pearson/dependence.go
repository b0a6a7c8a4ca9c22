// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
)

func miCommand() *cli.Command {
	return &cli.Command{
		Name:      "mi",
		Aliases:   []string{"smi"},
		Usage:     "estimate the squared-loss mutual information between two sets of columns",
		UsageText: "pearson mi --x COLS --y COLS [options] data.csv",
		Description: "Estimates SMI(X, Y) = ½ E_{p(x)p(y)}[(p(x,y)/(p(x)p(y)) − 1)²] by LSMI in constant time; it is 0\n" +
			"exactly when X and Y are independent (ρ²/(2(1−ρ²)) for a bivariate normal). Kernel widths and λ\n" +
			"are cross-validated. With --permutations B an exact permutation test of independence adds\n" +
			"a p-value. A single Y column of class labels (--y-type) is scored with the delta kernel.\n" +
			"The input has a header row; \"-\" reads standard input.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "x", Usage: "comma-separated `COLS` of X (" + categoryUsage[2:] + ")"},
			&cli.StringFlag{Name: "y", Usage: "comma-separated `COLS` of Y"},
			typeFlag("y-type", "Y"),
		}, estimatorFlags(kindMI, 0)...),
		Action: action(func() command { return new(miCmd) }),
	}
}

func rankCommand() *cli.Command {
	return &cli.Command{
		Name:      "rank",
		Usage:     "rank feature columns by their squared-loss mutual information with a target",
		UsageText: "pearson rank --target COL [--features COLS] [--top N] [--permutations B] [options] data.csv",
		Description: "Scores every feature column against the target by LSMI (cross-validated per feature, all on\n" +
			"the same rows) and sorts them, one row per feature. --permutations B adds each feature's\n" +
			"independence-test p-value. A target of class labels (--target-type) is scored with the\n" +
			"delta kernel. A constant feature scores 0 with a note.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "target", Usage: "the target `COL`umn"},
			&cli.StringFlag{Name: "features", Usage: "comma-separated feature `COLS` (default: every numeric column but the target; a column is numeric when its first non-empty cell is a number, and the columns left out are named on standard error" + categoryUsage + ")"},
			&cli.IntFlag{Name: "top", Usage: "print only the first `N` features (0: all)"},
			excludeFlag("the default selection or of --features"),
			typeFlag("target-type", "the target"),
		}, estimatorFlags(kindMI, 0)...),
		Action: action(func() command { return new(rankCmd) }),
	}
}

// oneInput returns the single input file of mi and rank.
func oneInput(c *cli.Context) (string, error) {
	switch n := c.Args().Len(); {
	case n == 0:
		return "", usagef(c, "missing input: give one CSV file (\"-\" for standard input)")
	case n > 1:
		return "", usagef(c, "expected one input file, got %d", n)
	}
	return c.Args().First(), nil
}

// pairedCmd is what the mi and rank commands share: one input file of
// paired columns, the widths on x and y, and the permutations of the
// independence test.
type pairedCmd struct {
	path           string
	sigmaX, sigmaY float64
	permutations   int
	yType          string // auto, numeric or categorical: how the y (target) column is read
	classes        bool   // y is class labels, coded by divergence.ClassCodes
	model          string // divergence.LSMISettings.Model: "" for auto
	// joint says that the x columns are taken together (mi), not one at
	// a time (rank): --standardize then applies to them by default.
	joint bool
	// scaleX and scaleY are the standardisations done, or nil.
	scaleX, scaleY *affine
	// catsX are the x columns read as categories (text or booleans).
	catsX []int
	// warnings are about the x columns: those that look like row
	// identifiers.
	warnings []string
}

// typeFlag is the flag that says whether the y column (of mi) or the target
// (of rank), named what, holds class labels.
func typeFlag(name, what string) cli.Flag {
	return &cli.StringFlag{Name: name, Value: "auto", Usage: fmt.Sprintf("`auto`, numeric or categorical: categorical scores %s, one column, as class labels with the delta kernel (σy fixed at %g); auto when it holds text labels, at most %[3]d of them, or at most %[3]d distinct values, all integers", what, divergence.ClassSigma, divergence.MaxClasses)}
}

func (p *pairedCmd) parse(c *cli.Context, typeName string) (err error) {
	p.sigmaX, p.sigmaY, p.permutations = c.Float64("sigma-x"), c.Float64("sigma-y"), c.Int("permutations")
	switch p.model = c.String("model"); p.model {
	case "auto":
		p.model = ""
	case divergence.ModelKernel:
	case divergence.ModelCopula:
		if c.Bool("exact") {
			return usagef(c, "--exact computes the kernel model's all-centre value: drop --model %s or --exact", p.model)
		}
	default:
		return usagef(c, "--model %q: want auto, %s or %s", p.model, divergence.ModelKernel, divergence.ModelCopula)
	}
	switch p.yType = c.String(typeName); p.yType {
	case "auto", "numeric":
	case "categorical":
		if p.sigmaY != 0 {
			return usagef(c, "--%s categorical fixes the width on y: drop --sigma-y", typeName)
		}
	default:
		return usagef(c, "--%s %q: want auto, numeric or categorical", typeName, p.yType)
	}
	p.path, err = oneInput(c)
	return err
}

// label returns the y column that may hold class labels as text, read as
// such (dataset.Query.Labels), or "" when y is numeric whatever it holds:
// --%s numeric, or more than one column.
func (p *pairedCmd) label(ys []string) string {
	if p.yType == "numeric" || len(ys) != 1 {
		return ""
	}
	return ys[0]
}

// decide sets classes from the y columns' values y: categorical always
// (one column), numeric never, auto when one column holds class labels
// (divergence.IsClasses) and --sigma-y is not given. labels, when not nil,
// are the text labels of the one y column, its values their codes: class
// labels with categorical or auto, at most divergence.MaxClasses of them
// with auto. With classes, the width on y is divergence.ClassSigma.
func (p *pairedCmd) decide(c *cli.Context, typeName string, y *mat.Dense, file, column string, labels []string) error {
	_, d := y.Dims()
	switch {
	case p.yType == "categorical":
		if d != 1 {
			return usagef(c, "--%s categorical takes one column, not %d", typeName, d)
		}
		p.classes = true
	case labels != nil: // auto, one column of text
		if p.sigmaY != 0 {
			return usagef(c, "column %q holds text labels, scored as classes with the delta kernel: drop --sigma-y", column)
		}
		if len(labels) > divergence.MaxClasses {
			return fmt.Errorf("%s: column %q holds %d distinct text labels, more than the %d that --%s auto takes for class labels: give --%s categorical to score them as classes all the same", file, column, len(labels), divergence.MaxClasses, typeName, typeName)
		}
		p.classes = true
	case p.yType == "auto":
		p.classes = d == 1 && p.sigmaY == 0 && divergence.IsClasses(y.RawMatrix().Data)
	}
	if p.classes {
		p.sigmaY = divergence.ClassSigma
		if p.model == divergence.ModelCopula {
			return usagef(c, "%s: column %q is read as class labels, to which the Gaussian-copula model does not apply (it needs more than %d distinct values): drop --model, or give --%s numeric", file, column, divergence.MaxClasses, typeName)
		}
	}
	return nil
}

// yKind names how y was read, for the output.
func (p *pairedCmd) yKind() string {
	if p.classes {
		return "categorical"
	}
	return "numeric"
}

func (p *pairedCmd) settings(s divergence.Settings) divergence.LSMISettings {
	return divergence.LSMISettings{Settings: s, SigmaX: p.sigmaX, SigmaY: p.sigmaY, Model: p.model}
}

// split returns the columns xs and ys of the sample all, whose columns are
// those of t, standardised with --standardize, as the estimators take them;
// y as class codes, not standardised, when p decides it holds class labels
// (typeName is the flag that says), the classes' names then in all.classes.
// Numbers and text labels are coded alike, by divergence.ClassCodes in the
// order of first appearance in the sample, so that the same classes named
// by numbers or by words give the same codes and the same estimate.
func (p *pairedCmd) split(c *cli.Context, typeName string, t *dataset.Table, all *sample, xs, ys []string) (mat.Matrix, mat.Matrix, error) {
	x, y := columnsOf(all.x, t.Columns, xs), columnsOf(all.x, t.Columns, ys)
	var labels []string // the text labels of y, by the reader's codes
	if j := slices.Index(t.Columns, p.label(ys)); j >= 0 && t.Categories != nil {
		labels = t.Categories[j]
	}
	if err := p.decide(c, typeName, y, t.Name, p.label(ys), labels); err != nil {
		return nil, nil, err
	}
	if p.classes {
		var codes []float64
		y, codes = divergence.ClassCodes(y.RawMatrix().Data)
		all.classes = make([]string, len(codes))
		for i, v := range codes {
			if labels != nil {
				all.classes[i] = labels[int(v)]
			} else {
				all.classes[i] = formatFloat(v)
			}
		}
	}
	p.catsX = categoryColumns(t, xs)
	for _, j := range p.catsX {
		if labels := t.Categories[slices.Index(t.Columns, xs[j])]; len(labels) > divergence.MaxCategories {
			return nil, nil, fmt.Errorf("%s: column %q holds %d distinct labels, more than the %d a category column may hold: leave it out, or recode it", t.Name, xs[j], len(labels), divergence.MaxCategories)
		}
	}
	p.warnings = idWarnings(xs, sample{x: x, rows: all.rows})
	_, dx := x.Dims()
	if p.joint && standardizes(c, dx) || !p.joint && standardizes(c, 1) {
		p.scaleX = standardizeExcept(p.catsX, x)
	}
	if _, dy := y.Dims(); !p.classes && standardizes(c, dy) {
		p.scaleY = standardize(y)
	}
	return sample{x: x, rows: all.rows, cats: p.catsX}.matrix(), sample{x: y, rows: all.rows}.matrix(), nil
}

// addStandardized adds to out what standardisation was done, when it was:
// "scaled_x" and "scaled_y" say how, "spreads_x" and
// "spreads_y" what a standardised unit is worth in each column.
func (p *pairedCmd) addStandardized(out *record, xs, ys []string) *record {
	if len(p.catsX) > 0 { // only then, so that numeric outputs keep their keys
		out.add("categorical_x", namesOf(xs, p.catsX))
	}
	if p.scaleX != nil {
		out.add("scaled_x", p.scaleX.describe(xs)).add("spreads_x", p.scaleX.spreads())
	}
	if p.scaleY != nil {
		out.add("scaled_y", p.scaleY.describe(ys)).add("spreads_y", p.scaleY.spreads())
	}
	return out
}

// addRead adds to out the keys that say how the one input of mi and rank
// was read, after n: n_stderr, read, rows_read, and classes, the names of
// the classes in code order, when y is read as class labels.
func addRead(out *record, in sample) *record {
	out.add("n_stderr", in.rowsStdErr).add("read", in.readAs()).add("rows_read", in.rowsRead)
	if in.classes != nil {
		out.add("classes", in.classes)
	}
	return out
}

// textHint adds to err, a read's failure, what to do when it is a text cell
// in the one y column read as numbers by --typeName numeric (read it as
// class labels with categorical), or a label beyond p.maxLabels (r).
func (p *pairedCmd) textHint(err error, ys []string, typeName string, r *reader) error {
	var pe *dataset.ParseError
	if len(ys) != 1 || !errors.As(err, &pe) || pe.Column != ys[0] {
		return err
	}
	switch {
	case p.yType == "numeric" && errors.Is(err, dataset.ErrNotNumber):
		return fmt.Errorf("%w; --%s categorical reads the column as class labels", err, typeName)
	case p.yType == "categorical" && errors.Is(err, dataset.ErrTooManyLabels):
		return fmt.Errorf("%w: --%s categorical takes at most %d distinct labels, as many as the rows kept (--reservoir): most classes beyond would have no row in the sample; a larger --reservoir takes more", err, typeName, p.maxLabels(r))
	case errors.Is(err, dataset.ErrTooManyLabels):
		return fmt.Errorf("%w: more than the %d distinct text labels that --%s auto takes for class labels: give --%s categorical to score them as classes all the same", err, p.maxLabels(r), typeName, typeName)
	}
	return err
}

// maxLabels is the most distinct text labels the reader keeps of the y
// column (dataset.Query.MaxLabels), so that a column of distinct strings
// fails at its first label beyond, not after the whole read: under auto,
// divergence.MaxClasses, which decide enforces; under categorical, the
// rows kept per sample (at least MaxClasses), since a class without a row
// in the sample cannot be scored, and no bound when every row is kept, the
// labels then being no more than the rows kept, which the memory budget
// counts.
func (p *pairedCmd) maxLabels(r *reader) int {
	switch {
	case p.yType != "categorical":
		return divergence.MaxClasses
	case r.reservoir > 0:
		return max(r.reservoir, divergence.MaxClasses)
	}
	return 0
}

// miCmd is the mi command.
type miCmd struct {
	pairedCmd
	noOutputs
	xs, ys []string
	in     sample // the input's rows, for how it was read
	res    *divergence.LSMIResult
	test   *divergence.IndependenceResult // with --permutations
}

func (m *miCmd) parse(c *cli.Context) ([]string, []output, error) {
	if err := m.pairedCmd.parse(c, "y-type"); err != nil {
		return nil, nil, err
	}
	m.joint = true
	m.xs, m.ys = splitList(c.String("x")), splitList(c.String("y"))
	switch {
	case len(m.xs) == 0:
		return nil, nil, usagef(c, "missing --x: the columns of X")
	case len(m.ys) == 0:
		return nil, nil, usagef(c, "missing --y: the columns of Y")
	}
	for _, name := range m.xs {
		if slices.Contains(m.ys, name) {
			return nil, nil, usagef(c, "column %q is in both --x and --y", name)
		}
	}
	if c.String("plot") != "" && m.permutations == 0 {
		return nil, nil, usagef(c, "--plot draws the null distribution of the independence test: give --permutations too")
	}
	return []string{m.path}, nil, nil
}

func (m *miCmd) read(c *cli.Context, r *reader) (mat.Matrix, mat.Matrix, error) {
	t, all, err := readColumns(r, m.path, append(slices.Clone(m.xs), m.ys...), m.label(m.ys), m.maxLabels(r), m.xs...)
	if err != nil {
		return nil, nil, categoryHint(m.textHint(err, m.ys, "y-type", r), featureLabels(m.label(m.ys), m.maxLabels(r)), m.ys...)
	}
	x, y, err := m.split(c, "y-type", t, &all, m.xs, m.ys)
	m.in = all
	return x, y, err
}

func (m *miCmd) steps() string {
	if m.permutations != 0 {
		return "permutations"
	}
	return ""
}

func (m *miCmd) estimate(ctx context.Context, s divergence.Settings, x, y mat.Matrix) (err error) {
	ls := m.settings(s)
	x, y = withDesign(x, m.in), withDesign(y, m.in)
	if m.permutations == 0 {
		m.res, err = divergence.LSMI(ctx, x, y, &ls)
		return err
	}
	m.test, err = divergence.IndependenceTest(ctx, x, y, &divergence.IndependenceSettings{LSMISettings: ls, Permutations: m.permutations})
	if m.test != nil {
		m.res = m.test.LSMI
	}
	return err
}

func (m *miCmd) result(seed uint64) result {
	out := new(record).
		add("smi", m.res.SMI).
		add("stderr", m.res.StdErr).
		add("model", m.res.Model).
		add("kernel_smi", m.res.KernelSMI)
	if !math.IsNaN(m.res.CopulaSMI) { // NaN where the copula model does not apply, as on class labels
		out.add("copula_smi", m.res.CopulaSMI)
	}
	if m.in.units != nil {
		out.add("design_effect", m.res.DesignEffect) // only for Parquet sampled in units, so that other outputs keep their keys
	}
	out.add("draw_stderr", m.res.DrawStdErr).
		add("sigma_x", m.res.SigmaX)
	if m.res.FactorsX != nil { // only for several x columns, so that other outputs keep their keys
		out.add("factors_x", m.res.FactorsX) // column j's width is factors_x[j]·sigma_x
	}
	out.add("sigma_y", m.res.SigmaY).
		add("lambda", m.res.Lambda).
		add("k", m.res.K).
		add("m", m.res.M).
		add("draws", len(m.res.Draws)).
		add("n", m.res.N)
	addRead(out, m.in).
		add("x", m.xs).
		add("y", m.ys).
		add("y_type", m.yKind()).
		add("exact", m.res.Exact).
		add("seed", seed)
	m.addStandardized(out, m.xs, m.ys).add("warnings", append(slices.Clone(m.res.Warnings), m.warnings...))
	if m.test != nil {
		out.add("statistic", m.test.Statistic).
			add("p_value", m.test.PValue).
			add("p_value_low", m.test.PValueLow).
			add("p_value_high", m.test.PValueHigh).
			add("permutations", m.test.Permutations).
			add("width_smi", m.test.WidthSMI)
	}
	return out
}

func (m *miCmd) plot(path string, _ uint64) error {
	return plotNull(path, fmt.Sprintf("independence test: %s vs %s, p = %.3g", strings.Join(m.xs, ","), strings.Join(m.ys, ","), m.test.PValue), m.test.Null, m.test.Statistic)
}

// rankCmd is the rank command.
type rankCmd struct {
	pairedCmd
	noOutputs
	target   string
	features []string // nil until read: every numeric column but the target
	exclude  []string // --exclude, with the default selection
	top      int
	in       sample // the input's rows, for n and how it was read
	res      *divergence.RankResult
}

func (k *rankCmd) parse(c *cli.Context) ([]string, []output, error) {
	if err := k.pairedCmd.parse(c, "target-type"); err != nil {
		return nil, nil, err
	}
	k.target = strings.TrimSpace(c.String("target"))
	if k.target == "" {
		return nil, nil, usagef(c, "missing --target: the column the features are ranked against")
	}
	if k.top = c.Int("top"); k.top < 0 {
		return nil, nil, usagef(c, "--top %d cannot be negative", k.top)
	}
	k.features, k.exclude = splitList(c.String("features")), splitList(c.String("exclude"))
	if slices.Contains(k.features, k.target) {
		return nil, nil, usagef(c, "the target %q is also among --features", k.target)
	}
	if slices.Contains(k.exclude, k.target) {
		return nil, nil, usagef(c, "the target %q is also among --exclude", k.target)
	}
	if k.features != nil && k.exclude != nil {
		var err error
		if k.features, err = excludeListed(c, k.features, k.exclude, "features"); err != nil {
			return nil, nil, err
		}
		k.exclude = nil
	}
	return []string{k.path}, nil, nil
}

func (k *rankCmd) read(c *cli.Context, r *reader) (mat.Matrix, mat.Matrix, error) {
	var want []string // nil: every numeric column
	if k.features != nil {
		want = append(slices.Clone(k.features), k.target)
	}
	t, all, err := readColumns(r, k.path, want, k.label([]string{k.target}), k.maxLabels(r), k.features...)
	if err != nil {
		return nil, nil, categoryHint(k.textHint(err, []string{k.target}, "target-type", r), featureLabels(k.label([]string{k.target}), k.maxLabels(r)), k.target)
	}
	if k.features == nil {
		if !slices.Contains(t.Columns, k.target) {
			return nil, nil, fmt.Errorf("%s: the target column %q is not among the numeric columns (%s); name it exactly, or give --features", t.Name, k.target, strings.Join(quoteAll(t.Columns), ", "))
		}
		k.features = slices.DeleteFunc(slices.Clone(t.Columns), func(s string) bool { return s == k.target })
		if len(k.exclude) > 0 {
			if k.features, err = keptColumns(t.Name, k.features, k.exclude, t.Skipped); err != nil {
				return nil, nil, err
			}
		}
		if len(k.features) == 0 {
			return nil, nil, fmt.Errorf("%s: no numeric column besides the target %q", t.Name, k.target)
		}
	}
	x, y, err := k.split(c, "target-type", t, &all, k.features, []string{k.target})
	k.in = all
	return x, y, err
}

func (k *rankCmd) steps() string { return "features" }

func (k *rankCmd) estimate(ctx context.Context, s divergence.Settings, features, target mat.Matrix) (err error) {
	features, target = withDesign(features, k.in), withDesign(target, k.in)
	k.res, err = divergence.Rank(ctx, features, target, &divergence.RankSettings{LSMISettings: k.settings(s), PValuePermutations: k.permutations})
	return err
}

// scores returns the features printed: the first --top.
func (k *rankCmd) scores() []divergence.FeatureScore {
	if k.top > 0 && k.top < len(k.res.Features) {
		return k.res.Features[:k.top]
	}
	return k.res.Features
}

func (k *rankCmd) result(seed uint64) result {
	run := addRead(new(record).add("target", k.target).add("target_type", k.yKind()).add("n", k.in.rows), k.in).add("seed", seed).add("permutations", k.res.Permutations)
	k.addStandardized(run, k.features, []string{k.target})
	if len(k.warnings) > 0 { // only then, so that other outputs keep their keys
		run.add("warnings", k.warnings)
	}
	return ranking(run, k.features, k.scores(), k.res.Permutations > 0, k.in.units != nil, k.catsX)
}

func (k *rankCmd) plot(path string, _ uint64) error {
	scores := k.scores()
	labels := make([]string, len(scores))
	values := make([]float64, len(scores))
	errs := make([]float64, len(scores))
	for i, f := range scores {
		labels[i], values[i], errs[i] = k.features[f.Column], f.SMI, f.StdErr
	}
	return plotBars(path, fmt.Sprintf("dependence on %s (LSMI)", k.target), labels, values, errs)
}

// ranking is the table of a ranking: one row per feature, the run's
// details around them in JSON; design adds each feature's design effect,
// for rows sampled in units. The features cats, read as categories, have
// no width on x (the delta kernel): their sigma_x is n/a.
func ranking(run *record, names []string, scores []divergence.FeatureScore, tested, design bool, cats []int) *table {
	rows := make([]*record, len(scores))
	for i, f := range scores {
		r := new(record).
			add("rank", f.Rank).
			add("feature", names[f.Column]).
			add("smi", f.SMI).
			add("stderr", f.StdErr).
			add("model", f.Model)
		if design {
			r.add("design_effect", f.DesignEffect)
		}
		if tested {
			r.add("p_value", f.PValue).add("q_value", f.QValue)
		}
		var sigmaX any = f.SigmaX
		if slices.Contains(cats, f.Column) {
			sigmaX = noValue{}
		}
		rows[i] = r.add("sigma_x", sigmaX).
			add("sigma_y", f.SigmaY).
			add("lambda", f.Lambda).
			add("note", f.Note).
			add("warnings", f.Warnings) // CSV and text: joined by "; "
	}
	return &table{run: run, name: "features", rows: rows}
}
