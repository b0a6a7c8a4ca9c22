// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/changepoint"
)

// nullKind is a recipe of series without a change of d columns.
type nullKind struct {
	name, short string
	series      func(rnd *rand.Rand, T, d int) *mat.Dense
}

// nullColumns returns T rows of d columns, each AR(1) with its own φ drawn
// in [0, phiMax], sharing a common AR(1) factor of variance ρ drawn in
// [rhoLo, rhoHi] (each column's own part of variance 1 − ρ).
func nullColumns(phiMax, rhoLo, rhoHi float64) func(rnd *rand.Rand, T, d int) *mat.Dense {
	return func(rnd *rand.Rand, T, d int) *mat.Dense {
		ar := func(phi float64) []float64 {
			e := make([]float64, T)
			sigma := math.Sqrt(1 - phi*phi)
			prev := rnd.NormFloat64()
			for t := range e {
				prev = phi*prev + sigma*rnd.NormFloat64()
				e[t] = prev
			}
			return e
		}
		rho := uniform(rnd, rhoLo, rhoHi)
		f := ar(uniform(rnd, 0, phiMax))
		x := mat.NewDense(T, d, nil)
		for j := range d {
			own := ar(uniform(rnd, 0, phiMax))
			for t := range T {
				x.Set(t, j, math.Sqrt(rho)*f[t]+math.Sqrt(1-rho)*own[t])
			}
		}
		return x
	}
}

var nullKinds = []nullKind{
	{"white noise", "white", nullColumns(0, 0, 0)},
	{"AR(1), φ ≤ 0.5", "AR", nullColumns(0.5, 0, 0)},
	{"AR(1), correlated ρ 0.3–0.9", "correlated", nullColumns(0.5, 0.3, 0.9)},
}

// nullRun is what one series without a change gave: its rows, the
// detections by rule, and the largest calibrated window score less the
// one-column penalty 2·ln T.
type nullRun struct {
	rows   int
	rules  map[string]int
	excess float64
}

func runNull(t testing.TB, kind nullKind, d int, seed uint64) nullRun {
	rnd := rand.New(rand.NewPCG(seed, uint64(7000+d)))
	T := between(rnd, 200, 800)
	x := kind.series(rnd, T, d)
	res, err := changepoint.Segment(context.Background(), x, changepoint.DefaultAlpha, nil)
	if err != nil {
		t.Error(err)
		return nullRun{rules: map[string]int{}}
	}
	r := nullRun{rows: T, rules: map[string]int{}, excess: slices.Max(res.Calibrated) - changepoint.PenaltyPerLogRow*math.Log(float64(T))}
	for _, c := range res.Changes {
		r.rules[c.Rule]++
	}
	return r
}

// BenchmarkNullColumns measures the false alarms of Segment's defaults
// (those of pearson changepoint) on series without a change of d = 1, 2,
// 3, 5 columns, T ∈ [200, 800] rows, 40 series of each kind and d, each
// kind and d the sub-benchmark kind=…/d=… (kind=white, kind=AR,
// kind=correlated: a -bench pattern picks them), and the null
// distribution of the largest
// calibrated window score less 2·ln T (its median and quantiles): with d
// columns it should exceed 0 about as often as the one-column case's does
// once the penalty's extra term is subtracted. It asserts nothing
// (docs/RESULTS.md reports it; about 170 CPU-s at 40 series):
//
//	go test -run '^$' -bench NullColumns -benchtime 1x -v ./changepoint
func BenchmarkNullColumns(t *testing.B) {
	const n = 40
	var b strings.Builder
	fmt.Fprintf(&b, "\n| kind | d | alarms/series | per 1000 rows | series with one | divergence | steps | level | spread | excess median | excess sd | P(excess>0) |\n|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, kind := range nullKinds {
		for _, d := range []int{1, 2, 3, 5} {
			t.Run(fmt.Sprintf("kind=%s/d=%d", kind.short, d), func(sub *testing.B) {
				// Once, whatever sub.N: the row is the result.
				if !strings.Contains(b.String(), fmt.Sprintf("| %s | %d |", kind.name, d)) {
					nullRow(sub, &b, kind, d, n)
				}
			})
		}
	}
	t.Log(b.String())
}

// nullRow runs n series of the kind with d columns and writes their row
// of BenchmarkNullColumns's table to b.
func nullRow(t *testing.B, b *strings.Builder, kind nullKind, d, n int) {
	runs := make([]nullRun, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				runs[i] = runNull(t, kind, d, uint64(i))
			}
		}()
	}
	for i := range runs {
		next <- i
	}
	close(next)
	wg.Wait()
	var alarms, rows, with, over int
	byRule := map[string]int{}
	ex := make([]float64, n)
	for i, r := range runs {
		k := 0
		for rule, c := range r.rules {
			byRule[rule] += c
			k += c
		}
		alarms += k
		rows += r.rows
		if k > 0 {
			with++
		}
		ex[i] = r.excess
		if r.excess > 0 {
			over++
		}
	}
	mean := 0.0
	for _, v := range ex {
		mean += v / float64(n)
	}
	sd := 0.0
	for _, v := range ex {
		sd += (v - mean) * (v - mean) / float64(n-1)
	}
	sd = math.Sqrt(sd)
	slices.Sort(ex)
	fmt.Fprintf(b, "\n| %s | %d | %.3f | %.3f | %d/%d | %d | %d | %d | %d | %.2f | %.2f | %.3f |", kind.name, d,
		float64(alarms)/float64(n), 1000*float64(alarms)/float64(rows), with, n,
		byRule[changepoint.RuleDivergence], byRule[changepoint.RuleSteps], byRule[changepoint.RuleLevel], byRule[changepoint.RuleSpread],
		ex[n/2], sd, float64(over)/float64(n))
	fmt.Fprintf(b, " q:")
	for _, q := range []float64{0.5, 0.75, 0.9, 0.95} {
		fmt.Fprintf(b, " %.2f", ex[int(q*float64(n-1))])
	}
}
