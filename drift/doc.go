// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package drift tells whether the columns of a current table changed from a
// reference table, column by column and as a whole, at a cost that does not
// grow with the number of rows.
//
// A table is a slice of Column values: numeric (Values, NaN for missing) or
// categorical (Categories, "" for missing), possibly a uniform sample of the
// rows of a larger data set whose true row and missing counts the column
// carries. NewReference fits a reference once: it keeps at most
// Settings.SampleRows of its rows, the same for every column, with the
// columns' types, categories and counts. Reference.Compare compares a
// current table with it; Compare does both in one call.
//
// # What is compared
//
// Every column is compared on its own, the current table as the numerator P
// and the reference as Q, by the relative Pearson divergence
//
//	PE_½(P‖Q) = ½ E_{q_½}[(p/q_½ − 1)²] = ¼ ∫ (p − q)²/(p + q),   q_½ = (p + q)/2,
//
// which is zero exactly when the distributions are equal, at most ½, and to
// second order in p − q the Jensen–Shannon divergence in nats
// (docs/DESIGN.md §2):
//
//   - a numeric column on its present values by divergence.RelativePE,
//     the constant-time estimate with its standard error, σ and λ
//     cross-validated once for the column and held for its draws, and by
//     divergence.TwoSampleTest, an exact permutation p-value on a statistic
//     whose kernel widths do not depend on the labels (docs/DESIGN.md §5);
//   - a categorical column by the same divergence with a delta kernel on
//     categories, for which RuLSIF's model fits the ratio exactly and PE_½
//     has the closed form ¼ Σ_c (p_c − q_c)²/(p_c + q_c) of the category
//     frequencies; its p-value is that of a permutation test on it, exact
//     for any number of categories and any counts, unlike the chi-square
//     approximation, which fails for rare categories;
//   - the share of missing values of a column that has any, by PE_½ between
//     the missing indicators and Fisher's exact test on the true counts.
//
// The p-values of all these tests are adjusted together for their number,
// by Benjamini–Hochberg (default) or Holm. A column drifts when one of its
// tests has an adjusted p-value (q-value) below Settings.Level and a
// divergence above Settings.Threshold: at large n every difference is
// significant, and the threshold asks that it also be large enough to
// matter (see DefaultThreshold). The data set drifts when the share of
// drifted columns reaches Settings.DriftShare, as evidently's drift_share.
// A joint row compares the rows of all numeric columns at once, each
// scaled by its median and median absolute deviation over both tables (so
// that neither a column in larger units nor one outlier dominates the
// kernel; Result.JointScales says how each was scaled): it sees
// changes of dependence that no column shows alone, and is reported beside
// the columns without entering the adjustment or the share.
// Result.Fails applies the rule of a job that fails on drift (Gate): any
// drifted column (AnyColumn, the default) or the share (DriftShare). A
// numeric column's effect sizes are its shift and spread ratio in
// reference standard deviations and the Wasserstein distance, which a
// change of shape moves too; a column with too few values for the
// estimate (a table of a few rows) is not judged and says so in its Note.
//
// Each numeric column's test averages over every present value of both
// tables up to divergence.TwoSamplePointsCap together, unless Settings.Points is
// set; beyond that its cost stays flat and its power is that of samples
// of that size (about 10⁴ rows a table): it stops growing with n there.
//
// The permutation test of a numeric column stops early when it is far from
// significance: its permutations end at the Settings.Exceedances-th whose
// statistic reaches the observed one (Besag and Clifford's sequential
// p-value, valid as the fixed-B one is), so that a column that did not
// drift costs a few dozen permutations and one that may drift all of
// Settings.Permutations. For one column a permutation counts the group's
// points in 1000 bins of the pooled values, whatever the rows.
//
// WriteHTML writes a Result as a self-contained HTML page, with the
// distributions of every column overlaid as inline SVG.
//
// # Saved references
//
// Reference.Save writes a reference that Load reads back, so that later
// comparisons need neither the reference data nor its reading; its size is
// bounded by SampleRows, whatever the rows of the reference. The format,
// version 1, all integers little-endian:
//
//	magic     14 bytes  "pearson-drift\n"
//	version   uint32    1
//	length    uint32    L, the bytes of the metadata (at most 64 MiB)
//	metadata  L bytes   JSON, below
//	payload             for each column in order, sampled_rows values:
//	                    numeric: float64 (IEEE 754 bits), NaN for missing;
//	                    categorical: int32 index into categories, −1 for missing
//	checksum  uint32    CRC-32 (IEEE) of every byte before it
//
// The metadata is an object {"sampled_rows": n, "columns": [...]}, each
// column {"name", "type": "numeric" | "categorical", "rows", "missing"} and,
// for a categorical column, "categories" (labels in code order) and
// "counts" (their present values in the sample, for readers; Load does not
// need them). rows and missing count the data set's rows and missing values.
// Load refuses a file with another magic, a truncated or corrupt one (bad
// checksum, counts that do not add up, codes out of range) with an error
// wrapping ErrFormat, and one of a newer version with ErrVersion.
// A version 2 reader will read version 1.
package drift
