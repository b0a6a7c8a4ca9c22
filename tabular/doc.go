// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package tabular holds the rules that turn a table read by package dataset
// (or columns held in memory) into the estimators' input, once, for the
// command line and Go callers alike:
//
//   - which columns are used: a Selection of named columns less those
//     excluded (an exclusion that leaves no column is an error, and so is
//     excluding the column that splits the rows into samples);
//   - which columns are categories: columns of text or booleans, read as
//     labels and coded, with one code per label over both samples (Unify);
//     the default selection takes them too, leaving out with a warning one
//     with too many labels (ReadText) or whose labels nearly tell the rows
//     apart (TextIDs);
//   - which numeric columns look like row identifiers (IDLike), with an
//     actionable warning;
//   - the default scaling: each numeric column by its median and 1.4826
//     times its median absolute deviation, pooled over the samples
//     (Standardize), on by default when there are several columns
//     (ScaledByDefault), described for the output by Scaling.Describe.
//
// Its messages name the parts of a selection by the command line's flags
// (--columns, --exclude, --group), the names a user meets; a Go caller
// reads Selection.Exclude for --exclude, and so on.
package tabular
