// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/sublinear/pearson/internal/plots"
)

// The experiments.
const (
	Toy     = "toy"     // Figure 1: synthetic problems over the box [−1, 1]ⁿ
	Pearson = "pearson" // Tables 1 and 2: relative Pearson divergence
)

// Methods measured.
const (
	Proposed      = "proposed"       // Algorithm 1, one draw
	NystromPinv   = "nystrom-pinv"   // Nyström as the paper wrote it
	NystromStable = "nystrom-stable" // Nyström computed stably
	ExactMethod   = "exact"          // the whole problem solved
)

// Config says what to run.
type Config struct {
	// Experiments lists Toy, Pearson or both.
	Experiments []string
	// Seeds is the number of random problems per setting (the paper: 10).
	Seeds int
	// Quick runs a small version: fewer sizes and at most 3 seeds.
	Quick bool
	// Progress, if not nil, is called after each measured problem.
	Progress func(done, total int)
}

// Sizes of the experiments.
type sizes struct {
	toyN, toyK, peN, peK []int
}

func (c Config) sizes() sizes {
	if c.Quick {
		return sizes{toyN: []int{200, 500}, toyK: []int{10, 40, 160}, peN: []int{500, 1000}, peK: []int{20, 80}}
	}
	return sizes{
		toyN: []int{200, 500, 1000, 2000}, toyK: []int{10, 20, 40, 80, 160},
		peN: []int{500, 1000, 2000, 5000}, peK: []int{20, 40, 80, 160},
	}
}

func (c Config) seeds() int {
	if c.Quick {
		return min(c.Seeds, 3)
	}
	return c.Seeds
}

// Measurement is one method on one problem.
type Measurement struct {
	Experiment string `json:"experiment"`
	Method     string `json:"method"`
	N          int    `json:"n"`
	K          int    `json:"k,omitempty"`
	Seed       int    `json:"seed"`
	// Value is the method's result: z (toy) or PE (pearson); Reference the
	// exact minimum z* or the all-centre PE.
	Value     float64 `json:"value"`
	Reference float64 `json:"reference"`
	// Error is |z − z*|/n² (toy) or |PE − PE_exact| (pearson).
	Error float64 `json:"error"`
	// Certified reports that the method's minimum is proven global (toy:
	// the restricted problem; exact: the whole problem).
	Certified bool `json:"certified"`
	// SolveSeconds times the k-dimensional solve alone (proposed method);
	// TotalSeconds everything from the problem to the number, building the
	// restricted matrices from the samples included.
	SolveSeconds float64 `json:"solve_s,omitempty"`
	TotalSeconds float64 `json:"total_s"`
	// Sigma and Lambda are the kernel width and all-centre regularisation
	// (pearson), chosen by cross-validation once per seed.
	Sigma  float64 `json:"sigma,omitempty"`
	Lambda float64 `json:"lambda,omitempty"`
	// Failed says why the method gave no number (Value and Error are then
	// zero and the measurement is left out of the tables' means).
	Failed string `json:"failed,omitempty"`
}

// Report is the outcome of runExperiments.
type Report struct {
	Config       Config        `json:"-"`
	Seeds        int           `json:"seeds"`
	Quick        bool          `json:"quick"`
	Measurements []Measurement `json:"measurements"`
}

// runExperiments runs the experiments in turn, one measurement at a time, so that the
// timings do not compete with each other.
func runExperiments(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Seeds < 1 {
		return nil, fmt.Errorf("reproduce: %d seeds: at least one is needed", cfg.Seeds)
	}
	for _, e := range cfg.Experiments {
		if e != Toy && e != Pearson {
			return nil, fmt.Errorf("reproduce: unknown experiment %q: use %s or %s", e, Toy, Pearson)
		}
	}
	r := &Report{Config: cfg, Seeds: cfg.seeds(), Quick: cfg.Quick}
	sz := cfg.sizes()
	total, done := 0, 0
	if slices.Contains(cfg.Experiments, Toy) {
		total += len(sz.toyN) * r.Seeds
	}
	if slices.Contains(cfg.Experiments, Pearson) {
		total += len(sz.peN) * r.Seeds
	}
	step := func() {
		done++
		if cfg.Progress != nil {
			cfg.Progress(done, total)
		}
	}
	if slices.Contains(cfg.Experiments, Toy) {
		for _, n := range sz.toyN {
			for seed := 1; seed <= r.Seeds; seed++ {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				m, err := toyProblem(n, seed, sz.toyK)
				if err != nil {
					return nil, err
				}
				r.Measurements = append(r.Measurements, m...)
				step()
			}
		}
	}
	if slices.Contains(cfg.Experiments, Pearson) {
		for _, n := range sz.peN {
			for seed := 1; seed <= r.Seeds; seed++ {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				m, err := pearsonProblem(ctx, n, seed, sz.peK)
				if err != nil {
					return nil, err
				}
				r.Measurements = append(r.Measurements, m...)
				step()
			}
		}
	}
	return r, nil
}

// cell is an aggregate of the measurements of one method at one (n, k).
type cell struct {
	errMean, errSD           float64
	solve, total             float64 // medians
	count, certified, failed int
}

// aggregate groups the measurements of an experiment by method, n and k.
func (r *Report) aggregate(experiment string) map[[3]string]*cell {
	groups := map[[3]string][]Measurement{}
	for _, m := range r.Measurements {
		if m.Experiment != experiment {
			continue
		}
		key := [3]string{m.Method, fmt.Sprint(m.N), fmt.Sprint(m.K)}
		groups[key] = append(groups[key], m)
	}
	out := map[[3]string]*cell{}
	for key, ms := range groups {
		var errs, solve, total []float64
		c := &cell{count: len(ms)}
		for _, m := range ms {
			if m.Failed != "" {
				c.failed++
				continue
			}
			errs = append(errs, m.Error)
			solve = append(solve, m.SolveSeconds)
			total = append(total, m.TotalSeconds)
			if m.Certified {
				c.certified++
			}
		}
		c.errMean, c.errSD = math.NaN(), math.NaN()
		if len(errs) > 0 {
			c.errMean, c.errSD = stat.MeanStdDev(errs, nil)
		}
		if len(errs) == 1 {
			c.errSD = 0
		}
		c.solve, c.total = median(solve), median(total)
		out[key] = c
	}
	return out
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	if len(s) == 0 {
		return math.NaN()
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// values returns the distinct values of n and k in an experiment, sorted.
func (r *Report) values(experiment string) (ns, ks []int) {
	for _, m := range r.Measurements {
		if m.Experiment != experiment {
			continue
		}
		if !slices.Contains(ns, m.N) {
			ns = append(ns, m.N)
		}
		if m.K > 0 && !slices.Contains(ks, m.K) {
			ks = append(ks, m.K)
		}
	}
	slices.Sort(ns)
	slices.Sort(ks)
	return ns, ks
}

// Markdown returns the figure's data and both tables as Markdown.
func (r *Report) Markdown() string {
	var b strings.Builder
	if ns, ks := r.values(Toy); len(ns) > 0 {
		agg := r.aggregate(Toy)
		fmt.Fprintf(&b, "### Figure 1: synthetic problems, error |z − z*|/n² (mean ± sd over %d seeds)\n\n", r.Seeds)
		header(&b, "k", ns)
		for _, k := range ks {
			fmt.Fprintf(&b, "| %d |", k)
			for _, n := range ns {
				c := agg[[3]string{Proposed, fmt.Sprint(n), fmt.Sprint(k)}]
				fmt.Fprintf(&b, " %.4f ± %.4f |", c.errMean, c.errSD)
			}
			b.WriteString("\n")
		}
		b.WriteString("\nz* is qmin.Exact over [−1, 1]ⁿ: the problem is non-convex, so z* is the best of 8 local minima\n" +
			"(coordinate descent from the origin and 7 random points), certified global when a diagonal shift\n" +
			"on its coordinates at the bounds makes the problem convex; an uncertified z* may not be global.\n" +
			"Minima certified (exact minimum / restricted minima of the proposed method):\n\n")
		header(&b, "", ns)
		b.WriteString("| certified |")
		for _, n := range ns {
			ex := agg[[3]string{ExactMethod, fmt.Sprint(n), "0"}]
			prop := 0
			all := 0
			for _, k := range ks {
				c := agg[[3]string{Proposed, fmt.Sprint(n), fmt.Sprint(k)}]
				prop += c.certified
				all += c.count
			}
			fmt.Fprintf(&b, " %d/%d, %d/%d |", ex.certified, ex.count, prop, all)
		}
		b.WriteString("\n\nRuntime (ms, median): the exact minimum, and the proposed method at the largest k:\n\n")
		header(&b, "", ns)
		b.WriteString("| exact |")
		for _, n := range ns {
			fmt.Fprintf(&b, " %.3g |", 1000*agg[[3]string{ExactMethod, fmt.Sprint(n), "0"}].total)
		}
		fmt.Fprintf(&b, "\n| proposed, k = %d |", ks[len(ks)-1])
		for _, n := range ns {
			fmt.Fprintf(&b, " %.3g |", 1000*agg[[3]string{Proposed, fmt.Sprint(n), fmt.Sprint(ks[len(ks)-1])}].total)
		}
		b.WriteString("\n\n")
	}
	if ns, ks := r.values(Pearson); len(ns) > 0 {
		agg := r.aggregate(Pearson)
		fmt.Fprintf(&b, "### Table 1: Pearson divergence, runtime (ms, median over %d seeds)\n\n", r.Seeds)
		header(&b, "method | k", ns)
		for _, row := range []struct {
			name, method string
			solve        bool
		}{
			{"proposed, solve alone", Proposed, true},
			{"proposed, end to end", Proposed, false},
			{"Nyström (pinv), end to end", NystromPinv, false},
			{"Nyström (stable), end to end", NystromStable, false},
		} {
			for _, k := range ks {
				fmt.Fprintf(&b, "| %s | %d |", row.name, k)
				for _, n := range ns {
					c := agg[[3]string{row.method, fmt.Sprint(n), fmt.Sprint(k)}]
					v := c.total
					if row.solve {
						v = c.solve
					}
					fmt.Fprintf(&b, " %.3g |", 1000*v)
				}
				b.WriteString("\n")
			}
		}
		b.WriteString("| exact (all centres) | n |")
		for _, n := range ns {
			fmt.Fprintf(&b, " %.4g |", 1000*agg[[3]string{ExactMethod, fmt.Sprint(n), "0"}].total)
		}
		fmt.Fprintf(&b, "\n\n### Table 2: Pearson divergence, absolute error |PE_k − PE_exact| (mean ± sd over %d seeds)\n\n", r.Seeds)
		header(&b, "method | k", ns)
		for _, row := range []struct{ name, method string }{
			{"proposed", Proposed}, {"Nyström (pinv)", NystromPinv}, {"Nyström (stable)", NystromStable},
		} {
			for _, k := range ks {
				fmt.Fprintf(&b, "| %s | %d |", row.name, k)
				for _, n := range ns {
					c := agg[[3]string{row.method, fmt.Sprint(n), fmt.Sprint(k)}]
					fmt.Fprintf(&b, " %.4f ± %.4f", c.errMean, c.errSD)
					if c.failed > 0 {
						fmt.Fprintf(&b, " (%d failed)", c.failed)
					}
					b.WriteString(" |")
				}
				b.WriteString("\n")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func header(b *strings.Builder, first string, ns []int) {
	cols := strings.Count(first, "|") + 1
	fmt.Fprintf(b, "| %s |", first)
	for _, n := range ns {
		fmt.Fprintf(b, " n = %d |", n)
	}
	b.WriteString("\n|")
	for range cols + len(ns) {
		b.WriteString("---|")
	}
	b.WriteString("\n")
}

// WriteFiles writes results.json (every measurement), tables.md and, for
// the toy experiment, figure1.png and figure1.svg into dir, and returns the
// paths written.
func (r *Report) WriteFiles(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("reproduce: %w", err)
	}
	var paths []string
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("reproduce: %w", err)
	}
	for name, content := range map[string][]byte{"results.json": append(b, '\n'), "tables.md": []byte(r.Markdown())} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, content, 0o644); err != nil {
			return nil, fmt.Errorf("reproduce: %w", err)
		}
		paths = append(paths, p)
	}
	if ns, ks := r.values(Toy); len(ns) > 0 {
		agg := r.aggregate(Toy)
		l := plots.Lines{
			Title: fmt.Sprintf("synthetic problems: error of Algorithm 1 (%d seeds)", r.Seeds),
			X:     "k", Y: "|z − z*| / n²", LogX: true, LogY: true,
		}
		for _, n := range ns {
			s := plots.Series{Name: fmt.Sprintf("n = %d", n)}
			for _, k := range ks {
				c := agg[[3]string{Proposed, fmt.Sprint(n), fmt.Sprint(k)}]
				s.X = append(s.X, float64(k))
				s.Y = append(s.Y, c.errMean)
				s.Err = append(s.Err, c.errSD)
			}
			l.Series = append(l.Series, s)
		}
		for _, ext := range []string{".png", ".svg"} {
			p := filepath.Join(dir, "figure1"+ext)
			if err := plots.WriteLines(p, l); err != nil {
				return nil, err
			}
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	return paths, nil
}
