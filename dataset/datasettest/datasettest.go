// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package datasettest writes the Parquet fixtures of pearson's tests, as
// parquet-go writes them, and reads CSV files, so that the tests of package
// dataset and of the command share one writer and one reader.
package datasettest

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// WriteParquet writes a Parquet file called name in a temporary directory
// of t, one row group for each of groups, with the columns of T (see
// parquet-go's struct tags) and the writer's options, and returns its
// path. Any failure ends the test.
func WriteParquet[T any](t testing.TB, name string, groups [][]T, opts ...parquet.WriterOption) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f, opts...)
	for _, rows := range groups {
		if _, err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// Groups cuts rows into row groups of at most n rows each (n < 1: one).
func Groups[T any](rows []T, n int) [][]T {
	if n < 1 {
		n = len(rows)
	}
	var g [][]T
	for start := 0; start < len(rows); start += n {
		g = append(g, rows[start:min(len(rows), start+n)])
	}
	return g
}

// ReadCSV returns the records of the CSV file at path, its header first.
// Any failure ends the test.
func ReadCSV(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
