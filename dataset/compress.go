// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// compression is a compressed format that Open reads.
type compression int

const (
	uncompressed compression = iota
	gzipped
	zstandard
)

// String returns the format's name, as messages show it.
func (k compression) String() string {
	switch k {
	case gzipped:
		return "gzip"
	case zstandard:
		return "zstd"
	}
	return "uncompressed"
}

// MaxZstdWindow is the largest window, in bytes, that a zstd input may
// declare: the decoder's memory is of this order. It admits every level of
// the zstd command and its --long mode (128 MiB), and refuses a frame
// asking for more (zstd.ErrWindowSizeExceeded) rather than allocating it.
const MaxZstdWindow = 128 << 20

// sniff returns the format whose magic bytes head starts with: gzip (1f 8b)
// or a zstd frame (28 b5 2f fd) or skippable frame (5? 2a 4d 18).
func sniff(head []byte) compression {
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return gzipped
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}),
		len(head) >= 4 && head[0]&0xf0 == 0x50 && bytes.Equal(head[1:4], []byte{0x2a, 0x4d, 0x18}):
		return zstandard
	}
	return uncompressed
}

// byExtension returns the format that the name of path announces: .gz or
// .zst (in any case).
func byExtension(path string) compression {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".gz":
		return gzipped
	case ".zst":
		return zstandard
	}
	return uncompressed
}

// checkCompression returns the format of the input at path whose first
// bytes are head: by its magic bytes, which must match what its name
// announces.
func checkCompression(path string, head []byte) (compression, error) {
	k, ext := sniff(head), byExtension(path)
	if ext != uncompressed && k != ext {
		return 0, fmt.Errorf("dataset: %s: not a %v stream: the name ends in %s but the file starts with %s",
			displayName(path), ext, filepath.Ext(path), quote(string(head)))
	}
	return k, nil
}

// newDecoder returns a reader of the decompressed bytes of r, in format k,
// whose errors name the format and say when the stream is cut short.
func newDecoder(k compression, r io.Reader, name string) (io.ReadCloser, error) {
	var d io.ReadCloser
	switch k {
	case gzipped:
		g, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("dataset: %s: %w", name, decodeError(k, err))
		}
		d = g
	case zstandard:
		z, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(MaxZstdWindow), zstd.WithDecoderMaxMemory(2*MaxZstdWindow))
		if err != nil {
			return nil, fmt.Errorf("dataset: %s: %w", name, decodeError(k, err))
		}
		d = z.IOReadCloser()
	default:
		panic("dataset: newDecoder of uncompressed input")
	}
	return &decoder{r: d, k: k}, nil
}

// decoder is a decompressing reader whose errors say what happened.
type decoder struct {
	r io.ReadCloser
	k compression
}

func (d *decoder) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if err != nil && err != io.EOF {
		err = decodeError(d.k, err)
	}
	return n, err
}

func (d *decoder) Close() error { return d.r.Close() }

// decodeError describes an error of a decoder of format k.
func decodeError(k compression, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("%v stream cut short: %w", k, io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("%v stream: %w", k, err)
}
