// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"
	"math"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat"
)

// BenchmarkLSMICoverage is issue 37's accuracy and coverage study of LSMI
// at the settings `pearson mi` resolves by default (LSMISettings{} with a
// seed: the command's --k, --m, --draws and --model default to the
// library's; its --standardize divides standard-normal columns by their
// sample spread, which the median heuristic's scaling makes immaterial),
// on studyCases at 10³ and 10⁴ rows (the sub-benchmarks n=1000 and
// n=10000), 20 runs per case, fresh data and seed per run (streams apart
// from TestLSMIStudy's). It prints one markdown row per case: the mean
// relative error and its spread over runs, the mean StdErr over the truth,
// runs covered by ±2·StdErr, flagged LowerBound, flagged although covered,
// missed unflagged, the mean error of the runs not flagged, the range of
// the kernel model's share (lsmiTailShare) over the runs that report it,
// the range of the copula fit's ρ₁ (copulaStrongRho), and CPU seconds per
// run. docs/RESULTS.md records its table:
//
//	go test -run '^$' -bench LSMICoverage -benchtime 1x -timeout 2h ./divergence
//
// -bench 'LSMICoverage/n=1000$' runs the 10³ rows alone.
func BenchmarkLSMICoverage(b *testing.B) {
	const seeds = 20
	fmt.Println("| case | n | truth | mean error | spread | stderr/truth | covered | flagged | flagged, covered | missed unflagged | mean error unflagged | kernel share | copula ρ₁ | CPU-s/run |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				for _, c := range studyCases(n) {
					fmt.Println(coverageRow(b, c, n, seeds))
				}
			}
		})
	}
}

// coverageRow runs one case of BenchmarkLSMICoverage and formats its row.
func coverageRow(b *testing.B, c study, n, seeds int) string {
	var errs []float64
	var se, unflaggedErr float64
	covered, flagged, flaggedIn, missed, unflagged := 0, 0, 0, 0, 0
	shareLo, shareHi, rhoLo, rhoHi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	t0 := cpuSeconds()
	for seed := range uint64(seeds) {
		x, y := c.gen(rand.New(rand.NewPCG(seed, 137)))
		r, err := LSMI(ctx, x, y, &LSMISettings{Settings: Settings{Src: rand.NewPCG(seed, 138)}})
		if err != nil {
			b.Fatal(err)
		}
		e := r.SMI/c.truth - 1
		if r.Model == ModelKernel && r.share > 0 {
			shareLo, shareHi = math.Min(shareLo, r.share), math.Max(shareHi, r.share)
		}
		if r.rho1 > 0 {
			rhoLo, rhoHi = math.Min(rhoLo, r.rho1), math.Max(rhoHi, r.rho1)
		}
		errs = append(errs, e)
		se += r.StdErr / c.truth / float64(seeds)
		in := math.Abs(r.SMI-c.truth) <= 2*r.StdErr
		if in {
			covered++
		}
		switch {
		case r.LowerBound && in:
			flagged++
			flaggedIn++
		case r.LowerBound:
			flagged++
		case !in:
			missed++
			fallthrough
		default:
			unflagged++
			unflaggedErr += e
		}
		if !in && !r.LowerBound {
			fmt.Printf("miss: %s, n = %d, seed %d: %.4f ± %.4f (%s, share %.3f, ρ₁ %.2f), truth %.4f, z = %+.2f\n", c.name, n, seed, r.SMI, r.StdErr, r.Model, r.share, r.rho1, c.truth, (r.SMI-c.truth)/r.StdErr)
		}
	}
	cpu := (cpuSeconds() - t0) / float64(seeds)
	mean, sd := stat.MeanStdDev(errs, nil)
	ue := "—"
	if unflagged > 0 {
		ue = fmt.Sprintf("%+.1f%%", 100*unflaggedErr/float64(unflagged))
	}
	return fmt.Sprintf("| %s | %d | %.4f | %+.1f%% | %.1f%% | %.1f%% | %d/%d | %d | %d | %d | %s | %s | %s | %.2f |",
		c.name, n, c.truth, 100*mean, 100*sd, 100*se, covered, seeds, flagged, flaggedIn, missed, ue, span(shareLo, shareHi, "%.3f"), span(rhoLo, rhoHi, "%.2f"), cpu)
}

// span formats the range lo–hi, "—" when empty.
func span(lo, hi float64, format string) string {
	if lo > hi {
		return "—"
	}
	return fmt.Sprintf(format+"–"+format, lo, hi)
}

// cpuSeconds returns the process's user and system CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
