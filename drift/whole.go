// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// gridCuts bounds the cut points of a numeric column's Tally: the quantiles
// of the reference's sample at ranks i/(c+1), c = min(gridCuts, n/gridShare)
// for n present values in the sample (so that each bin holds gridShare of
// them). The binned Kolmogorov–Smirnov distance is the supremum over these
// points, within about 1/(c+1) of the exact D of every value, and a saved
// reference stores a count per bin whatever the rows.
const (
	gridCuts  = 1000
	gridShare = 20
)

// Tally holds the statistics of one column over every row of a data set
// that the comparison's sample stands for: counts of rows and missing
// values, running moments of the values and of their distances to a fixed
// centre, counts of the values between fixed cut points (numeric), or
// counts of the labels (categorical). One pass over the rows fills it at a
// cost of O(log cuts) per value and memory independent of the rows: it lets
// the location, scale, distribution-function and category tests use every
// row read while the kernel test stays on the sample (see WholeTest). Make
// the reference's by NewTally on its sample and the current table's by
// Tally.Like (or Reference.Tally), so that both count between the same cut
// points; feed them with Add or AddLabel.
type Tally struct {
	categorical bool
	// grid are the cut points (increasing, distinct); bins[i] counts the
	// present values in (grid[i−1], grid[i]], bins[len(grid)] those above
	// the last.
	grid   []float64
	index  *gridIndex // finds a value's bin among grid (shared by Like)
	bins   []int
	centre float64
	rows   int
	miss   int
	// Sums over the present values of their deviations d = x − centre,
	// of d² and of the distances |d|: the moments of the values and of the
	// distances (moments), without a division per value; with the centre
	// a median of the data, the sums lose no precision to cancellation.
	sum, sumSq, sumAbs float64
	labels             map[string]int
}

// NewTally returns an empty tally for the data set whose sample is col:
// for a numeric column, cut points at the quantiles of the sample's present
// values and its median as the centre of the scale test; for a categorical
// one, a count per label. The cut points and centre are a function of the
// sample's values alone.
func NewTally(col Column) *Tally {
	if col.Categories != nil {
		return &Tally{categorical: true, labels: map[string]int{}}
	}
	v := make([]float64, 0, len(col.Values))
	for _, x := range col.Values {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	slices.Sort(v)
	t := &Tally{}
	if len(v) > 0 {
		t.centre = v[len(v)/2]
		cuts := min(gridCuts, len(v)/gridShare)
		for i := 1; i <= cuts; i++ {
			x := v[min(len(v)-1, i*len(v)/(cuts+1))]
			if len(t.grid) == 0 || x > t.grid[len(t.grid)-1] {
				t.grid = append(t.grid, x)
			}
		}
	}
	t.bins = make([]int, len(t.grid)+1)
	t.index = newGridIndex(t.grid)
	return t
}

// Like returns an empty tally with t's cut points and centre, for the
// other table of a comparison.
func (t *Tally) Like() *Tally {
	if t.categorical {
		return &Tally{categorical: true, labels: map[string]int{}}
	}
	return &Tally{grid: t.grid, index: t.index, centre: t.centre, bins: make([]int, len(t.bins))}
}

// Add counts one row of a numeric column: its value, or NaN for a missing
// one.
func (t *Tally) Add(x float64) {
	t.rows++
	if math.IsNaN(x) {
		t.miss++
		return
	}
	d := x - t.centre
	t.sum += d
	t.sumSq += d * d
	t.sumAbs += math.Abs(d)
	t.bins[t.index.search(t.grid, x)]++
}

// gridIndex finds the bin of a value among a Tally's cut points in about
// one step: the range of the cut points is split into gridBuckets·(cuts)
// buckets of equal width, and first[b] is the least cut at or above the
// start of bucket b, so that a value's bin lies between first[b] and
// first[b+1] of its bucket b, a few cuts at most where the cuts are dense
// and one where they are not (a binary search among them either way).
type gridIndex struct {
	lo, scale float64 // bucket of x: ⌊(x − lo)·scale⌋
	first     []int32
}

// gridBuckets is the number of buckets per cut point of a gridIndex.
const gridBuckets = 4

// newGridIndex returns the index of the cut points grid (nil for fewer
// than two, or a range that float64 cannot divide).
func newGridIndex(grid []float64) *gridIndex {
	n := len(grid)
	if n < 2 {
		return nil
	}
	buckets := gridBuckets * n
	lo, hi := grid[0], grid[n-1]
	scale := float64(buckets) / (hi - lo)
	if !(scale > 0) || math.IsInf(scale, 0) || math.IsInf(hi-lo, 0) {
		return nil
	}
	g := &gridIndex{lo: lo, scale: scale, first: make([]int32, buckets+2)}
	i := 0
	for b := range g.first {
		start := lo + float64(b)/scale
		for i < n && grid[i] < start {
			i++
		}
		g.first[b] = int32(i)
	}
	return g
}

// search returns searchGrid(grid, x), the least i with grid[i] ≥ x.
func (g *gridIndex) search(grid []float64, x float64) int {
	if g == nil || !(x > grid[0]) || !(x <= grid[len(grid)-1]) {
		return searchGrid(grid, x)
	}
	b := int((x - g.lo) * g.scale)
	if b < 0 || b+1 >= len(g.first) {
		return searchGrid(grid, x)
	}
	i, j := int(g.first[b]), int(g.first[b+1])
	k := i + searchGrid(grid[i:j], x)
	// The bucket's bounds are rounded: check, and search the whole grid
	// in the rare case that x fell across one.
	if (k > 0 && !(grid[k-1] < x)) || (k < len(grid) && !(grid[k] >= x)) {
		return searchGrid(grid, x)
	}
	return k
}

// searchGrid returns the least i with grid[i] ≥ x (len(grid) when none),
// as sort.SearchFloat64s does, without a call per comparison.
func searchGrid(grid []float64, x float64) int {
	lo, n := 0, len(grid)
	for n > 0 {
		half := n / 2
		if grid[lo+half] < x {
			lo += half + 1
			n -= half + 1
		} else {
			n = half
		}
	}
	return lo
}

// moments returns the mean and the sum of squared deviations from it of
// the present values counted, and the same of their distances to the
// centre.
func (t *Tally) moments() (mean, m2, absMean, absM2 float64) {
	n := float64(t.present())
	if n == 0 {
		return 0, 0, 0, 0
	}
	mean, absMean = t.centre+t.sum/n, t.sumAbs/n
	return mean, max(0, t.sumSq-t.sum*t.sum/n), absMean, max(0, t.sumSq-t.sumAbs*t.sumAbs/n)
}

// setMoments sets the sums from moments' values (a saved tally).
func (t *Tally) setMoments(mean, m2, absMean float64) {
	n := float64(t.present())
	t.sum = (mean - t.centre) * n
	t.sumSq = m2 + t.sum*t.sum/max(n, 1)
	t.sumAbs = absMean * n
}

// AddLabel counts one row of a categorical column: its label, or "" for a
// missing one.
func (t *Tally) AddLabel(s string) { t.AddLabels(s, 1) }

// AddLabels counts n rows of a categorical column with the label s ("":
// missing).
func (t *Tally) AddLabels(s string, n int) {
	t.rows += n
	if s == "" {
		t.miss += n
		return
	}
	t.labels[s] += n
}

// Rows returns the rows counted and the missing values among them.
func (t *Tally) Rows() (rows, missing int) { return t.rows, t.miss }

// present is the number of present values counted.
func (t *Tally) present() int { return t.rows - t.miss }

// sameGrid reports whether u counts between t's cut points.
func (t *Tally) sameGrid(u *Tally) bool {
	return t.categorical == u.categorical && t.centre == u.centre && slices.Equal(t.grid, u.grid)
}

// tallyOf returns the tally of every value of col: its Whole when set
// (checked against the column's counts and like's cut points), otherwise
// one filled from its values (every row when the column is not a sample of
// a larger data set), with like's cut points or, when like is nil, those of
// the sample of the kept rows.
func tallyOf(c *Column, kept []int, like *Tally) (*Tally, error) {
	if w := c.Whole; w != nil {
		switch {
		case like != nil && !like.sameGrid(w):
			return nil, fmt.Errorf("%w: column %q: its Whole tally was not made by the reference's Tally (cut points differ)", ErrMismatch, c.Name)
		case w.categorical != (c.Categories != nil):
			return nil, fmt.Errorf("%w: column %q: its Whole tally is of the other kind", ErrColumn, c.Name)
		case w.rows < c.len():
			return nil, fmt.Errorf("%w: column %q: its Whole tally counts %d rows, fewer than the %d sampled", ErrColumn, c.Name, w.rows, c.len())
		}
		return w, nil
	}
	t := like
	if t == nil {
		sample := Column{Values: c.Values, Categories: c.Categories}
		if c.Values != nil && kept != nil {
			sample.Values = make([]float64, len(kept))
			for i, k := range kept {
				sample.Values[i] = c.Values[k]
			}
		}
		t = NewTally(sample)
	}
	t = t.Like()
	for _, x := range c.Values {
		t.Add(x)
	}
	for _, s := range c.Categories {
		t.AddLabel(s)
	}
	return t, nil
}

// WholeTest is the test of one column on every row its tallies counted
// (see Tally), beside the kernel test on the sample: for a numeric column,
// Welch's z-test of equal means, the same test on the distances to the
// reference sample's median (a Brown–Forsythe test of equal scales), and
// the Kolmogorov–Smirnov test at the tally's cut points (a binned D, whose
// asymptotic p-value is conservative); for a categorical column, Pearson's
// χ² test of equal label frequencies, labels expected fewer than 5 times
// pooled into one. Asymptotic p-values: the test runs only when a tally
// counts more values than the sample holds, thousands of them.
type WholeTest struct {
	// PresentRef and PresentCur are the present values counted.
	PresentRef, PresentCur int
	// MeanP, ScaleP and DistributionP are the p-values of the mean, scale
	// and distribution-function (KS; χ² for categories) tests; MeanP and
	// ScaleP are NaN for a categorical column.
	MeanP, ScaleP, DistributionP float64
	// KS is the binned Kolmogorov–Smirnov distance (NaN for a categorical
	// column).
	KS float64
	// PValue is the weighted Bonferroni combination of the three (see
	// wholeWeights): min(1, 2·MeanP, 4·ScaleP, 4·DistributionP); for a
	// categorical column, DistributionP.
	PValue float64
	// categorical marks the test of a categorical column's tallies.
	categorical bool
	// Shift and SDRatio are (mean_cur − mean_ref)/sd_ref and
	// sd_cur/sd_ref over every present value counted.
	Shift, SDRatio float64
}

// The weights of the weighted Bonferroni combinations of a numeric column
// (Holm 1979; Rosenthal and Rubin 1983): for p-values p_i of tests of one
// null hypothesis, each valid (P(p_i ≤ u) ≤ u under it), and fixed weights
// w_i > 0 with Σ w_i = 1, min_i p_i/w_i is a valid p-value whatever their
// dependence, since P(min_i p_i/w_i ≤ u) ≤ Σ_i P(p_i ≤ w_i·u) ≤ u. The
// weights are fixed before the data are seen. A column's four tests weigh
// sampleWeight for the kernel test on the sample, and (1 − sampleWeight)
// split as meanWeight : scaleWeight : distributionWeight among Welch's,
// Brown–Forsythe's and the binned KS on every row: overall 1/3, 1/3, 1/6,
// 1/6. The every-row tests see more rows than the sample, and where a
// tally covers many more, Welch's test is the most powerful of the four
// for a change of location (the commonest drift) and the kernel test the
// one for a change of shape; scale and distribution function keep the
// factor 6 of the earlier equal weights (3 × 2), the mean's falls from 6
// to 3, the kernel's rises from 2 to 3. WholeTest.PValue is the
// combination of its three tests alone, min(p_M/½, p_S/¼, p_D/¼), itself a
// valid p-value, and a column's p-value min(p_all/(1 − sampleWeight),
// p_sample/sampleWeight) is the four-way combination.
//
// A categorical column with a Whole test is judged by its χ² test on every
// row alone (weight 1): the kernel test of a categorical column is the
// relative Pearson divergence between label frequencies, a χ²-type
// statistic of the same hypothesis, on a sample of the same rows, so it
// adds no power that the χ² over every row lacks, only a factor of 2.
const (
	sampleWeight       = 1.0 / 3
	meanWeight         = 0.5
	scaleWeight        = 0.25
	distributionWeight = 0.25
)

// wholeTest runs the tests of the tallies ref and cur (counted between the
// same cut points).
func wholeTest(ref, cur *Tally) *WholeTest {
	w := &WholeTest{PresentRef: ref.present(), PresentCur: cur.present(), MeanP: math.NaN(), ScaleP: math.NaN(), KS: math.NaN(), Shift: math.NaN(), SDRatio: math.NaN()}
	if w.PresentRef < 2 || w.PresentCur < 2 {
		return nil
	}
	if ref.categorical {
		w.DistributionP = chiSquare(ref.labels, cur.labels)
		w.PValue, w.categorical = w.DistributionP, true
		return w
	}
	nr, nc := float64(w.PresentRef), float64(w.PresentCur)
	meanR, m2R, absR, absM2R := ref.moments()
	meanC, m2C, absC, absM2C := cur.moments()
	vr, vc := m2R/(nr-1), m2C/(nc-1)
	w.MeanP = welch(meanR, vr, nr, meanC, vc, nc)
	w.ScaleP = welch(absR, absM2R/(nr-1), nr, absC, absM2C/(nc-1), nc)
	if vr > 0 {
		w.Shift, w.SDRatio = (meanC-meanR)/math.Sqrt(vr), math.Sqrt(vc/vr)
	}
	var fr, fc float64
	w.KS = 0
	for i := range ref.bins {
		fr += float64(ref.bins[i]) / nr
		fc += float64(cur.bins[i]) / nc
		w.KS = math.Max(w.KS, math.Abs(fr-fc))
	}
	ne := math.Sqrt(nr * nc / (nr + nc))
	w.DistributionP = kolmogorovQ((ne + 0.12 + 0.11/ne) * w.KS)
	w.PValue = math.Min(1, min(w.MeanP/meanWeight, w.ScaleP/scaleWeight, w.DistributionP/distributionWeight))
	return w
}

// welch returns the two-sided p-value of Welch's z-test of equal means
// from the means, variances and counts of two samples: 1 when both
// variances are zero and the means equal, 0 when they differ.
func welch(m1, v1, n1, m2, v2, n2 float64) float64 {
	se := math.Sqrt(v1/n1 + v2/n2)
	if !(se > 0) {
		if m1 == m2 {
			return 1
		}
		return 0
	}
	return math.Erfc(math.Abs(m2-m1) / se / math.Sqrt2)
}

// kolmogorovQ returns P(K > x) for Kolmogorov's distribution,
// 2 Σ_{k≥1} (−1)^{k−1} e^{−2k²x²}.
func kolmogorovQ(x float64) float64 {
	if x < 0.2 {
		return 1
	}
	var s float64
	for k := 1; k <= 100; k++ {
		term := math.Exp(-2 * float64(k*k) * x * x)
		if k%2 == 0 {
			term = -term
		}
		s += term
		if math.Abs(term) < 1e-17*math.Abs(s) || term == 0 {
			break
		}
	}
	return math.Min(1, math.Max(0, 2*s))
}

// chiSquare returns the p-value of Pearson's χ² test of equal label
// frequencies between the counts ref and cur, labels whose expected count
// in either table is below 5 pooled into one cell (dropped when that cell
// stays below 5, and the totals are those of the cells kept): 1 with
// fewer than two cells.
func chiSquare(ref, cur map[string]int) float64 {
	labels := make([]string, 0, len(ref)+len(cur))
	var nr, nc float64
	for s, n := range ref {
		labels = append(labels, s)
		nr += float64(n)
	}
	for s, n := range cur {
		if _, ok := ref[s]; !ok {
			labels = append(labels, s)
		}
		nc += float64(n)
	}
	slices.Sort(labels)
	var cells [][2]float64
	var rest [2]float64
	small := func(c [2]float64) bool {
		t := c[0] + c[1]
		return t*nr/(nr+nc) < 5 || t*nc/(nr+nc) < 5
	}
	for _, s := range labels {
		c := [2]float64{float64(ref[s]), float64(cur[s])}
		if small(c) {
			rest[0], rest[1] = rest[0]+c[0], rest[1]+c[1]
			continue
		}
		cells = append(cells, c)
	}
	if rest[0]+rest[1] > 0 && !small(rest) {
		cells = append(cells, rest)
	}
	if len(cells) < 2 {
		return 1
	}
	nr, nc = 0, 0
	for _, c := range cells {
		nr, nc = nr+c[0], nc+c[1]
	}
	var x2 float64
	for _, c := range cells {
		t := c[0] + c[1]
		er, ec := t*nr/(nr+nc), t*nc/(nr+nc)
		x2 += (c[0]-er)*(c[0]-er)/er + (c[1]-ec)*(c[1]-ec)/ec
	}
	return distuv.ChiSquared{K: float64(len(cells) - 1)}.Survival(x2)
}
