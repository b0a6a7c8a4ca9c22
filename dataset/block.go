// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import "io"

// NewCSVBlocks returns a Source reading the CSV text held by the size bytes
// of r, as NewCSVAt does, whose Sample with Sampling.Seek draws blocks of
// rows instead of single rows.
func NewCSVBlocks(r io.ReaderAt, size int64, name string, opts Options) Source {
	return NewCSVAt(r, size, name, opts)
}
