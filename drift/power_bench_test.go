// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkDriftVersusKS compares tables of n rows × cols standard normal
// columns (one shifted by 0.1 sd) with the defaults, joint row included,
// and, side by side over the same columns, the reference KS two-sample test
// of power_test.go (Go, sort and merge, asymptotic p-value) with
// Benjamini–Hochberg.
func BenchmarkDriftVersusKS(b *testing.B) {
	for _, size := range []struct{ n, cols int }{{1_000, 20}, {10_000, 20}, {100_000, 20}} {
		rnd := rand.New(rand.NewPCG(1, 1))
		ref := normalTable(size.n, size.cols, nil, rnd)
		cur := normalTable(size.n, size.cols, map[int]float64{0: 0.1}, rnd)
		b.Run(fmt.Sprintf("pearson/%d×%d", size.n, size.cols), func(b *testing.B) {
			for range b.N {
				s := &Settings{}
				s.Src = rand.NewPCG(1, 2)
				if _, err := Compare(context.Background(), ref, cur, s); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("KS+BH/%d×%d", size.n, size.cols), func(b *testing.B) {
			for range b.N {
				p := make([]float64, size.cols)
				for j := range p {
					p[j] = ksPValue(ref[j].Values, cur[j].Values)
				}
				_ = bhReference(p)
			}
		})
	}
}

// BenchmarkWholePowerTable measures the power table of docs/RESULTS.md at
// 10⁵ and 10⁶ rows (run once: -bench WholePowerTable -benchtime 1x), a
// sub-benchmark per size and number of tables (-bench
// 'WholePowerTable/n=1000000/tables=20'; the first tables of a larger run
// are those of a smaller): the
// tables of TestWholePower (wholeTables: a column per change, two null
// columns of each type), with changes of δ = 4/√n, smaller than the
// test's 6/√n so that the methods separate at 10⁶ rows too; pearson at its
// defaults (the command's; joint row off, which the column verdicts do
// not use) beside KS/χ² + Benjamini–Hochberg on every row and the energy
// test (199 permutations, BH) on 20 000 rows of each table, the sample the
// kernel test sees. It prints the share of tables in which each method
// flags each change (q < 0.05), and the share of null columns of each type
// with p ≤ 0.05. About 10 CPU-s a table at 10⁶ rows.
func BenchmarkWholePowerTable(b *testing.B) {
	for _, size := range []struct{ n, reps int }{{100_000, 10}, {100_000, 20}, {1_000_000, 6}, {1_000_000, 20}} {
		b.Run(fmt.Sprintf("n=%d/tables=%d", size.n, size.reps), func(b *testing.B) {
			for range b.N {
				wholePowerTable(b, size.n, size.reps)
			}
		})
	}
}

// wholePowerTable prints BenchmarkWholePowerTable's table at n rows over
// reps tables.
func wholePowerTable(b *testing.B, n, reps int) {
	const energyRows, energyPerms = 20_000, 199
	d := 4 / math.Sqrt(float64(n))
	flags := make([][3]int, len(wholeChanges)) // pearson, KS + BH, energy + BH
	low := make([][2]int, len(nullTypes))      // pearson, KS
	for rep := range reps {
		rnd := rand.New(rand.NewPCG(uint64(rep), uint64(n)+11))
		ref, cur := wholeTables(n, d, rnd)
		s := &Settings{NoJoint: true}
		s.Src = rand.NewPCG(uint64(rep), 101)
		res, err := Compare(context.Background(), ref, cur, s)
		if err != nil {
			b.Fatal(err)
		}
		pKS, qKS := ksBH(ref, cur)
		var pE []float64
		for k := range wholeChanges {
			if wholeChanges[k].cat == nil {
				pE = append(pE, energyPValue(ref[k].Values[:energyRows], cur[k].Values[:energyRows], energyPerms, rnd))
			}
		}
		qE := bhReference(pE)
		e := 0
		for k, c := range wholeChanges {
			flags[k][0] += int(b2f(res.Columns[k].Drifted))
			flags[k][1] += int(b2f(qKS[k] < powerLevel))
			if c.cat == nil {
				flags[k][2] += int(b2f(qE[e] < powerLevel))
				e++
			}
		}
		for j := len(wholeChanges); j < len(ref); j++ {
			ty := (j - len(wholeChanges)) / 2
			low[ty][0] += int(b2f(res.Columns[j].PValue <= powerLevel))
			low[ty][1] += int(b2f(pKS[j] <= powerLevel))
		}
	}
	var report strings.Builder
	fmt.Fprintf(&report, "n = %d, %d tables, δ = 4/√n = %.4f\n| change | pearson | KS + BH | energy + BH (20 000 rows) |\n|---|---|---|---|\n", n, reps, d)
	r := float64(reps)
	for k, c := range wholeChanges {
		energy := "—"
		if c.cat == nil {
			energy = fmt.Sprintf("%.2f", float64(flags[k][2])/r)
		}
		fmt.Fprintf(&report, "| %s | %.2f | %.2f | %s |\n", c.name, float64(flags[k][0])/r, float64(flags[k][1])/r, energy)
	}
	for ty, nt := range nullTypes {
		fmt.Fprintf(&report, "| null %s: p ≤ 0.05 (%d columns) | %.3f | %.3f | |\n", nt.name, 2*reps, float64(low[ty][0])/(2*r), float64(low[ty][1])/(2*r))
	}
	fmt.Print(report.String()) // b.Log would cut it to ten lines
}
