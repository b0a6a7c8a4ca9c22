// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build unix

package divergence

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the CPU time, user and system, the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRelativePECPU reports the CPU time (all goroutines together,
// the metric cpu-s/op) of RelativePE with σ and λ cross-validated at the
// defaults on 10⁶ rows per sample, in one and five columns (the paper's
// samples; a shift of 0.2 in every coordinate): the budget is
// 0.5 s of CPU for cross-validation and estimate. Wall time on a loaded
// machine says less than this.
func BenchmarkRelativePECPU(b *testing.B) {
	const n = 1_000_000
	x1, y1 := paperSamples(n, n)
	x5, y5 := shiftData(5, 5, 0.2)(n, rand.New(rand.NewPCG(1, 1)))
	for _, c := range []struct {
		name string
		d    int
	}{{"d=1", 1}, {"d=5", 5}} {
		x, y := x1, y1
		if c.d == 5 {
			x, y = x5, y5
		}
		b.Run(fmt.Sprintf("cv/n=1e+06/%s", c.name), func(b *testing.B) {
			start := cpuTime()
			benchPE(b, x, y, PESettings{})
			b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}
