// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/internal/isnil"
	"github.com/sublinear/pearson/internal/parallel"
	"github.com/sublinear/pearson/internal/radix"
	"github.com/sublinear/pearson/internal/resolve"
	"github.com/sublinear/pearson/internal/spread"
)

// Result is the outcome of a comparison of a current table with a reference.
type Result struct {
	// Columns holds one result per compared column, in the order of the
	// current table; Sorted orders them for display.
	Columns []ColumnResult
	// Joint compares the rows of all numeric columns together; nil with
	// Settings.NoJoint or fewer than two numeric columns. It is not one of
	// the adjusted tests and does not count towards Share.
	Joint *ColumnResult
	// Compared is the number of columns with at least one test; Drifted
	// the number of them that drifted; Share is Drifted/Compared.
	// BelowThreshold counts the significant columns that did not drift
	// because no significant test's divergence exceeded Threshold.
	Compared, Drifted, BelowThreshold int
	Share                             float64
	// Unjudged counts the columns with no test at all (see
	// ColumnResult.Note): too few values to compare, in either table.
	Unjudged int
	// Drift is the verdict: Share ≥ DriftShare (and Compared > 0).
	Drift bool
	// Level, Threshold, DriftShare and Adjust are the settings the
	// verdict used.
	Level, Threshold, DriftShare float64
	Adjust                       Adjustment
	// Permutations is the number of permutations of a column that may
	// drift (see Settings.Permutations).
	Permutations int
	// JointScales says how the joint row scaled each numeric column (see
	// Scale; JointScaling says it in words); nil without a joint row.
	JointScales []Scale
	// Absent names the reference's columns the current table lacks;
	// Unknown the current columns the reference lacks. Neither is compared.
	Absent, Unknown []string
}

// ColumnResult compares one column of the current table with the reference.
type ColumnResult struct {
	// Name and Kind identify the column.
	Name string
	Kind Kind
	// Divergence is the estimate of PE_½(current‖reference) between the
	// distributions of the present values, StdErr its standard error: the
	// spread of the estimator's draws at the σ and λ cross-validated once
	// for the column, with the data's sampling error (zero for categorical
	// columns, whose divergence has a closed form).
	Divergence, StdErr float64
	// PValue is the p-value of equal distributions: SamplePValue, or, with
	// a Whole test, their weighted Bonferroni combination min(1,
	// 1.5·Whole.PValue, 3·SamplePValue) for a numeric column (see
	// sampleWeight), and Whole.PValue for a categorical one; QValue the
	// adjusted one. NaN when the column could
	// not be tested (see Note).
	PValue, QValue float64
	// SamplePValue is the permutation p-value on the sample,
	// (1 + #{T_b ≥ T})/(1 + Permutations) (or the sequential one, see
	// Settings.Exceedances); 1, with no permutation run, when the Whole
	// test decides PValue whatever the permutations give (a categorical
	// column, or a numeric one whose 1.5·Whole.PValue is below 3/(1 +
	// Permutations), the least the sample's term could reach).
	SamplePValue float64
	// Whole is the test on every row the tallies counted (see Tally): nil
	// unless a tally counts more present values than the sample holds, in
	// either table. Its tests of location, scale, distribution function
	// and category frequencies gain power with every row read, while the
	// kernel test, for changes of shape, stays on the sample.
	Whole *WholeTest
	// Permutations is the number of permutations behind PValue.
	Permutations int
	// MissingRef and MissingCur are the shares of missing values.
	MissingRef, MissingCur float64
	// MissingDivergence is PE_½ between the missing indicators, and
	// MissingPValue the p-value of Fisher's exact test of equal shares,
	// MissingQValue the adjusted one; the p-values are NaN when neither
	// table has a missing value.
	MissingDivergence, MissingPValue, MissingQValue float64
	// Drifted reports that the distribution drifted (QValue < Level and
	// Divergence > Threshold) or the missing share did (MissingQValue <
	// Level and MissingDivergence > Threshold); Rule names the tests that
	// fired ("values", "missing share", or both, comma-separated).
	Drifted bool
	Rule    string
	// BelowThreshold reports a column with a q-value below Level whose
	// divergence is not above Threshold: significant, below the effect
	// threshold, and not drifted.
	BelowThreshold bool
	// Shift and SDRatio are the effect of a numeric column in units of the
	// reference: (mean_cur − mean_ref)/sd_ref and sd_cur/sd_ref over the
	// present values; NaN for categorical columns. TotalVariation is
	// ½ Σ_c |p_cur(c) − p_ref(c)| between the category (or, for a column
	// compared by value frequencies, value) frequencies: the share of the
	// mass that moved; NaN for numeric columns compared by the kernel test.
	// For the joint row, Shift is the Mahalanobis distance between the
	// means of the standardised columns (divergence.TwoSampleResult's
	// MeanShift).
	Shift, SDRatio, TotalVariation float64
	// Wasserstein is the effect size of a change of shape of a numeric
	// column: the Wasserstein (earth mover's) distance ∫|F_cur − F_ref|
	// between the distributions of the present values, in reference
	// standard deviations; it is |Shift| for a pure shift and about
	// 0.8·|SDRatio − 1| for a pure change of scale of a normal column, and
	// is not zero when both are (a change of shape at equal mean and sd).
	// NaN for categorical columns and the joint row.
	Wasserstein float64
	// RowsRef and RowsCur are the rows of the data sets; SampledRef and
	// SampledCur the present values compared.
	RowsRef, RowsCur, SampledRef, SampledCur int
	// Test is the two-sample test of a numeric column (nil otherwise, and
	// when its permutations were not run: see SamplePValue).
	Test *divergence.TwoSampleResult
	// Ref and Cur are the distributions of the present values, for plots.
	Ref, Cur Distribution
	// Note explains a column that could not be tested as the others.
	Note string
}

// Compare compares a current table with a reference table, column by
// column: it is NewReference(ref, s) followed by Reference.Compare.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func Compare(ctx context.Context, ref, cur []Column, s *Settings) (*Result, error) {
	isnil.Context(ctx, "drift.Compare")
	r, err := NewReference(ref, s)
	if err != nil {
		return nil, err
	}
	return r.Compare(ctx, cur, s)
}

// Compare compares the current table cur with the reference. Every column of
// cur that the reference has is compared on its own, current as the
// numerator P and reference as Q:
//
//   - numeric columns on the present values (each sample a
//     divergence.Subsample of its data set's present rows): the estimate
//     PE_½ of divergence.RelativePE with its standard error, σ and λ
//     cross-validated once and held for the draws, and the exact
//     permutation p-value of divergence.SequentialTwoSampleTest, whose
//     permutations stop early for a column far from significance (see
//     Settings.Exceedances);
//   - categorical columns by the closed form of PE_½ between their category
//     frequencies, with an exact permutation p-value;
//   - columns with missing values also by their missing shares (see
//     ColumnResult.MissingDivergence).
//
// A numeric column whose p-value's Monte Carlo interval straddles the
// adjustment's cut gets more permutations (Settings.SettlePermutations).
// The p-values of all these tests are adjusted together (Settings.Adjust);
// a column drifts when a test's q-value is below Level and its divergence
// above Threshold. The data set drifts when the share of drifted columns
// reaches DriftShare. The joint row tests the rows of all numeric columns at
// once, each scaled robustly by its median and median absolute deviation
// over both tables (see Scale), on the rows where none is missing.
//
// A column the estimator cannot handle (one value only in both tables, or
// fewer than two present values) gets a Note instead of stopping the
// comparison; numeric columns whose values are mostly one value are compared
// by their value frequencies, as categorical ones. s may be nil.
// A nil reference is an error, not a panic.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func (r *Reference) Compare(ctx context.Context, cur []Column, s *Settings) (*Result, error) {
	isnil.Context(ctx, "drift.Reference.Compare")
	if r == nil {
		return nil, errors.New("drift: Compare: the reference is nil")
	}
	prm, err := s.resolve()
	if err != nil {
		return nil, err
	}
	byName := make(map[string]*table, len(r.cols))
	for _, c := range r.cols {
		byName[c.name] = c
	}
	ct, err := newTables(cur, prm.sampleRows, byName)
	if err != nil {
		return nil, err
	}
	res := &Result{Level: prm.level, Threshold: prm.threshold, DriftShare: prm.driftShare, Adjust: prm.adjust}
	pairs, err := r.pairs(ct, byName, res)
	if err != nil {
		return nil, err
	}
	// With a Whole test, a numeric column's p-value is three times its
	// sample's at best: counting each column twice, the permutations keep
	// the smallest, 3/(1 + 4n/Level), below the adjustment's least cut
	// Level/n (3/4 of it).
	tests := len(pairs)
	for _, p := range pairs {
		if wholeData(p.ref, p.cur) {
			tests = 2 * len(pairs)
			break
		}
	}
	prm.forColumns(tests)
	res.Permutations = prm.permutations

	// The joint row, first because it is the longest job.
	var jointRef, jointCur mat.Matrix
	if !prm.noJoint {
		var refs, curs []*table
		for _, p := range pairs {
			if p.ref.kind == Numeric {
				refs, curs = append(refs, p.ref), append(curs, p.cur)
			}
		}
		jointRef, jointCur, res.JointScales = joint(refs, curs)
	}
	jobs := len(pairs)
	if jointRef != nil {
		jobs++
	}
	rnd := rand.New(prm.est.Src)
	if prm.est.Src == nil {
		rnd = rand.New(rand.NewPCG(1, 2))
	}
	seeds := make([][2]uint64, jobs)
	for i := range seeds {
		seeds[i] = [2]uint64{rnd.Uint64(), rnd.Uint64()}
	}
	cols := make([]ColumnResult, len(pairs))
	var jointRes ColumnResult
	errs := make([]error, jobs)
	var mu sync.Mutex
	done := 0
	parallel.For(jobs, parallel.Workers(prm.est.Workers), func(i int) {
		if err := ctx.Err(); err != nil {
			errs[i] = err
			return
		}
		rnd := rand.New(rand.NewPCG(seeds[i][0], seeds[i][1]))
		switch {
		case jointRef != nil && i == 0:
			jointRes, errs[i] = compareJoint(ctx, jointRef, jointCur, prm, rnd)
		default:
			j := i
			if jointRef != nil {
				j--
			}
			cols[j], errs[i] = compareColumn(ctx, pairs[j].ref, pairs[j].cur, prm, rnd)
		}
		if prm.est.Progress != nil {
			mu.Lock()
			done++
			prm.est.Progress(done, jobs)
			mu.Unlock()
		}
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	res.Columns = cols
	if b := prm.settlePermutations; b > 0 {
		if err := res.settle(ctx, prm.est.Workers, b); err != nil {
			return nil, err
		}
	}
	if jointRef == nil {
		res.JointScales = nil
	} else {
		jointRes.QValue = jointRes.PValue
		jointRes.applyRule(res.Level, res.Threshold)
		res.Joint = &jointRes
	}
	res.verdict()
	return res, nil
}

// pair is a column of the reference and the current table's of its name.
type pair struct{ ref, cur *table }

// pairs pairs the current table's columns ct with the reference's byName
// (the same columns), listing in res those that only one of them has.
func (r *Reference) pairs(ct []*table, byName map[string]*table, res *Result) ([]pair, error) {
	var pairs []pair
	inCur := make(map[string]bool, len(ct))
	for _, c := range ct {
		inCur[c.name] = true
		rc := byName[c.name]
		if rc == nil {
			res.Unknown = append(res.Unknown, c.name)
			continue
		}
		if rc.kind != c.kind {
			return nil, fmt.Errorf("%w: column %q is %v in the reference, %v in the current table", ErrMismatch, c.name, rc.kind, c.kind)
		}
		pairs = append(pairs, pair{rc, c})
	}
	for _, c := range r.cols {
		if !inCur[c.name] {
			res.Absent = append(res.Absent, c.name)
		}
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("%w: no column of the current table is in the reference", ErrNoColumns)
	}
	return pairs, nil
}

// verdict adjusts the p-values of every test together and decides which
// columns drifted, and whether the data set did.
func (res *Result) verdict() {
	n := len(res.Columns)
	p := make([]float64, 2*n)
	for i, c := range res.Columns {
		p[i], p[n+i] = c.PValue, c.MissingPValue
	}
	q := adjust(p, res.Adjust)
	for i := range res.Columns {
		c := &res.Columns[i]
		c.QValue, c.MissingQValue = q[i], q[n+i]
		c.applyRule(res.Level, res.Threshold)
		if !c.Judged() {
			res.Unjudged++
		} else {
			res.Compared++
			if c.Drifted {
				res.Drifted++
			}
			if c.BelowThreshold {
				res.BelowThreshold++
			}
		}
	}
	if res.Compared > 0 {
		res.Share = float64(res.Drifted) / float64(res.Compared)
		res.Drift = res.Share >= res.DriftShare
	}
}

// applyRule decides from the q-values whether the column drifted, which
// tests fired, and whether it is significant below the threshold.
func (c *ColumnResult) applyRule(level, threshold float64) {
	values, missing := c.QValue < level, c.MissingQValue < level
	var fired []string
	if values && c.Divergence > threshold {
		fired = append(fired, "values")
	}
	if missing && c.MissingDivergence > threshold {
		fired = append(fired, "missing share")
	}
	c.Drifted = len(fired) > 0
	c.Rule = strings.Join(fired, ", ")
	c.BelowThreshold = !c.Drifted && (values || missing)
}

// Summary says what happened in one sentence: how many columns drifted
// and by which rule, how many are significant below the effect threshold,
// and whether the share of drifted columns reaches DriftShare, for example
// "4 of 21 columns drifted (q < 0.05 by bh, no effect threshold); the data
// set is below the drift share 0.5 (share 0.19)".
func (res *Result) Summary() string {
	rule := fmt.Sprintf("q < %s by %s, ", fmtG(res.Level), res.Adjust)
	if math.IsInf(res.Threshold, -1) {
		rule += "no effect threshold"
	} else {
		rule += "divergence PE_½ > " + fmtG(res.Threshold)
	}
	out := fmt.Sprintf("%d of %d columns drifted (%s)", res.Drifted, res.Compared, rule)
	if res.BelowThreshold > 0 {
		out += fmt.Sprintf("; %d more significant, below the effect threshold", res.BelowThreshold)
	}
	if res.Drift {
		out += fmt.Sprintf("; the data set drifted: share %s reaches the drift share %s", fmtG(res.Share), fmtG(res.DriftShare))
	} else {
		out += fmt.Sprintf("; the data set is below the drift share %s (share %s)", fmtG(res.DriftShare), fmtG(res.Share))
	}
	if j := res.Joint; j != nil && j.Drifted {
		out += "; the joint distribution of the numeric columns drifted"
	}
	if res.Unjudged > 0 {
		out += fmt.Sprintf("; %d more cannot be judged (too few values, see the notes)", res.Unjudged)
	}
	return out
}

func fmtG(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// moments returns the mean and standard deviation of v.
func moments(v []float64) (mean, sd float64) {
	var m, ss float64
	for i, x := range v {
		d := x - m
		m += d / float64(i+1)
		ss += d * (x - m)
	}
	if len(v) < 2 {
		return m, math.NaN()
	}
	return m, math.Sqrt(ss / float64(len(v)-1))
}

// shiftEffect returns the shift and spread ratio of cur in units of the
// reference's mean mr and standard deviation sr.
func shiftEffect(mr, sr float64, cur []float64) (shift, ratio float64) {
	mc, sc := moments(cur)
	if !(sr > 0) {
		return math.NaN(), math.NaN()
	}
	return (mc - mr) / sr, sc / sr
}

// wasserstein returns ∫|F_cur − F_ref| between the empirical
// distributions of ref and cur over the reference's standard deviation
// (NaN when it is not positive).
func wasserstein(ref, cur []float64) float64 {
	_, sd := moments(ref)
	return wassersteinSorted(sorted(ref), sorted(cur), sd)
}

// wassersteinSorted is wasserstein of the sorted values a (the
// reference's, of standard deviation sd) and b.
func wassersteinSorted(a, b []float64, sd float64) float64 {
	if !(sd > 0) || len(b) == 0 {
		return math.NaN()
	}
	var w, fa, fb float64
	i, j := 0, 0
	x := math.Min(a[0], b[0])
	for i < len(a) || j < len(b) {
		next := math.Inf(1)
		if i < len(a) {
			next = a[i]
		}
		if j < len(b) {
			next = math.Min(next, b[j])
		}
		w += math.Abs(fa-fb) * (next - x)
		x = next
		for i < len(a) && a[i] == x {
			i++
		}
		for j < len(b) && b[j] == x {
			j++
		}
		fa, fb = float64(i)/float64(len(a)), float64(j)/float64(len(b))
	}
	return w / sd
}

// totalVariation returns ½ Σ_c |p(c) − q(c)| between the frequencies of
// the codes ref and cur (−1: missing, left out) over ncat categories.
func totalVariation(ref, cur []int32, ncat int) float64 {
	count := func(codes []int32) ([]float64, float64) {
		c, n := make([]float64, ncat), 0.0
		for _, x := range codes {
			if x >= 0 {
				c[x]++
				n++
			}
		}
		return c, n
	}
	cr, nr := count(ref)
	cc, nc := count(cur)
	if nr == 0 || nc == 0 {
		return math.NaN()
	}
	tv := 0.0
	for i := range cr {
		tv += math.Abs(cc[i]/nc - cr[i]/nr)
	}
	return tv / 2
}

// sorted returns a sorted copy of v (by radix.Floats: slices.Sort's order,
// in linear time).
func sorted(v []float64) []float64 {
	s := slices.Clone(v)
	radix.Floats(s)
	return s
}

// compareColumn runs the tests of one column.
func compareColumn(ctx context.Context, ref, cur *table, s *params, rnd *rand.Rand) (c ColumnResult, err error) {
	c = ColumnResult{
		Name: cur.name, Kind: cur.kind,
		Divergence: math.NaN(), StdErr: math.NaN(), PValue: math.NaN(), SamplePValue: math.NaN(),
		MissingRef: ref.missingShare(), MissingCur: cur.missingShare(),
		MissingPValue: math.NaN(),
		Shift:         math.NaN(), SDRatio: math.NaN(), TotalVariation: math.NaN(), Wasserstein: math.NaN(),
		RowsRef: ref.rows, RowsCur: cur.rows,
		SampledRef: ref.presentCount(), SampledCur: cur.presentCount(),
	}
	if ref.missing > 0 || cur.missing > 0 {
		c.MissingDivergence, c.MissingPValue = missingTest(cur.missing, cur.rows, ref.missing, ref.rows)
	}
	if c.SampledRef < 2 || c.SampledCur < 2 {
		c.Note = "too few present values to compare the distributions"
		return c, nil
	}
	if wholeData(ref, cur) {
		c.Whole = wholeTest(ref.whole, cur.whole)
	}
	defer c.combine() // on the named result
	if cur.kind == Categorical {
		return c, compareCategories(ctx, &c, ref.codes, cur.codes, cur.cats, s, rnd)
	}
	rv, cv := ref.present(), cur.present()
	sr, sc := sorted(rv), sorted(cv)
	c.Ref, c.Cur = histograms(rv, cv, mergeSorted(sr, sc))
	mr, sdr := moments(rv)
	c.Shift, c.SDRatio = shiftEffect(mr, sdr, cv)
	if c.Whole != nil && !math.IsNaN(c.Whole.Shift) {
		c.Shift, c.SDRatio = c.Whole.Shift, c.Whole.SDRatio
	}
	c.Wasserstein = wassersteinSorted(sr, sc, sdr)
	b := s.permutations
	if c.wholeDecides(max(b, s.settlePermutations)) {
		b = 0
	}
	test, err := twoStage(ctx,
		divergence.Subsample{Matrix: divergence.Column(cv), Rows: cur.presentRows()},
		divergence.Subsample{Matrix: divergence.Column(rv), Rows: ref.presentRows()}, s, s.columnK, b, s.columnPoints, rnd)
	if errors.Is(err, divergence.ErrConstant) {
		// Too many ties for a kernel width: the values are categories.
		c.Note = "most values are equal: compared by value frequencies"
		codes, cats := valueCodes(rv, cv)
		err = compareCategories(ctx, &c, codes[:len(rv)], codes[len(rv):], cats, s, rnd)
		c.Kind = Numeric
		return c, err
	}
	if errors.Is(err, divergence.ErrTooFew) {
		// A table of a few rows: the estimate's cross-validation cannot
		// split them; say so rather than advise on folds.
		c.Note = tooFew(c.SampledCur, c.SampledRef, s)
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("drift: column %q: %w", cur.name, err)
	}
	c.Divergence, c.StdErr = test.PE.PE, test.PE.StdErr
	if b == 0 {
		c.SamplePValue = 1 // not run: the Whole test decides (wholeDecides)
		return c, nil
	}
	c.Test = test
	c.SamplePValue, c.Permutations = test.PValue, test.Permutations
	return c, nil
}

// wholeDecides reports whether c's Whole test alone decides its p-value
// whatever the sample's permutation test, run with at most b permutations,
// would give: a categorical column's p-value is Whole.PValue; a numeric
// one's sample term, at least 1/(b+1) over sampleWeight, cannot fall below
// Whole.PValue/(1 − sampleWeight), so that the combination is the latter.
// The permutations are then not run (SamplePValue 1, no Test), a saving of
// b permutations on a column that drifts beyond doubt on every row, with
// the same PValue.
func (c *ColumnResult) wholeDecides(b int) bool {
	if c.Whole == nil {
		return false
	}
	return c.Whole.categorical || c.Whole.PValue/(1-sampleWeight) <= 1/(float64(b+1)*sampleWeight)
}

// wholeData reports whether a column has a Whole test: the tallies of both
// tables count more present values than the sample holds, in either.
func wholeData(ref, cur *table) bool {
	return ref.whole != nil && cur.whole != nil && ref.whole.categorical == cur.whole.categorical &&
		(ref.whole.present() > ref.presentCount() || cur.whole.present() > cur.presentCount())
}

// combine sets PValue from SamplePValue and the Whole test (see PValue).
func (c *ColumnResult) combine() { c.PValue = c.withWhole(c.SamplePValue) }

// withWhole returns the column's p-value were its sample's p-value p: p
// without a Whole test, NaN when p is, Whole.PValue for a categorical
// column, otherwise the weighted Bonferroni combination min(1,
// Whole.PValue/(1 − sampleWeight), p/sampleWeight).
func (c *ColumnResult) withWhole(p float64) float64 {
	switch {
	case c.Whole == nil || math.IsNaN(p):
		return p
	case c.Whole.categorical:
		return c.Whole.PValue
	}
	return math.Min(1, math.Min(c.Whole.PValue/(1-sampleWeight), p/sampleWeight))
}

// compareCategories fills the divergence, p-value and distributions of a
// column compared by its category frequencies.
func compareCategories(ctx context.Context, c *ColumnResult, ref, cur []int32, cats []string, s *params, rnd *rand.Rand) error {
	b := s.permutations
	if c.wholeDecides(b) {
		b = 0 // not run: the Whole test decides (SamplePValue 1)
	}
	pe, p, err := categoricalTest(ctx, cur, ref, len(cats), b, rnd)
	if err != nil {
		return err
	}
	c.Divergence, c.StdErr, c.SamplePValue, c.Permutations = pe, 0, p, b
	c.TotalVariation = totalVariation(ref, cur, len(cats))
	c.Ref, c.Cur = bars(ref, cur, cats)
	return nil
}

// tooFew is the note of a column with too few present values for the
// estimate's cross-validation: a table of a few rows.
func tooFew(cur, ref int, s *params) string {
	return fmt.Sprintf("cannot judge: %d present values in the current table and %d in the reference, too few to estimate the divergence by %d-fold cross-validation (it needs about twice as many in each)",
		cur, ref, resolve.OrDefault(s.est.Folds, divergence.DefaultFolds))
}

// valueCodes codes the values of ref followed by cur as categories.
func valueCodes(ref, cur []float64) ([]int32, []string) {
	dict := map[float64]int32{}
	var cats []string
	codes := make([]int32, 0, len(ref)+len(cur))
	for _, v := range append(append([]float64(nil), ref...), cur...) {
		code, ok := dict[v]
		if !ok {
			code = int32(len(cats))
			dict[v] = code
			cats = append(cats, strconv.FormatFloat(v, 'g', -1, 64))
		}
		codes = append(codes, code)
	}
	return codes, cats
}

// twoStage estimates PE_½(p‖q) by divergence.RelativePE with the
// estimator's settings at k centres (Settings.ColumnK's rule for a column,
// K for the joint row), and tests p = q by
// divergence.SequentialTwoSampleTest with b permutations that stop at the
// Settings.Exceedances-th exceedance, averaging over testM points (zero:
// divergence.TwoSamplePoints' rule): a column far from significance stops
// after about h/p permutations, one that may drift runs all b, and the
// p-value stays valid (Besag and Clifford 1991). The test's statistic does
// not use the estimate (its kernel widths are the median heuristic's, its
// regularisation fixed), so the estimate is computed once, beside it.
func twoStage(ctx context.Context, p, q mat.Matrix, s *params, k, b, testM int, rnd *rand.Rand) (*divergence.TwoSampleResult, error) {
	pe, err := estimate(ctx, p, q, s, k, rnd)
	if err != nil {
		return nil, err
	}
	if b == 0 { // the permutations are not needed (ColumnResult.SamplePValue)
		return &divergence.TwoSampleResult{PE: pe}, nil
	}
	ts := divergence.TwoSampleSettings{PESettings: divergence.PESettings{Settings: s.est}, Permutations: b}
	ts.Points = testM
	ts.Workers, ts.Progress = 1, nil
	ts.Src = rand.NewPCG(rnd.Uint64(), rnd.Uint64())
	res, err := divergence.SequentialTwoSampleTest(ctx, p, q, Alpha, &ts, s.exceedances)
	if err != nil {
		return nil, err
	}
	res.PE = pe
	return res, nil
}

// tuneShare is the share of the averaging budget M with which estimate
// cross-validates σ and λ (a quarter, as RelativePE's draws once did), but over
// at least tuneMinM points (or M, if smaller): the one tuning serves every
// draw, and with fewer points its choice varies enough to pull a small
// estimate below the threshold.
//
// tuneKShare is the share of the centres K with which it cross-validates
// (at least tuneMinK, or K if smaller): the Cholesky factorisations of the
// search cost K³, and the σ and λ it chooses, scaled to the all-centre λ,
// serve the estimate at K as well. Measured on one column of 10⁴ rows per
// sample (12 seeds; a 0.1-sd and 0.5-sd shift, sd × 1.2, normal against
// Laplace and against a bimodal mixture, truths by quadrature), tuning at
// K/2 halved the estimate's CPU (195 to 105 ms) with root mean square
// errors within ±40% of those of tuning at K, in both directions, which is
// the spread of the measurement itself (docs/RESULTS.md, "drift").
const (
	tuneShare  = 4
	tuneMinM   = 1000
	tuneKShare = 2
	tuneMinK   = 20
)

// estimate returns divergence.RelativePE(p, q) with the estimator's
// settings at k centres, except that σ and λ, unless fixed, are cross-validated once, by
// a first draw averaging over M/tuneShare points (see tuneMinM) with
// K/tuneKShare centres, and held for the draws of
// the estimate, instead of RelativePE's tuning with several draws (one
// search over the whole budget, then each draw's search among that
// choice's neighbours, also on the whole budget): the cross-validation is
// the costly part of the estimate, and this one costs a fraction of that.
// The standard
// error is the spread of draws at the tuned σ and λ, with the sampling error
// and the regularisation's bias allowance as RelativePE computes them; it
// leaves out the variability of the tuning itself. The tuning's
// cross-validation table and warnings are reported with the estimate.
func estimate(ctx context.Context, p, q mat.Matrix, s *params, k int, rnd *rand.Rand) (*divergence.PEResult, error) {
	es := divergence.PESettings{Settings: s.est}
	es.Workers, es.Progress, es.K = 1, nil, k
	var tuned *divergence.PEResult
	if !es.Exact && es.Lambda == 0 && resolve.OrDefault(es.Draws, divergence.DefaultDraws) > 1 {
		ts := es
		m := resolve.OrDefault(es.M, divergence.DefaultM)
		ts.Draws, ts.M = 1, max(min(m, tuneMinM), m/tuneShare)
		k := resolve.OrDefault(es.K, divergence.DefaultK)
		ts.K = max(min(k, tuneMinK), k/tuneKShare)
		ts.Src = rand.NewPCG(rnd.Uint64(), rnd.Uint64())
		var err error
		if tuned, err = divergence.TunePE(ctx, p, q, Alpha, &ts); err != nil {
			return nil, err
		}
		if tuned.Sigma < 0x1p-1022 || tuned.Sigma > math.MaxFloat64 {
			// Data at the extremes of float64 (subnormal values) give a
			// width that no setting may hold: each draw tunes its own.
			tuned = nil
		} else {
			es.Sigma, es.Lambda = tuned.Sigma, tuned.Lambda
		}
	}
	es.Src = rand.NewPCG(rnd.Uint64(), rnd.Uint64())
	pe, err := divergence.RelativePE(ctx, p, q, Alpha, &es)
	if err != nil || tuned == nil {
		return pe, err
	}
	pe.CV = tuned.CV
	pe.Warnings = append(tuned.Warnings, pe.Warnings...)
	return pe, nil
}

// compareJoint compares the joint distribution of the numeric columns.
func compareJoint(ctx context.Context, ref, cur mat.Matrix, s *params, rnd *rand.Rand) (ColumnResult, error) {
	nr, _ := ref.Dims()
	nc, _ := cur.Dims()
	c := ColumnResult{Name: JointName, Kind: Numeric, Divergence: math.NaN(), StdErr: math.NaN(), PValue: math.NaN(), SamplePValue: math.NaN(),
		MissingPValue: math.NaN(), MissingQValue: math.NaN(), SampledRef: nr, SampledCur: nc,
		Shift: math.NaN(), SDRatio: math.NaN(), TotalVariation: math.NaN(), Wasserstein: math.NaN()}
	if sr, ok := ref.(divergence.Subsample); ok {
		c.RowsRef = sr.Rows
	}
	if sc, ok := cur.(divergence.Subsample); ok {
		c.RowsCur = sc.Rows
	}
	if nr < 2 || nc < 2 {
		c.Note = "too few rows without missing values"
		return c, nil
	}
	test, err := twoStage(ctx, cur, ref, s, s.jointK, s.jointPermutations, s.jointPoints, rnd)
	if errors.Is(err, divergence.ErrTooFew) {
		c.Note = tooFew(nc, nr, s)
		return c, nil
	}
	if errors.Is(err, divergence.ErrConstant) {
		c.Note = err.Error()
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("drift: joint row: %w", err)
	}
	c.Test = test
	c.Divergence, c.StdErr = test.PE.PE, test.PE.StdErr
	c.PValue, c.SamplePValue, c.Permutations = test.PValue, test.PValue, test.Permutations
	c.Shift = test.MeanShift // the Mahalanobis distance of the means
	return c, nil
}

// Scale is how the joint row put one numeric column on a unit scale:
// x ↦ (x − Centre)/Spread, Centre and Spread in the column's units, from
// the present values of both tables pooled (spread.Of): the median and
// 1.4826 times the median absolute deviation, or by the fallback Rule
// names.
type Scale struct {
	Name           string
	Centre, Spread float64
	// Rule is "mad" (1.4826·MAD), "iqr" (MAD 0: IQR/1.349), "sd" (MAD and
	// IQR 0: the root mean square deviation from the median) or "const"
	// (one value in both tables: the column is left out of the joint row).
	Rule string
}

// JointScaling says in words how the joint row scaled its columns, as
// outputs print it: "each column scaled by (x − median)/(1.4826·MAD) over
// both tables", naming the columns scaled otherwise or left out; "" without
// a joint row.
func (res *Result) JointScaling() string {
	if len(res.JointScales) == 0 {
		return ""
	}
	out := "each column scaled by " + spread.Formula + " over both tables"
	for _, c := range res.JointScales {
		switch r := spread.Rule(c.Rule); {
		case r == spread.Constant:
			out += fmt.Sprintf("; %q: constant, left out", c.Name)
		case r.Fallback() != "":
			out += fmt.Sprintf("; %q: %s", c.Name, r.Fallback())
		}
	}
	return out
}

// joint returns the rows of the numeric columns where none is missing,
// each column scaled robustly (spread.Of: median and 1.4826·MAD, with its
// fallbacks) over the present values of both tables pooled, and the
// scales; columns constant over both tables are left out. Scaled so, one
// outlier cannot shrink a column to nothing in the kernel (as the
// standard deviation would), a column in dollars does not swamp one in
// years, and the scales are the same whichever rows are labelled
// reference: the permutation test's p-value stays exact. Each sample is a
// Subsample of the data set's rows, estimated by the share of complete
// rows in the sample. It returns nil matrices for fewer than two columns
// kept.
func joint(refs, curs []*table) (ref, cur mat.Matrix, scales []Scale) {
	var keep []int
	var kept []spread.Scale
	for j, t := range refs {
		v := append(t.present(), curs[j].present()...)
		if len(v) == 0 {
			continue
		}
		sc := spread.Of(v)
		scales = append(scales, Scale{Name: t.name, Centre: sc.Centre * sc.Pow2, Spread: sc.Units(), Rule: string(sc.Rule)})
		if sc.Rule == spread.Constant {
			continue
		}
		keep, kept = append(keep, j), append(kept, sc)
	}
	if len(keep) < 2 {
		return nil, nil, scales
	}
	rows := func(ts []*table) mat.Matrix {
		n := ts[keep[0]].len()
		data := make([]float64, 0, n*len(keep))
		complete := 0
		row := make([]float64, len(keep))
	next:
		for i := range n {
			for k, j := range keep {
				x := ts[j].values[i]
				if math.IsNaN(x) {
					continue next
				}
				row[k] = kept[k].Apply(x)
			}
			data = append(data, row...)
			complete++
		}
		if complete == 0 {
			return divergence.Rows(nil)
		}
		total := ts[keep[0]].rows
		est := int(math.Round(float64(total) * float64(complete) / float64(n)))
		return divergence.Subsample{Matrix: mat.NewDense(complete, len(keep), data), Rows: max(est, complete)}
	}
	return rows(refs), rows(curs), scales
}
