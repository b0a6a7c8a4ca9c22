// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// TestNilReadersAreErrors calls the entry points that used to panic on a
// nil reader (issue 27): each must return an error naming the input.
func TestNilReadersAreErrors(t *testing.T) {
	var nilFile *os.File
	ctx := context.Background()
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"ReadMatrix(nil)", func() error { _, _, _, err := ReadMatrix(nil, "m.txt", ','); return err }},
		{"ReadMatrix((*os.File)(nil))", func() error { _, _, _, err := ReadMatrix(nilFile, "m.txt", ','); return err }},
		{"NewCSV(nil).Sample", func() error {
			_, err := NewCSV(nil, "m.txt", Options{}).Sample(ctx, Query{}, Sampling{Size: 3})
			return err
		}},
		{"NewCSV(nil).Scan", func() error {
			_, err := NewCSV(nil, "m.txt", Options{}).Scan(ctx, Query{}, func(string, int, []float64) error { return nil })
			return err
		}},
		{"NewCSV((*os.File)(nil)).Sample", func() error {
			var r io.Reader = nilFile
			_, err := NewCSV(r, "m.txt", Options{}).Sample(ctx, Query{}, Sampling{})
			return err
		}},
		{"NewCSVAt(nil).Sample", func() error {
			_, err := NewCSVAt(nil, 100, "m.txt", Options{}).Sample(ctx, Query{}, Sampling{Size: 3, Seek: true})
			return err
		}},
		{"NewCSVAt((*os.File)(nil)).Sample", func() error {
			_, err := NewCSVAt(nilFile, 100, "m.txt", Options{}).Sample(ctx, Query{}, Sampling{Size: 3, Seek: true})
			return err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v", r)
					}
				}()
				err = c.call()
			}()
			if err == nil || !strings.HasPrefix(err.Error(), "dataset: m.txt: ") {
				t.Errorf("error %v", err)
			}
		})
	}
}
