// Package plots draws the pictures of the pearson and reproduce commands: two
// samples with a fitted relative density ratio ([WriteSamples]), the null
// distribution of a permutation test ([WriteNull]), a horizontal bar chart
// ([WriteBars]), lines of errors against a parameter ([WriteLines]) and a
// series with its change-point score beneath ([WriteChangePoints]).
//
// The pictures are drawn with gonum.org/v1/plot and written to a file whose
// extension chooses the format: .png (96 dpi) or .svg, case-insensitively
// ([CheckPath]). Non-finite input values are skipped, empty inputs give a
// picture with a note rather than an error, and the same inputs always give
// the same bytes. Errors are prefixed "plots: ".
package plots
