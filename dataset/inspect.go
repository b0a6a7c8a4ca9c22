// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"io"
	"os"
	"strings"
)

// Format is the format in which Open reads an input.
type Format int

// The formats of an input.
const (
	// FormatUnknown is standard input, a pipe, or an input that does not
	// open: its format is known only once read.
	FormatUnknown Format = iota
	// FormatCSV is a plain (uncompressed) CSV file.
	FormatCSV
	// FormatGzip is a CSV file compressed with gzip.
	FormatGzip
	// FormatZstd is a CSV file compressed with zstd.
	FormatZstd
	// FormatParquet is a Parquet file, or a directory of them.
	FormatParquet
	// FormatNPZ is a NumPy archive (.npz) of one array per column, as the
	// Python package writes (see NPZ).
	FormatNPZ
)

func (f Format) String() string {
	return [...]string{"unknown", "CSV", "gzip-compressed CSV", "zstd-compressed CSV", "Parquet", "NumPy archive"}[f]
}

// pqMagic is the 4 bytes that start and end a Parquet file.
const pqMagic = "PAR1"

// isParquetMagic reports whether b, the first or the last four bytes of a
// file, are Parquet's magic bytes: the one place that recognises them.
func isParquetMagic(b []byte) bool { return string(b) == pqMagic }

// zipMagic is the 4 bytes that start a zip file, and so a NumPy archive.
const zipMagic = "PK\x03\x04"

// isNPZ reports whether the file or object named name, whose first bytes
// are head, is a NumPy archive: its name ends in .npz, or it is a zip
// file.
func isNPZ(name string, head []byte) bool {
	return strings.HasSuffix(name, ".npz") || len(head) >= len(zipMagic) && string(head[:len(zipMagic)]) == zipMagic
}

// isParquetName reports whether the name of a file or an object says
// Parquet: it ends in ".parquet".
func isParquetName(name string) bool { return strings.HasSuffix(name, ".parquet") }

// detect returns the format of the file or object named name whose first
// bytes are head (fewer when it is shorter): a NumPy archive by its name
// or a zip file's magic bytes, Parquet by its name or its magic bytes,
// otherwise CSV compressed or not by its magic bytes, which must match
// what its name announces (checkCompression). It is the one format
// detection of Open, OpenObjects and Inspect.
func detect(name string, head []byte) (Format, compression, error) {
	if isNPZ(name, head) {
		return FormatNPZ, uncompressed, nil
	}
	if isParquetName(name) || isParquetMagic(head) {
		return FormatParquet, uncompressed, nil
	}
	k, err := checkCompression(name, head)
	if err != nil {
		return FormatUnknown, 0, err
	}
	return [...]Format{FormatCSV, FormatGzip, FormatZstd}[k], k, nil
}

// HeadBytes is how much of a plain CSV file Inspect reads to estimate its
// rows.
const HeadBytes = 64 << 10

// Info is what Inspect tells of an input before any row is read.
type Info struct {
	// Format is the format Open reads it in.
	Format Format
	// Size is the size of a file in bytes (the total of a directory's
	// Parquet files), or 0 when unknown.
	Size int64
	// Rows is the number of data rows: counted from the footers of
	// Parquet or the arrays' headers of a NumPy archive (Exact), estimated for a plain CSV file from its size and
	// the lines of its first HeadBytes (Exact when the file is no longer),
	// or -1 when unknown (standard input, a compressed file, a file
	// whose head holds no line end, an input that does not open).
	Rows int64
	// Exact reports whether Rows is a count.
	Exact bool
	// CROnly reports whether the head of a plain CSV file holds carriage
	// returns and no line feed (classic Mac OS line ends, which make the
	// whole file one line).
	CROnly bool
}

// Inspect returns the format of the input at path and its rows as far as
// they are known without reading a row (see Info); "-" is standard input,
// of unknown format. It reads the first HeadBytes of a plain file, or the
// footers of Parquet; an input that does not open gives FormatUnknown (the
// read then says why).
func Inspect(path string) Info {
	info := Info{Rows: -1}
	if path == "-" {
		return info
	}
	f, buf, size, dir := detectFile(path, HeadBytes)
	if dir {
		return inspectParquet(path, info)
	}
	info.Format, info.Size = f, size
	n := len(buf)
	switch info.Format {
	case FormatParquet:
		return inspectParquet(path, info)
	case FormatNPZ:
		if z, err := OpenNPZ(path, Options{}); err == nil {
			info.Rows, info.Exact = int64(z.Rows()), z.Rows() >= 0
			z.Close()
		}
	case FormatCSV:
		info.CROnly = bytes.IndexByte(buf, '\r') >= 0 && bytes.IndexByte(buf, '\n') < 0
		lines := int64(bytes.Count(buf, []byte{'\n'}))
		switch {
		case lines == 0:
		case int64(n) == info.Size:
			info.Rows, info.Exact = lines-1, true // less the header
		default:
			info.Rows = int64(float64(info.Size) * float64(lines) / float64(n))
		}
	}
	return info
}

// inspectParquet is Inspect of the Parquet input at path: its rows counted
// from its footers, or unknown when it does not open.
func inspectParquet(path string, info Info) Info {
	info.Format = FormatParquet
	p, err := OpenParquet(path, Options{})
	if err != nil {
		return info
	}
	defer p.Close()
	info.Rows, info.Exact = p.Rows(), true
	return info
}

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
	f, _, _, _ := detectFile(path, len(pqMagic))
	return f == FormatGzip || f == FormatZstd
}

// detectFile returns the format of the file at path (detect) and its
// first n bytes (fewer when it is shorter) and size; dir reports a
// directory, read as Parquet. A path that is neither a regular file nor
// a directory, or that does not open, is FormatUnknown.
func detectFile(path string, n int) (f Format, head []byte, size int64, dir bool) {
	fi, err := os.Stat(path)
	switch {
	case err != nil || !fi.IsDir() && !fi.Mode().IsRegular():
		return FormatUnknown, nil, 0, false
	case fi.IsDir():
		return FormatParquet, nil, 0, true
	}
	file, err := os.Open(path)
	if err != nil {
		return FormatUnknown, nil, 0, false
	}
	defer file.Close()
	head = make([]byte, n)
	m, _ := io.ReadFull(file, head)
	head = head[:m]
	if f, _, err = detect(path, head[:min(m, len(pqMagic))]); err != nil {
		f = FormatUnknown
	}
	return f, head, fi.Size(), false
}
