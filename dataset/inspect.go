// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"io"
	"os"
)

// IsCompressed reports whether Open decompresses the file at path as it
// reads it: its first bytes are those of a gzip stream or a zstd frame, or
// its name ends in .gz or .zst (Open refuses a name whose format the bytes
// do not match). The size of such a file says nothing of its rows. It
// reads the file's first four bytes; "-" (standard input) and a file that
// cannot be read report false.
func IsCompressed(path string) bool {
	if path == "-" {
		return false
	}
	if byExtension(path) != uncompressed {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF {
		return false
	}
	return sniff(head[:n]) != uncompressed
}
