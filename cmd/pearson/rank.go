// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
)

// rankCommand is pearson rank: each feature's SMI with the target
// (divergence.Rank), ranked, with q-values when tested.
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
			&cli.StringFlag{Name: "features", Usage: "comma-separated feature `COLS` (default: every column but the target" + categoryUsage + defaultTextUsage + ")"},
			&cli.IntFlag{Name: "top", Usage: "print only the first `N` features (0: all)"},
			excludeFlag("the default selection or of --features"),
			typeFlag("target-type", "the target"),
		}, estimatorFlags(kindMI, 0)...),
		Action: action(pipeline(func() command { return new(rankCmd) })),
	}
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

func (k *rankCmd) parse(o *options) (plan, error) {
	if err := k.pairedCmd.parse(o, "target-type", o.targetTyp); err != nil {
		return plan{}, err
	}
	k.target = strings.TrimSpace(o.target)
	if k.target == "" {
		return plan{}, usageErr("missing --target: the column the features are ranked against")
	}
	if k.top = o.top; k.top < 0 {
		return plan{}, usageErr("--top %d cannot be negative", k.top)
	}
	k.features, k.exclude = o.features, o.exclude
	if slices.Contains(k.features, k.target) {
		return plan{}, usageErr("the target %q is also among --features", k.target)
	}
	if slices.Contains(k.exclude, k.target) {
		return plan{}, usageErr("the target %q is also among --exclude", k.target)
	}
	if k.features != nil && k.exclude != nil {
		var err error
		if k.features, err = excludeListed(k.features, k.exclude, "features"); err != nil {
			return plan{}, err
		}
		k.exclude = nil
	}
	cols := 1
	if k.features != nil {
		cols = len(k.features)
	}
	return plan{inputs: []string{k.path}, steps: k.steps(), permutations: k.permutations, paired: true, cols: [2]int{cols, 1}}, nil
}

func (k *rankCmd) read(r *reader) (mat.Matrix, mat.Matrix, error) {
	var want []string // nil: every numeric column
	if k.features != nil {
		want = append(slices.Clone(k.features), k.target)
	}
	// Without --features the columns of text are features too, as
	// categories (readDefault), the target left aside.
	var all sample
	read := func(text []string) (*dataset.Table, error) {
		t, s, err := readColumns(r, k.path, want, k.label([]string{k.target}), k.maxLabels(r), append(slices.Clone(k.features), text...)...)
		all = s
		return t, err
	}
	var t *dataset.Table
	var text, warnings []string
	var err error
	if k.features != nil {
		t, err = read(nil)
	} else {
		t, text, warnings, err = r.readDefault(k.path, append(slices.Clone(k.exclude), k.target), "features", featureLabels(k.label([]string{k.target}), k.maxLabels(r)), read)
	}
	if err != nil {
		return nil, nil, categoryHint(k.textHint(err, []string{k.target}, "target-type", r), featureLabels(k.label([]string{k.target}), k.maxLabels(r)), "target-type", k.target)
	}
	if k.features == nil {
		ids, w := idText(t, text, "features")
		k.exclude, warnings = append(k.exclude, ids...), append(warnings, w...)
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
	x, y, err := k.split("target-type", t, &all, k.features, []string{k.target})
	k.in = all
	// The table of features has no place for them: standard error says
	// them too.
	for _, w := range warnings {
		fmt.Fprintf(r.stderr, "pearson: %s: %s\n", t.Name, w)
	}
	k.warnings = append(k.warnings, warnings...)
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
			add("lower_bound", f.LowerBound).
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
