// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/tabular"
)

// The column rules (selection, --exclude, identifiers, the default
// scaling) live in package table; what is left here are the flags and the
// mapping of table's errors to the command line's.

// standardizeFlag is --standardize: on by default, for the estimates that
// take several columns at once.
func standardizeFlag() cli.Flag {
	return &cli.BoolFlag{Name: "standardize", Value: true, Usage: "scale each column by its median and median absolute deviation (pooled over both samples) before estimating, so that no column dominates the kernel distances for being in larger units; on by default where an estimate takes several columns at once (a single column is left as it is unless --standardize is given, and a fixed --sigma is then in standardised units); --standardize=false turns it off"}
}

// standardizes reports whether a set of cols columns is standardised:
// always with --standardize given, never with --standardize=false, and by
// default as tabular.ScaledByDefault says.
func standardizes(o *options, cols int) bool {
	if o.given["standardize"] {
		return o.standardize
	}
	return tabular.ScaledByDefault(cols)
}

// idWarning is tabular.IDWarning.
func idWarning(name, why string) string { return tabular.IDWarning(name, why) }

// idLikeValues is tabular.IDLike.
func idLikeValues(v []float64, pop int) bool { return tabular.IDLike(v, pop) }

// minIDRows is tabular.MinIDRows.
const minIDRows = tabular.MinIDRows

// excludeFlag is --exclude, beside --columns (or --features).
func excludeFlag(of string) cli.Flag {
	return &cli.StringFlag{Name: "exclude", Usage: fmt.Sprintf("comma-separated `COLS` to leave out of %s (an identifier, say)", of)}
}

// excludeListed returns the columns named (by --flag) less those excluded
// (tabular.Selection.Named): a usage error when an excluded column is not
// among them or none is left.
func excludeListed(columns, exclude []string, flag string) ([]string, error) {
	return selectionUsage()(tabular.Selection{Columns: columns, Exclude: exclude, List: flag}.Named())
}

// selectionUsage turns table's refusal of a selection made before any read
// into a usage error of c.
func selectionUsage() func([]string, error) ([]string, error) {
	return func(keep []string, err error) ([]string, error) {
		var se *tabular.SelectionError
		if errors.As(err, &se) && se.File == "" {
			return nil, usageErr("%s", se.Msg)
		}
		return keep, err
	}
}

// keptColumns is tabular.Selection.Kept of the default selection's columns
// names read from file, less those excluded.
func keptColumns(file string, names, exclude []string, skipped []dataset.Skipped) ([]string, error) {
	return tabular.Selection{Exclude: exclude}.Kept(file, names, skipped)
}
