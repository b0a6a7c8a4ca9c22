// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
)

// The memory budget: a run whose estimate would need more than this is
// refused before any work, unless --max-memory raises it (docs/DESIGN.md
// §7). Two GiB runs every command with its defaults some forty times over
// and k up to about 1500, on a laptop as on a shared server, where a run
// killed by the kernel at 24 GB resident, or one that pushes its neighbours
// into swap, is the failure to avoid; on a machine with less than 4 GiB of
// physical memory the default is half of it.
const defaultBudget = 2 << 30

// baseMemory is what a run holds besides the estimate and the rows kept:
// the runtime, the program, the readers' buffers and the output writers.
const baseMemory = 64 << 20

func maxMemoryFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "max-memory", Usage: "the memory a run may need, as `SIZE` (bytes, or with K, M, G or T: powers of 1024); a run whose estimate needs more is refused before any work",
		DefaultText: "2G, or half the physical memory when less"}
}

// memoryBudget returns --max-memory in bytes, or the default budget.
func memoryBudget(o *options) (float64, error) {
	s := o.maxMemory
	if s == "" {
		return defaultMemoryBudget(), nil
	}
	b, err := parseSize(s)
	if err != nil {
		return 0, usageErr("--max-memory %q: %v", s, err)
	}
	return b, nil
}

// defaultMemoryBudget returns defaultBudget, or half the physical memory
// when that is less.
func defaultMemoryBudget() float64 {
	if phys := physicalMemory(); phys > 0 && phys/2 < defaultBudget {
		return phys / 2
	}
	return defaultBudget
}

// physicalMemory returns the machine's memory in bytes, from
// /proc/meminfo, or 0 when it is not known.
func physicalMemory() float64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			if err == nil {
				return kb * 1024
			}
		}
	}
	return 0
}

// parseSize reads a size in bytes: a number, optionally followed by K, M,
// G or T (powers of 1024; "KB", "KiB" and lower case are read alike).
func parseSize(s string) (float64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := 1.0
	if n := len(t); n > 0 {
		if i := strings.IndexByte("KMGT", t[n-1]); i >= 0 {
			mult = math.Pow(1024, float64(i+1))
			t = strings.TrimSpace(t[:n-1])
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v > 0) || math.IsInf(v*mult, 0) {
		return 0, fmt.Errorf("want a positive size such as 4G, 512M or 1000000")
	}
	return v * mult, nil
}

// formatSize writes a size in bytes for messages.
func formatSize(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.0f MiB", b/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", b/(1<<10))
}

// unknownRows stands for the rows of an input whose size says nothing of
// them (a stream, a compressed file) before it is read: the estimator's
// sizes are then bounded by its settings alone.
const unknownRows = math.MaxInt32

// shape is the size of an estimate's two samples: rows and columns of the
// first and the second (for mi and rank, of x and y, paired).
type shape struct{ ra, ca, rb, cb int }

// shapeOf returns the shape of the samples read.
func shapeOf(a, b mat.Matrix) shape {
	ra, ca := a.Dims()
	rb, cb := b.Dims()
	return shape{ra, ca, rb, cb}
}

// sampleBytes is the memory of the rows kept of shape sh: 8 bytes a value
// and 8 a row for its line number, twice for mi and rank, whose columns
// are copied out of the table.
func sampleBytes(paired bool, sh shape) float64 {
	known := func(r int) float64 {
		if r >= unknownRows {
			return 0 // a stream's rows are its own
		}
		return float64(r)
	}
	b := 8 * (known(sh.ra)*float64(sh.ca+1) + known(sh.rb)*float64(sh.cb+1))
	if paired {
		b *= 2
	}
	return b
}

// memoryNeed is the bound of a run's memory on samples of shape sh, with
// settings s and b permutations (paired: see plan).
func memoryNeed(cmd command, paired bool, s divergence.Settings, b int, sh shape) float64 {
	return baseMemory + sampleBytes(paired, sh) + cmd.estimatorSettings(s, b).memory(sh)
}

// knobs are the flags whose lowering saves memory, with the setting each
// would take at its least; the message names the one that saves most.
var knobs = []struct {
	flag string
	set  func(s *divergence.Settings, permutations *int)
}{
	{"--k", func(s *divergence.Settings, _ *int) { s.K = 1 }},
	{"--draws", func(s *divergence.Settings, _ *int) { s.Draws = 1 }},
	{"--m", func(s *divergence.Settings, _ *int) { s.M = 1 }},
	{"--folds", func(s *divergence.Settings, _ *int) { s.Folds = 2 }},
	{"--permutations", func(_ *divergence.Settings, b *int) { *b = 1 }},
}

// checkMemory returns a usage error when the run's bound on samples of
// shape sh exceeds the budget: how much it would need, and which flag to
// lower. when says at which point ("" before reading, or the samples read).
func checkMemory(cmd command, p plan, s divergence.Settings, sh shape, budget float64, when string) error {
	if err := checkWork(cmd, p.permutations, s, sh, when); err != nil {
		return err
	}
	b := p.permutations
	need := memoryNeed(cmd, p.paired, s, b, sh)
	best, saved := "", 0.0
	for _, kn := range knobs {
		s2, b2 := s, b
		kn.set(&s2, &b2)
		if v := need - memoryNeed(cmd, p.paired, s2, b2, sh); v > saved {
			best, saved = kn.flag, v
		}
	}
	if v := sampleBytes(p.paired, sh); v > saved {
		best = "--reservoir" // the rows kept, not the estimate's
	}
	return asUsage(cost{need: need, budget: budget, when: when, lower: best}.check())
}

// cost is a run's bound on memory, from its library's model of the
// run (divergence's estimator settings, drift.Settings.Memory,
// changepoint's StreamMemory and SegmentSettings.Memory, qmin's), and the
// words of its refusal: every command's check is cost.check.
type cost struct {
	need   float64 // bytes, baseMemory (or the command's own base) included
	budget float64 // --max-memory; 0 for none: the machine alone bounds it
	what   string  // what would need it ("": "the run")
	when   string  // for what, or at which point, after "of memory"
	lower  string  // the flags (or the settings) to lower, "" for none
	also   string  // other advice, after the rest
}

// check returns the refusal of a run whose need exceeds the budget or
// what this process can get (processMemory), nil otherwise.
func (c cost) check() error {
	return c.refuse(processMemory())
}

// refuse returns the refusal of a run whose need exceeds the budget or
// what the machine m gives this process (whichever binds first, named in
// the message; a run over what the machine gives would end in the
// runtime's "out of memory" trace or the kernel's OOM killer after minutes
// of work, whatever --max-memory allows), nil otherwise.
func (c cost) refuse(m machineMemory) error {
	overMachine := m.bytes > 0 && c.need > m.bytes
	if !overMachine && (c.budget == 0 || c.need <= c.budget) {
		return nil
	}
	what := cmp.Or(c.what, "the run")
	than := fmt.Sprintf("the budget of %s", formatSize(c.budget))
	remedy := "raise --max-memory"
	if overMachine && (c.budget == 0 || m.bytes < c.budget) {
		than = fmt.Sprintf("the %s that this process can get (%s)", formatSize(m.bytes), m.source)
		remedy = "run it where more memory is available"
	}
	if c.lower != "" {
		remedy = "lower " + c.lower + ", or " + remedy
	}
	if c.also != "" {
		remedy += ", or " + c.also
	}
	return fmt.Errorf("%s would need about %s of memory%s, more than %s: %s", what, formatSize(c.need), c.when, than, remedy)
}

// asUsage makes err, when there is one, a usage error (exit 2).
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return usageErr("%v", err)
}

// fileShape is the largest shape samples of ca and cb columns, paired or
// two samples (of two files, or of the groups of one), may take before
// they are read: the rows a file of its size may hold (two bytes a value at
// least; unknownRows for a stream or a compressed file), at most those the
// reservoir keeps.
func fileShape(inputs []string, reservoir, ca, cb int, paired, exact bool) shape {
	rows := func(path string, cols int) int {
		most, info := unknownRows, dataset.Inspect(path)
		switch info.Format {
		case dataset.FormatCSV:
			most = int(min(float64(info.Size)/float64(2*cols), unknownRows))
		case dataset.FormatParquet, dataset.FormatNPZ: // rows counted
			if info.Rows >= 0 {
				most = int(min(float64(info.Rows), unknownRows))
			}
		}
		switch {
		case exact:
			// More is refused by the estimator, before its work.
			if n := int(info.Rows); n >= 0 {
				return min(n+n/4, divergence.MaxExact)
			}
			return min(most, divergence.MaxExact)
		case reservoir > 0:
			return min(reservoir, most)
		}
		return most
	}
	if paired || len(inputs) < 2 {
		r := 0
		if len(inputs) > 0 {
			r = rows(inputs[0], ca+cb)
		}
		return shape{r, ca, r, cb}
	}
	return shape{rows(inputs[0], ca), ca, rows(inputs[1], cb), cb}
}

// exactSample is the file whose rows --exact takes as centres, and how it
// is named: the numerator file of two, or the paired file; "" when a group
// of one file is (its rows are not known before reading).
func exactSample(paired bool, inputs []string) string {
	if paired || len(inputs) == 2 {
		return inputs[0]
	}
	return ""
}

// checkExact refuses --exact before reading when the file of the centres
// clearly holds more rows than the exact solution takes (its estimate
// above 1.25·MaxExact); the estimator checks the rows read too.
func checkExact(o *options, paired bool, inputs []string) error {
	path := exactSample(paired, inputs)
	if path == "" {
		return nil
	}
	info := dataset.Inspect(path)
	if info.Format == dataset.FormatParquet && info.Rows >= 0 {
		return checkExactParquet(path, info.Rows)
	}
	if rows, ok, err := remoteParquetRows(o, path); err != nil || ok {
		if err != nil {
			return err
		}
		return checkExactParquet(path, rows)
	}
	if rows := info.Rows; rows >= 0 && float64(rows) > 1.25*divergence.MaxExact {
		return usageErr("--exact: %s holds about %d rows (from its size and the lines of its start); the exact solution takes at most %d: leave --exact out", displayPath(path), rows, divergence.MaxExact)
	}
	return nil
}

// diagnoseRead adds to a read error "no data row" the likely cause when an
// input's lines end with a carriage return alone (classic Mac OS), which
// makes the whole file one line.
func diagnoseRead(err error, inputs []string) error {
	if !errors.Is(err, dataset.ErrNoRows) {
		return err
	}
	for _, path := range inputs {
		if dataset.Inspect(path).CROnly {
			return fmt.Errorf("%w; %s ends its lines with a carriage return alone (CR, classic Mac OS): convert them to LF or CRLF", err, displayPath(path))
		}
	}
	return err
}
