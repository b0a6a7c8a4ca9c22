// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"strconv"
	"testing"
)

// genInput returns a CSV with a header "x,y" and n rows of two numbers.
func genInput(n int) []byte {
	var b bytes.Buffer
	b.WriteString("x,y\n")
	buf := make([]byte, 0, 64)
	for i := 0; i < n; i++ {
		buf = strconv.AppendFloat(buf[:0], float64(i)*0.001, 'g', -1, 64)
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, float64(i%977)-488.25, 'g', -1, 64)
		buf = append(buf, '\n')
		b.Write(buf)
	}
	return b.Bytes()
}

func benchmarkRead(b *testing.B, opts testOptions) {
	const n = 1_000_000
	in := genInput(n)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		tab, err := readCSV(bytes.NewReader(in), "bench.csv", opts)
		if err != nil {
			b.Fatal(err)
		}
		if tab.Groups[0].Rows != n {
			b.Fatalf("%d rows", tab.Groups[0].Rows)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkRead reads 10^6 rows of two columns, keeping them all.
func BenchmarkRead(b *testing.B) { benchmarkRead(b, testOptions{}) }

// BenchmarkReadReservoir reads 10^6 rows of two columns through a reservoir
// of 1000 rows.
func BenchmarkReadReservoir(b *testing.B) { benchmarkRead(b, testOptions{Reservoir: 1000}) }
