// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/tabular"
)

// oneInput returns the single input file of mi and rank.
func oneInput(o *options) (string, error) {
	switch n := len(o.args); {
	case n == 0:
		return "", usageErr("missing input: give one CSV file (\"-\" for standard input)")
	case n > 1:
		return "", usageErr("expected one input file, got %d", n)
	}
	return o.args[0], nil
}

// pairedCmd is what the mi and rank commands share: one input file of
// paired columns, the widths on x and y, and the permutations of the
// independence test.
type pairedCmd struct {
	opt            *options
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
	scaleX, scaleY *tabular.Scaling
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

func (p *pairedCmd) parse(o *options, typeName, yType string) (err error) {
	p.opt = o
	p.sigmaX, p.sigmaY, p.permutations = o.sigmaX, o.sigmaY, o.permutations
	switch p.model = o.model; p.model {
	case "auto":
		p.model = ""
	case divergence.ModelKernel:
	case divergence.ModelCopula:
		if o.est.Exact {
			return usageErr("--exact computes the kernel model's all-centre value: drop --model %s or --exact", p.model)
		}
	default:
		return usageErr("--model %q: want auto, %s or %s", p.model, divergence.ModelKernel, divergence.ModelCopula)
	}
	switch p.yType = yType; p.yType {
	case "auto", "numeric":
	case "categorical":
		if p.sigmaY != 0 {
			return usageErr("--%s categorical fixes the width on y: drop --sigma-y", typeName)
		}
	default:
		return usageErr("--%s %q: want auto, numeric or categorical", typeName, p.yType)
	}
	p.path, err = oneInput(o)
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
func (p *pairedCmd) decide(typeName string, y *mat.Dense, file, column string, labels []string) error {
	_, d := y.Dims()
	switch {
	case p.yType == "categorical":
		if d != 1 {
			return usageErr("--%s categorical takes one column, not %d", typeName, d)
		}
		p.classes = true
	case labels != nil: // auto, one column of text
		if p.sigmaY != 0 {
			return usageErr("column %q holds text labels, scored as classes with the delta kernel: drop --sigma-y", column)
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
			return usageErr("%s: column %q is read as class labels, to which the Gaussian-copula model does not apply (it needs more than %d distinct values): drop --model, or give --%s numeric", file, column, divergence.MaxClasses, typeName)
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
func (p *pairedCmd) split(typeName string, t *dataset.Table, all *sample, xs, ys []string) (mat.Matrix, mat.Matrix, error) {
	x, y := columnsOf(all.x, t.Columns, xs), columnsOf(all.x, t.Columns, ys)
	var labels []string // the text labels of y, by the reader's codes
	if j := slices.Index(t.Columns, p.label(ys)); j >= 0 && t.Categories != nil {
		labels = t.Categories[j]
	}
	if err := p.decide(typeName, y, t.Name, p.label(ys), labels); err != nil {
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
	p.catsX = tabular.CategoryColumns(t, xs)
	for _, j := range p.catsX {
		if labels := t.Categories[slices.Index(t.Columns, xs[j])]; len(labels) > divergence.MaxCategories {
			return nil, nil, fmt.Errorf("%s: column %q holds %d distinct labels, more than the %d a category column may hold: leave it out, or recode it", t.Name, xs[j], len(labels), divergence.MaxCategories)
		}
	}
	p.warnings = tabular.IDWarnings(xs, []*mat.Dense{x}, []int{all.rows})
	_, dx := x.Dims()
	if p.joint && standardizes(p.opt, dx) || !p.joint && standardizes(p.opt, 1) {
		p.scaleX = tabular.Standardize(p.catsX, x)
	}
	if _, dy := y.Dims(); !p.classes && standardizes(p.opt, dy) {
		p.scaleY = tabular.Standardize(nil, y)
	}
	return sample{x: x, rows: all.rows, cats: p.catsX}.matrix(), sample{x: y, rows: all.rows}.matrix(), nil
}

// addStandardized adds to out what standardisation was done, when it was:
// "scaled_x" and "scaled_y" say how, "spreads_x" and
// "spreads_y" what a standardised unit is worth in each column.
func (p *pairedCmd) addStandardized(out *record, xs, ys []string) *record {
	if len(p.catsX) > 0 { // only then, so that numeric outputs keep their keys
		out.add("categorical_x", tabular.NamesOf(xs, p.catsX))
	}
	if p.scaleX != nil {
		out.add("scaled_x", p.scaleX.Describe(xs)).add("spreads_x", p.scaleX.Spreads())
	}
	if p.scaleY != nil {
		out.add("scaled_y", p.scaleY.Describe(ys)).add("spreads_y", p.scaleY.Spreads())
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
