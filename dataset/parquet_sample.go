// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/sublinear/pearson/internal/summary"
)

// The constants of a two-stage sample; NewParquetAt documents the rules
// they set.
const (
	unitsPerDraw  = 4   // sample by units only when the dataset has more than this many units per draw
	groupMargin   = 1.2 // rows expected per row wanted of the rarest group
	unitAttempts  = 3   // samples drawn, with a doubled margin each time, before a group short of rows means a full read
	maxUnitGroups = 256 // group values met before the groups are read in full

	rowGroupDraws     = 8 // the fewest row-group draws (or n, when fewer): the independent draws of the error bar
	unitsPerGroupDraw = 8 // the most unit draws within one row-group draw
)

// pqUnit is a unit of a two-stage sample: the rows [start, end) of a row
// group of a shard.
type pqUnit struct {
	shard      *pqShard
	rg         int
	start, end int64
	first      int64 // the 0-based number in the dataset of the row group's first row
	draws      []int // the draws that chose it
	counts     map[string]int64
	earliest   map[string]int64 // the first row of each group value in it
}

func (u *pqUnit) rows() int64 { return u.end - u.start }

// unitSample draws the two-stage sample of NewParquetAt. It returns a nil
// table and no error when the dataset must be read in full instead, with
// the reason for a note, if any.
func (p *Parquet) unitSample(ctx context.Context, pl *pqPlan, s Sampling) (*Table, string, error) {
	n := s.Units
	if n <= 0 {
		n = DefaultUnits
	}
	if p.rows == 0 {
		return nil, "", nil
	}
	u, err := p.countUnits(pl)
	if err != nil {
		return nil, "", err
	}
	d := groupDraws(n)
	if p.rgDraws > 0 {
		d = min(n, p.rgDraws)
	} else {
		d = max(d, p.smallUnitDraws(n, u, s.Size))
	}
	if !p.alwaysSeek && u <= unitsPerDraw*p.reach(n, d, u) {
		return nil, "", nil
	}
	src := s.Src
	if src == nil {
		src = rand.NewPCG(1, 2)
	}
	rng := rand.New(src)
	rows, cluster, strata := p.drawRows(rng, n, d)
	units, draws, err := p.drawUnits(ctx, pl, rows)
	if err != nil {
		return nil, "", err
	}
	keys, err := p.unitGroups(ctx, pl, units)
	if err != nil {
		return nil, "", err
	}
	if why := p.checkGroups(pl, units, keys); why != "" {
		return nil, why, nil
	}
	boost := 1.0
	var short shortGroup
	for range unitAttempts {
		var t *Table
		var err error
		t, short, err := p.takeRows(ctx, pl, rng, s.Size, units, draws, cluster, d, strata, keys, boost)
		if err != nil || t != nil {
			return t, "", err
		}
		if short.whole {
			break
		}
		boost *= 2
	}
	return nil, fmt.Sprintf("%s: %d rows of it in the %d units drawn, fewer than %d", short.what, short.rows, len(units), s.Size), nil
}

// shortGroup is a group that a two-stage sample left with too few rows.
type shortGroup struct {
	what  string // "group \"a\"", or "the table"
	rows  int
	whole bool // although every row of the units drawn was taken
}

// countUnits returns the number of units of the dataset: its row groups,
// times the pages of a chunk of the first column read in the first row
// group when it has an offset index.
func (p *Parquet) countUnits(pl *pqPlan) (int64, error) {
	var u int64
	for _, sh := range p.shards {
		u += int64(len(sh.rgRows))
	}
	sh := p.shards[0]
	if len(sh.rgRows) == 0 {
		return u, nil
	}
	o, err := p.shard(sh)
	if err != nil {
		return 0, err
	}
	c := pl.shard[sh].cols[0]
	loc, err := o.pages(0, &c)
	if err != nil {
		return 0, err
	}
	return u * int64(max(1, len(loc))), nil
}

// reach returns the most distinct units that a two-stage sample of n unit
// draws in d row-group draws reads from a dataset of u units: n, or d times
// the units of a row group when a row group holds fewer than n/d units (a
// file without a page index, whose unit is the row group, such as
// DuckDB's). A dataset of at most unitsPerDraw·reach units is read in full:
// a sample would read a large part of it anyway. Counting d row groups, not
// n units, for a file without a page index bounds the bytes a sample
// fetches (unitsPerDraw·d row groups at most, read in full, else d row
// groups) instead of reading 4·n row groups whole.
func (p *Parquet) reach(n, d int, u int64) int64 {
	var groups int64
	for _, sh := range p.shards {
		groups += int64(len(sh.rgRows))
	}
	perGroup := max(1, u/max(1, groups))
	return min(int64(n), int64(d)*perGroup)
}

// groupDraws returns the number d of row-group draws of a two-stage
// sample of n unit draws: at least rowGroupDraws (or n, when fewer), and
// enough for at most unitsPerGroupDraw unit draws in each.
func groupDraws(n int) int {
	return max(min(n, rowGroupDraws), (n+unitsPerGroupDraw-1)/unitsPerGroupDraw)
}

// smallUnitDraws returns the row-group draws that a two-stage sample of n
// unit draws needs when a row group holds fewer than unitsPerGroupDraw
// units (a file without a page index, or of small row groups): a
// row-group draw then reaches at most that many distinct units, so there
// must be enough draws for their rows to hold twice the size rows wanted,
// at most n (the one-stage design, every draw its own row group). It is 0
// when a row group holds unitsPerGroupDraw units or more.
func (p *Parquet) smallUnitDraws(n int, units int64, size int) int {
	var groups int64
	for _, sh := range p.shards {
		groups += int64(len(sh.rgRows))
	}
	perGroup := units / max(1, groups) // units per row group
	if perGroup >= unitsPerGroupDraw || units == 0 {
		return 0
	}
	rowsPerUnit := max(1, p.rows/units)
	need := (2*int64(size) + rowsPerUnit - 1) / rowsPerUnit // distinct units wanted
	d := (need + perGroup - 1) / max(1, perGroup)
	return int(min(int64(n), d))
}

// locate returns the shard k holding row x of the dataset, the row group g
// of it holding the row, and the row group's first row in the dataset.
func (p *Parquet) locate(x int64) (k, g int, first int64) {
	k = sort.Search(len(p.shards), func(i int) bool { return p.shards[i].first > x }) - 1
	sh := p.shards[k]
	first = sh.first
	for ; first+sh.rgRows[g] <= x; g++ {
		first += sh.rgRows[g]
	}
	return k, g, first
}

// The designs of the row-group draws (Parquet.rgDesign, for the tests;
// docs/RESULTS.md, "The design effect", compares them).
const (
	designPPS       = iota + 1 // d independent draws of a uniform row of the dataset
	designStrata               // one uniform row of each of d strata of equal rows, in file order
	designStrataTwo            // two uniform rows of each of d/2 strata (three in the last when d is odd)

	defaultDesign = designStrata
)

// drawRows draws the rows of stage one of a two-stage sample of n unit
// draws in d row-group draws: draw j is the j-th row, and
// cluster[j] its row-group draw, which holds the draws from i·n/d to
// (i+1)·n/d − 1. Row-group draw i draws a row of the dataset, whose row
// group it takes (with probability proportional to its rows there).
// Without strata (designPPS), that row is uniform and is the first unit
// draw, the others uniform rows of its row group; with strata, every unit
// draw is a uniform row of the row group.
//
// The row groups are stratified: the dataset's N rows, in file order
// (object by object), are cut into d strata, one per row-group draw, and
// row-group draw i, holding the unit draws [lo_i, hi_i), draws its row in
// the rows [lo_i·N/n, hi_i·N/n) of its stratum: ⌊(u·N + v)/n⌋ with u
// uniform in [lo_i, hi_i) and v in [0, N), a uniform row of the stratum (a
// row at the edge of two strata shared between them in proportion). A
// row group g then gets, in expectation, Σ_i (hi_i − lo_i)·|g ∩ stratum
// i|/(|stratum i|·R_g) = n/N unit draws per row, as with independent
// draws: every unit keeps its inclusion chance and the estimates stay
// unbiased (Hansen–Hurwitz). Strata follow the file order, so that a file
// written in time order (sorted, drifting) is sampled evenly along it. With
// one draw per stratum, the variance between strata cannot be told from
// the variance within them; the variance of the sums over the row-group
// draws is the collapsed-strata estimator of summary.StrataVariance over
// strata = summary.PairedStrata(d), adjacent strata paired (the last
// three together when d is odd; d < 4 draws one group), which is
// conservative by the squared differences of paired strata's means.
// (designStrataTwo, two draws in each of d/2 strata, is unbiased, and
// designPPS the independent draws: docs/RESULTS.md, "The design
// effect", compares them.)
func (p *Parquet) drawRows(rng *rand.Rand, n, d int) (rows []int64, cluster []int, strata []int) {
	design := p.rgDesign
	if design == 0 {
		design = defaultDesign
	}
	rows, cluster = make([]int64, n), make([]int, n)
	N := p.rows
	sampling := strata // the strata of the draws
	switch design {
	case designStrata: // one draw per stratum; pairs of them for the variance
		strata = summary.PairedStrata(d)
		sampling = make([]int, d)
		for i := range sampling {
			sampling[i] = i
		}
	case designStrataTwo:
		strata = summary.PairedStrata(d)
		sampling = strata
	}
	for i := range d {
		if sampling == nil {
			rows[i*n/d] = rng.Int64N(N)
			continue
		}
		a, b := i, i+1 // the row-group draws of i's stratum
		for a > 0 && sampling[a-1] == sampling[i] {
			a--
		}
		for b < d && sampling[b] == sampling[i] {
			b++
		}
		lo, hi := a*n/d, b*n/d
		rows[i*n/d] = stratumRow(N, int64(n), int64(lo+rng.IntN(hi-lo)), rng.Int64N(N))
	}
	for i := range d {
		lo, hi := i*n/d, (i+1)*n/d
		k, g, first := p.locate(rows[lo])
		for j := lo; j < hi; j++ {
			cluster[j] = i
			if j > lo || sampling != nil {
				rows[j] = first + rng.Int64N(p.shards[k].rgRows[g])
			}
		}
	}
	return rows, cluster, strata
}

// stratumRow returns ⌊(i·N + v)/s⌋ (in 128 bits): for v uniform in
// [0, N), a uniform row of the rows [i·N/s, (i+1)·N/s).
func stratumRow(N, s, i, v int64) int64 {
	hi, lo := bits.Mul64(uint64(i), uint64(N))
	lo, c := bits.Add64(lo, uint64(v), 0)
	q, _ := bits.Div64(hi+c, lo, uint64(s))
	return int64(q)
}

// drawUnits draws the units of the rows drawn (drawRows), each the unit
// holding its row; it returns the distinct units in file order and the
// unit of each draw.
func (p *Parquet) drawUnits(ctx context.Context, pl *pqPlan, rows []int64) ([]*pqUnit, []*pqUnit, error) {
	n := len(rows)
	p.prefetchIndexes(pl, rows) // remote objects: the offset indexes of the row groups drawn, fetched concurrently
	draws := make([]*pqUnit, n)
	order := make([]int, n)
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool { return rows[order[a]] < rows[order[b]] })
	var units []*pqUnit
	var last *pqUnit
	for _, j := range order {
		x := rows[j]
		if last != nil && x >= last.first+last.start && x < last.first+last.end {
			last.draws = append(last.draws, j)
			draws[j] = last
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("dataset: %s: drawing units: %w", p.name, err)
		}
		k, g, first := p.locate(x)
		sh := p.shards[k]
		u := &pqUnit{shard: sh, rg: g, start: 0, end: sh.rgRows[g], first: first}
		o, err := p.shard(sh)
		if err != nil {
			return nil, nil, err
		}
		c := pl.shard[sh].cols[0]
		loc, err := o.pages(g, &c)
		if err != nil {
			return nil, nil, err
		}
		if len(loc) > 1 {
			r := x - first
			i := sort.Search(len(loc), func(i int) bool { return loc[i].FirstRowIndex > r }) - 1
			u.start = loc[i].FirstRowIndex
			if i+1 < len(loc) {
				u.end = loc[i+1].FirstRowIndex
			}
		}
		u.draws = []int{j}
		draws[j] = u
		units = append(units, u)
		last = u
	}
	return units, draws, nil
}

// unitGroups counts the rows of each group value in each unit, reading the
// group column of the units (the partition key of their shard, for a
// partition key), and returns the group values in the order of their
// earliest row.
func (p *Parquet) unitGroups(ctx context.Context, pl *pqPlan, units []*pqUnit) ([]string, error) {
	if pl.gname == "" {
		return nil, nil
	}
	earliest := make(map[string]int64)
	note := func(k string, row int64) {
		if e, ok := earliest[k]; !ok || row < e {
			earliest[k] = row
		}
	}
	// The units of shards whose group column is a partition key are
	// counted at once, the others through readUnits, each on the
	// goroutine that decodes it (its counts and its first row of each
	// value), the first rows then merged in order.
	var firsts []map[string]int64 // of the units of reads: the first row of each value in the row group
	var read []*pqUnit
	var reads []unitRead
	for _, u := range units {
		sc := pl.shard[u.shard]
		u.counts = make(map[string]int64)
		if sc.group.leaf < 0 {
			u.counts[sc.part] = u.rows()
			note(sc.part, u.first+u.start)
			continue
		}
		f := make(map[string]int64)
		work := func(o *pqOpen, curs []*pqCursor) error {
			return o.countFrom(ctx, pl, u.rg, u.start, u.end, curs[0], func(k string, rows, first int64) {
				u.counts[k] += rows
				if e, ok := f[k]; !ok || first < e {
					f[k] = first
				}
			})
		}
		firsts = append(firsts, f)
		read = append(read, u)
		reads = append(reads, unitRead{shard: u.shard, g: u.rg, cols: pl.readCols(u.shard, false), from: u.start, to: u.end, useIndex: true, work: work})
	}
	err := p.readUnits(ctx, reads, func(i int, _ *pqOpen, _ []*pqCursor) error {
		for k, first := range firsts[i] {
			note(k, read[i].first+first)
		}
		firsts[i] = nil // merged: not kept until the read ends
		return nil
	})
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(earliest))
	for k := range earliest {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return earliest[keys[a]] < earliest[keys[b]] })
	return keys, nil
}

// keptGroups returns the group values of keys (in order) whose rows are
// kept: those of Query.Groups, at most Query.MaxGroups of them.
func keptGroups(q Query, keys []string) []string {
	var kept []string
	for _, k := range keys {
		if len(q.Groups) > 0 && !slices.Contains(q.Groups, k) {
			continue
		}
		if q.MaxGroups > 0 && len(kept) == q.MaxGroups {
			break
		}
		kept = append(kept, k)
	}
	return kept
}

// checkGroups returns why the groups met in the units cannot be sampled
// from them, or "".
func (p *Parquet) checkGroups(pl *pqPlan, units []*pqUnit, keys []string) string {
	if pl.gname == "" {
		return ""
	}
	q := pl.q
	if len(keys) > maxUnitGroups {
		return fmt.Sprintf("more than %d group values", maxUnitGroups)
	}
	for _, k := range q.Groups {
		if !slices.Contains(keys, k) {
			return fmt.Sprintf("group %s was not met in the %d units drawn", quote(k), len(units))
		}
	}
	if len(q.Groups) == 0 && q.MaxGroups > 0 && len(keys) < q.MaxGroups {
		return fmt.Sprintf("%d group values met in the %d units drawn, fewer than %d", len(keys), len(units), q.MaxGroups)
	}
	return ""
}

// unitRow is a row kept by a two-stage sample.
type unitRow struct {
	line int // 1-based row number in the dataset
	draw int
	off  int // of its values in the group's data
}

// unitGroup is a group being sampled in two stages.
type unitGroup struct {
	key  string
	rows []unitRow
	data []float64
	hits []int // per draw: its rows taken, not missing
}

// takeRows takes the rows of each draw from its unit (stage two) and
// returns the table, or a nil table and the group kept that has fewer than
// size rows. boost multiplies the rows taken per draw. cluster gives the
// row-group draw, of d, of each draw: the independent observations, in
// the strata strata of summary.StrataVariance.
func (p *Parquet) takeRows(ctx context.Context, pl *pqPlan, rng *rand.Rand, size int, units, draws []*pqUnit,
	cluster []int, d int, strata []int, keys []string, boost float64) (*Table, shortGroup, error) {
	n := len(draws)
	kept := keptGroups(pl.q, keys)
	r := rowsPerDraw(kept, draws, size, boost)
	rd := pl.newReader(p.name, nil, nil)
	c := len(pl.cols)
	groups, order := newUnitGroups(pl, kept, n)
	taken := make([]int, n)   // rows taken per draw
	dropped := make([]int, n) // of them, with a missing value
	read, distinct := 0, 0
	plan := planUnitReads(pl, rng, units, r)
	distinct = len(units)
	err := p.readUnits(ctx, plan.reads, func(i int, o *pqOpen, curs []*pqCursor) error {
		k := plan.unitOf[i]
		u, label, want, cols := units[k], plan.labels[k], plan.wants[k], plan.reads[i].cols
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("dataset: %s: row group %d: %w", u.shard.path, u.rg, err)
		}
		next := 0 // the index in want of the row read
		return o.readFrom(ctx, pl, u.rg, u.start, want[len(want)-1]+1, want, rd, cols, curs, func(row pqRow) error {
			read++
			j := label[next]
			next++
			taken[j]++
			if row.missing {
				dropped[j]++
				return nil
			}
			g := groups[row.key]
			if g == nil {
				rd.other(row.key)
				return nil
			}
			g.hits[j]++
			g.rows = append(g.rows, unitRow{line: int(u.first + row.r + 1), draw: j, off: len(g.data)})
			g.data = append(g.data, rd.row...)
			return nil
		})
	})
	if err != nil {
		return nil, shortGroup{}, err
	}
	t := &rd.table
	t.Sampled, t.Draws, t.UnitDraws, t.Units, t.RowsRead = true, d, n, distinct, read
	t.DrawStrata = strata
	mean := func(x []float64) (float64, float64) { return drawMean(x, d, cluster, strata) }
	frac := make([]float64, n)
	N := float64(p.rows)
	for j := range frac {
		frac[j] = float64(dropped[j]) / float64(max(taken[j], 1))
	}
	dm, _ := mean(frac)
	t.Dropped = int(math.Round(N * dm))
	for _, g := range order {
		if len(g.rows) < size {
			what := "the table"
			if pl.gname != "" {
				what = "group " + quote(g.key)
			}
			return nil, shortGroup{what: what, rows: len(g.rows), whole: wholeUnits(units, r)}, nil
		}
		gr := Group{Key: g.key}
		gr.Rows, gr.RowsStdErr = p.groupRows(pl, g, draws, taken, mean)
		if len(g.rows) == 0 {
			continue
		}
		g.sample(&gr, rng, size, c, cluster)
		if rd.mixed != nil {
			rd.mixed.estimate(&gr, c)
		}
		t.Groups = append(t.Groups, gr)
	}
	if len(t.Groups) == 0 {
		return nil, shortGroup{}, &ParseError{File: p.name, Err: ErrNoRows, msg: "no data row left in the units drawn: all were dropped for nulls"}
	}
	rd.complete(t)
	return t, shortGroup{}, nil
}

// rowsPerDraw returns r, the rows takeRows takes per draw: boost·size/n
// over the n draws, or more so that the rarest kept group is expected to
// have groupMargin times size rows.
func rowsPerDraw(kept []string, draws []*pqUnit, size int, boost float64) int64 {
	r := int64(math.Ceil(boost * float64(size) / float64(len(draws))))
	for _, k := range kept {
		share := 0.0
		for _, u := range draws {
			share += float64(u.counts[k]) / float64(u.rows())
		}
		r = max(r, int64(math.Ceil(boost*groupMargin*float64(size)/share)))
	}
	return r
}

// newUnitGroups returns takeRows' groups by value, each with a count of
// hits for each of the n draws, and in order: the whole table's first when
// pl has no group column, then the kept groups.
func newUnitGroups(pl *pqPlan, kept []string, n int) (map[string]*unitGroup, []*unitGroup) {
	groups := make(map[string]*unitGroup)
	var order []*unitGroup
	if pl.gname == "" {
		g := &unitGroup{hits: make([]int, n)}
		groups[""] = g
		order = append(order, g)
	}
	for _, k := range kept {
		g := &unitGroup{key: k, hits: make([]int, n)}
		groups[k] = g
		order = append(order, g)
	}
	return groups, order
}

// unitReads is the plan of takeRows' second stage: the rows of each unit
// to read and the draw each goes to.
type unitReads struct {
	labels [][]int   // per unit: the draw of each row of wants
	wants  [][]int64 // per unit: the rows to read, in increasing order
	reads  []unitRead
	unitOf []int // the index in units of reads[i]
}

// planUnitReads draws the rows of each unit, r per draw that chose it (or
// every row), first, in the order of units, from rng; they are then read
// through readUnits.
func planUnitReads(pl *pqPlan, rng *rand.Rand, units []*pqUnit, r int64) *unitReads {
	plan := &unitReads{labels: make([][]int, len(units)), wants: make([][]int64, len(units))}
	for k, u := range units {
		m := min(int64(len(u.draws))*r, u.rows())
		pick := pickRows(rng, u.rows(), m)
		// The i-th row picked goes to draw u.draws[i/r]; the rows are
		// read in increasing order.
		byRow := make([]int, len(pick))
		for i := range byRow {
			byRow[i] = i
		}
		slices.SortFunc(byRow, func(a, b int) int { return cmp.Compare(pick[a], pick[b]) })
		label, want := make([]int, len(pick)), make([]int64, len(pick))
		for i, x := range byRow {
			label[i], want[i] = u.draws[int64(x)/r], u.start+pick[x]
		}
		plan.labels[k], plan.wants[k] = label, want
		if len(want) > 0 {
			plan.reads = append(plan.reads, unitRead{shard: u.shard, g: u.rg, cols: pl.readCols(u.shard, true),
				from: u.start, to: want[len(want)-1] + 1, useIndex: true})
			plan.unitOf = append(plan.unitOf, k)
		}
	}
	return plan
}

// drawMean returns the mean of x, a value per draw, and its standard
// error with the d row-group draws (cluster gives each draw's) as the
// observations: the variance of internal/summary (StrataVariance, in the
// strata strata) over the sums, per row-group draw, of (xⱼ − x̄)/n.
func drawMean(x []float64, d int, cluster, strata []int) (float64, float64) {
	m := 0.0
	for _, a := range x {
		m += a
	}
	m /= float64(len(x))
	e := summary.Centre(slices.Clone(x))
	z := make([]float64, d)
	summary.AddByCluster(z, e, cluster)
	return m, math.Sqrt(summary.StrataVariance(z, strata))
}

// groupRows returns the rows of the group g in the dataset and their
// standard error (0 for a count): a count when the dataset or its
// partition has them, otherwise an estimate, by mean (a mean over the
// draws and its standard error), from the draws' counts of the group or
// from the share of its rows among those taken per draw (taken).
func (p *Parquet) groupRows(pl *pqPlan, g *unitGroup, draws []*pqUnit, taken []int, mean func([]float64) (float64, float64)) (int, float64) {
	switch {
	case pl.gname == "" && !pl.q.DropMissing:
		return int(p.rows), 0
	case pl.byPart && !pl.q.DropMissing:
		return int(partRows(p, pl, g.key)), 0
	}
	frac := make([]float64, len(draws))
	for j, u := range draws {
		if pl.gname != "" && !pl.q.DropMissing {
			frac[j] = float64(u.counts[g.key]) / float64(u.rows())
		} else {
			frac[j] = float64(g.hits[j]) / float64(max(taken[j], 1))
		}
	}
	m, se := mean(frac)
	return int(math.Round(float64(p.rows) * m)), float64(p.rows) * se
}

// sample fills gr's rows from the group's: a uniform subsample of size of
// them drawn from rng when it has more, in the order of their lines, with
// c values each and the row-group draw (cluster) of each as its unit.
func (g *unitGroup) sample(gr *Group, rng *rand.Rand, size, c int, cluster []int) {
	rows := g.rows
	if len(rows) > size { // a uniform subsample of size of them
		for i := range size {
			k := i + rng.IntN(len(rows)-i)
			rows[i], rows[k] = rows[k], rows[i]
		}
		rows = rows[:size]
	}
	slices.SortFunc(rows, func(a, b unitRow) int { return cmp.Compare(a.line, b.line) })
	gr.Rows = max(gr.Rows, len(rows))
	gr.Data = make([]float64, 0, len(rows)*c)
	gr.Lines = make([]int, len(rows))
	gr.Units = make([]int, len(rows))
	for i, x := range rows {
		gr.Data = append(gr.Data, g.data[x.off:x.off+c]...)
		gr.Lines[i], gr.Units[i] = x.line, cluster[x.draw]
	}
}

// partRows returns the rows of the shards whose partition key is key.
func partRows(p *Parquet, pl *pqPlan, key string) int64 {
	var n int64
	for _, sh := range p.shards {
		if pl.shard[sh].part == key {
			for _, r := range sh.rgRows {
				n += r
			}
		}
	}
	return n
}

// wholeUnits reports whether r rows per draw take every row of every unit.
func wholeUnits(units []*pqUnit, r int64) bool {
	for _, u := range units {
		if int64(len(u.draws))*r < u.rows() {
			return false
		}
	}
	return true
}

// pickRows returns m distinct numbers of [0, n), uniformly at random, in
// random order.
func pickRows(rng *rand.Rand, n, m int64) []int64 {
	if m*4 > n { // a partial shuffle
		all := make([]int64, n)
		for i := range all {
			all[i] = int64(i)
		}
		for i := range m {
			k := i + rng.Int64N(n-i)
			all[i], all[k] = all[k], all[i]
		}
		return all[:m]
	}
	// Floyd's algorithm, then a shuffle.
	seen := make(map[int64]bool, m)
	out := make([]int64, 0, m)
	for i := n - m; i < n; i++ {
		x := rng.Int64N(i + 1)
		if seen[x] {
			x = i
		}
		seen[x] = true
		out = append(out, x)
	}
	rng.Shuffle(len(out), func(a, b int) { out[a], out[b] = out[b], out[a] })
	return out
}
