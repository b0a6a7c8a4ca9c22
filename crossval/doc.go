// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package crossval provides the pieces of k-fold cross-validation: random
// assignment of items to folds, and a search over a two-axis grid of
// hyperparameters that evaluates the rows of the grid in parallel, returns
// the whole table of scores with its best point, and says when that point lies
// on an edge of the grid. It knows nothing of what is scored: a caller's
// function computes the held-out score of each point.
package crossval
