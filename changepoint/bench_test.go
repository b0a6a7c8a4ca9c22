// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

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

// smooth returns the scores averaged over the scores within h rows of
// each: a smoothing over nearby steps, which BenchmarkSpread gives the
// density-ratio score and the baselines alike.
func smooth(s []changepoint.Score, h int) []changepoint.Score {
	out := make([]changepoint.Score, len(s))
	lo, hi := 0, 0
	sum := 0.0
	for i, c := range s {
		for hi < len(s) && s[hi].Time <= c.Time+h {
			sum += s[hi].Value
			hi++
		}
		for s[lo].Time < c.Time-h {
			sum -= s[lo].Value
			lo++
		}
		out[i] = changepoint.Score{Time: c.Time, Value: sum / float64(hi-lo)}
	}
	return out
}

// BenchmarkSpread measures the ROC AUC of TestBenchmarks' protocol (2000
// rows, Step 4, n = 50, α = 0.1) on changes of spread, averaged over three
// series of each: the paper's scaling variance, the same with Student-t (3
// d.f.) and with Laplace innovations of the same variances, and switches
// of kurtosis at equal variance, of the AR(2) innovations and of
// independent rows. It compares the score at the default Embed and at
// Embed 1 with the mean-and-variance baseline and its robust counterpart
// (median and MAD), each also smoothed over the scores within 10 rows; run
// it once (-benchtime=1x). The AUCs are logged, one line per series.
func BenchmarkSpread(b *testing.B) {
	const rows, tol, seeds = 2000, 10, 3
	cps := changes(rows)
	series := []struct {
		name string
		gen  func(*rand.Rand, int) *mat.Dense
	}{
		{"scaling variance", scalingVariance},
		{"scaling variance, t₃", heavyScalingVariance},
		{"scaling variance, Laplace", laplaceScalingVariance},
		{"kurtosis, AR(2)", switchingKurtosisAR},
		{"kurtosis, independent", switchingKurtosis},
	}
	for b.Loop() {
		for i, sr := range series {
			// ours, Embed 1, baseline, robust, then the same smoothed.
			var auc [8]float64
			for seed := range uint64(seeds) {
				x := sr.gen(rand.New(rand.NewPCG(2013+1000*seed, uint64(10+i))), rows)
				var sc [4][]changepoint.Score
				for j, k := range []int{0, 1} {
					res, err := changepoint.Scores(context.Background(), x, changepoint.DefaultAlpha, &changepoint.Settings{Embed: k, Step: 4, Src: rand.NewPCG(1, uint64(i))})
					if err != nil {
						b.Fatal(err)
					}
					sc[j] = res.Scores
				}
				sc[2], sc[3] = baseline(x, 50), robustBaseline(x, 50)
				for j, s := range sc {
					auc[j] += rocAUC(s, cps, tol) / seeds
					auc[4+j] += rocAUC(smooth(s, 10), cps, tol) / seeds
				}
			}
			b.Logf("%-26s ROC AUC: default %.3f, Embed 1 %.3f, baseline %.3f, robust baseline %.3f; smoothed over ±10 rows: %.3f, %.3f, %.3f, %.3f",
				sr.name, auc[0], auc[1], auc[2], auc[3], auc[4], auc[5], auc[6], auc[7])
		}
	}
}

// BenchmarkSegment measures Segment at its defaults on series of 100 to
// 3000 rows (the level+trend recipe's noise with a shift in the middle),
// end to end; the cost per row stays flat once the window reaches its
// cap of 50 subsequences (2500 rows).
func BenchmarkSegment(b *testing.B) {
	for _, rows := range []int{100, 1000, 3000} {
		rnd := rand.New(rand.NewPCG(1, 2))
		x := mat.NewDense(rows, 1, nil)
		for i := range rows {
			v := rnd.NormFloat64()
			if i >= rows/2 {
				v += 3
			}
			x.Set(i, 0, v)
		}
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			for b.Loop() {
				if _, err := changepoint.Segment(context.Background(), x, changepoint.DefaultAlpha, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSegmentColumns measures Segment at its defaults on 1000 rows of
// 1, 2 and 5 columns (independent noise, a shift of 1.5 in one column in
// the middle): with several columns each column is scored on its own
// beside the joint score.
func BenchmarkSegmentColumns(b *testing.B) {
	const rows = 1000
	for _, dim := range []int{1, 2, 5} {
		rnd := rand.New(rand.NewPCG(1, 2))
		x := mat.NewDense(rows, dim, nil)
		for i := range rows {
			for j := range dim {
				x.Set(i, j, rnd.NormFloat64())
			}
			if i >= rows/2 {
				x.Set(i, 0, x.At(i, 0)+1.5)
			}
		}
		b.Run(fmt.Sprintf("columns=%d", dim), func(b *testing.B) {
			for b.Loop() {
				if _, err := changepoint.Segment(context.Background(), x, changepoint.DefaultAlpha, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSegmentVsPELT measures Segment at its defaults beside the test's
// PELT (mean-and-variance cost, SIC penalty; benchmark_test.go) in the same
// run, on 10³, 10⁵, 10⁶ and 10⁷ rows of white noise whose mean shifts by
// ±1.5 every tenth of the series, and reports the CPU seconds of each (user
// + system of the process, both cores counted) beside the wall time. A
// size's series is drawn only when one of its sub-benchmarks is selected:
//
//	go test -run '^$' -bench 'SegmentVsPELT/.*/rows=1000000$' -benchtime 1x ./changepoint
func BenchmarkSegmentVsPELT(b *testing.B) {
	for _, rows := range []int{1000, 100000, 1000000, 10000000} {
		series := sync.OnceValue(func() *mat.Dense {
			rnd := rand.New(rand.NewPCG(1, 2))
			x := mat.NewDense(rows, 1, nil)
			for i := range rows {
				v := rnd.NormFloat64()
				if (i/max(1, rows/10))%2 == 1 {
					v += 1.5
				}
				x.Set(i, 0, v)
			}
			return x
		})
		runs := []struct {
			name string
			run  func() error
		}{
			{"pearson", func() error {
				_, err := changepoint.Segment(context.Background(), series(), changepoint.DefaultAlpha, nil)
				return err
			}},
			{"PELT", func() error { pelt(series()); return nil }},
		}
		for _, r := range runs {
			b.Run(fmt.Sprintf("%s/rows=%d", r.name, rows), func(b *testing.B) {
				series() // drawn outside the measured loop
				cpu := cpuSeconds()
				for b.Loop() {
					if err := r.run(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((cpuSeconds()-cpu)/float64(b.N), "cpu-s/op")
			})
		}
	}
}
