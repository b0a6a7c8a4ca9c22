// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sublinear/pearson/changepoint"
)

// benchStep measures the cost of one evaluated step (one pushed row, with
// Step = 1) of a Detector whose windows are already full.
func benchStep(b *testing.B, s changepoint.Settings) {
	ctx := context.Background()
	d, err := changepoint.NewDetector(1, changepoint.DefaultAlpha, &s)
	if err != nil {
		b.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for d.Rows() < d.MinRows()-1 {
		if _, _, err := d.Push(ctx, []float64{rnd.NormFloat64()}); err != nil {
			b.Fatal(err)
		}
	}
	row := []float64{0}
	for b.Loop() {
		row[0] = rnd.NormFloat64()
		if _, ok, err := d.Push(ctx, row); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

// BenchmarkStep shows the cost per evaluated step staying flat from
// windows of 10² to 10⁴ subsequences, with σ and λ re-tuned at every step
// (the default) and held.
func BenchmarkStep(b *testing.B) {
	for _, retune := range []int{0, -1} {
		for _, n := range []int{100, 1000, 10000} {
			b.Run(fmt.Sprintf("retune=%d/window=%d", retune, n), func(b *testing.B) {
				benchStep(b, changepoint.Settings{Window: n, Retune: retune})
			})
		}
	}
}

// BenchmarkStepExact is the same step with RuLSIF's all-centre solution,
// as the reference implementations compute it: O(n³).
func BenchmarkStepExact(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("window=%d", n), func(b *testing.B) {
			benchStep(b, changepoint.Settings{Window: n, Exact: true})
		})
	}
}

// BenchmarkMillionRows scores a series of 10⁶ rows at every 100th row,
// end to end, with windows of 1000 subsequences; run it once
// (-benchtime=1x).
func BenchmarkMillionRows(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 2))
	x := scalingVariance(rnd, 1_000_000) // the covariance recipe leaves |ρ| < 1 only for 10⁴ rows
	for b.Loop() {
		if _, err := changepoint.Scores(context.Background(), x, changepoint.DefaultAlpha, &changepoint.Settings{Window: 1000, Step: 100}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRetune measures the ROC AUC of TestBenchmarks' protocol (2000
// rows, Step 2, the paper's k, n and α) and the time per scored step when σ
// and λ are re-tuned at every step, at an interval commensurate with the
// changes (50 rows, half their period), at one that is not (37 rows), and
// once; run it once (-benchtime=1x). The AUC of each series is reported as
// a metric.
func BenchmarkRetune(b *testing.B) {
	const rows, tol = 2000, 10
	cps := changes(rows)
	for _, retune := range []int{0, 37, 50, -1} {
		b.Run(fmt.Sprintf("retune=%d", retune), func(b *testing.B) {
			for b.Loop() {
				var steps int
				for i, bm := range benchmarks {
					if !bm.paper {
						continue
					}
					x := bm.gen(rand.New(rand.NewPCG(2013, uint64(i))), rows)
					res, err := changepoint.Scores(context.Background(), x, changepoint.DefaultAlpha, &changepoint.Settings{Step: 2, Retune: retune, Src: rand.NewPCG(1, uint64(i))})
					if err != nil {
						b.Fatal(err)
					}
					steps += len(res.Scores)
					b.ReportMetric(rocAUC(res.Scores, cps, tol), "AUC-"+strings.ReplaceAll(bm.name, " ", "-"))
				}
				b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(steps), "ms/step")
			}
		})
	}
}

// BenchmarkEmbed measures the ROC AUC of TestBenchmarks' protocol (2000
// rows, Step 4, n = 50, α = 0.1) on its five series, averaged over three
// series of each, for subsequences of 1, 5 and 10 rows, beside the
// mean-and-variance baseline; run it once (-benchtime=1x). The AUC of each
// series is reported as a metric.
func BenchmarkEmbed(b *testing.B) {
	const rows, tol, seeds = 2000, 10, 3
	cps := changes(rows)
	for _, k := range []int{0, 1, 5, 10} { // 0: the baseline
		b.Run(fmt.Sprintf("embed=%d", k), func(b *testing.B) {
			for b.Loop() {
				for i, bm := range benchmarks {
					var auc float64
					for seed := range uint64(seeds) {
						x := bm.gen(rand.New(rand.NewPCG(2013+1000*seed, uint64(i))), rows)
						if k == 0 {
							auc += rocAUC(baseline(x, 50), cps, tol) / seeds
							continue
						}
						res, err := changepoint.Scores(context.Background(), x, changepoint.DefaultAlpha, &changepoint.Settings{Embed: k, Step: 4, Src: rand.NewPCG(1, uint64(i))})
						if err != nil {
							b.Fatal(err)
						}
						auc += rocAUC(res.Scores, cps, tol) / seeds
					}
					b.ReportMetric(auc, "AUC-"+strings.ReplaceAll(bm.name, " ", "-"))
				}
			}
		})
	}
}
