// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/isnil"
	"github.com/sublinear/pearson/kernel"
)

// checkMatrix returns an error for a sample that cannot be read: nil, a
// nil pointer such as (*mat.Dense)(nil) (ErrTooFew), or the ragged points
// given to Rows (ErrDimension); a Subsample's Matrix is checked alike.
func checkMatrix(name string, x mat.Matrix) error {
	if s, ok := x.(Subsample); ok {
		x = s.Matrix
	}
	if isnil.Is(x) {
		return fmt.Errorf("divergence: %w: %s is nil", ErrTooFew, name)
	}
	if r, ok := x.(*raggedRows); ok {
		return fmt.Errorf("divergence: %w: %s: %s", ErrDimension, name, r.msg)
	}
	return nil
}

// Subsample marks a matrix whose rows are a uniform random sample of the
// rows of a larger data set of Rows rows, such as the command line keeps
// while streaming a file too large for memory. The estimators draw their
// points from Matrix and take n = Rows in the scale kλ/n of the
// regularisation, so that λ keeps its all-centre meaning for the whole data
// set.
//
// Units, when not nil, says that the rows were drawn in two stages, as the
// command line samples a Parquet file: units (row groups or pages) drawn
// independently with probability proportional to their rows, then rows
// within them. Units[i] is the draw, 0 to UnitDraws − 1, that row i came
// from; UnitDraws counts the draws, including any that left no row (zero
// means the largest of Units plus one). Every row is still equally likely
// to be kept, but the rows of one draw resemble each other when the data
// set is ordered, so the draws, not the rows, are the independent
// observations: every estimator then adds the variance between draws to
// its standard error and reports the design effect (docs/DESIGN.md §7):
// LSMI, IndependenceTest and Rank from the design of x (or of y when x has
// none; Rank's target, or its features), RelativePE and TwoSampleTest from
// the designs of both samples, through the fitted ratio.
//
// UnitStrata, when not nil, gives the stratum of each of the UnitDraws
// draws, as a stratified two-stage sample draws them (a Parquet sample
// draws its row groups two per stratum along the file): the variance
// between draws is then taken within strata (summary.StrataVariance).
//
// SharedDraws, set on both samples of RelativePE or TwoSampleTest, says
// that they are groups of one two-stage sample whose Units number the same
// draws (one unit may hold rows of both), so that their covariance counts;
// otherwise the two samples' draws are independent.
type Subsample struct {
	mat.Matrix
	Rows int

	Units       []int
	UnitDraws   int
	UnitStrata  []int
	SharedDraws bool
}

// points is an immutable view of a sample's rows for the kernel arithmetic:
// rows are read only when drawn, validated as they are read, and divided by
// scale, so that the arithmetic happens at unit scale whatever the magnitude
// of the data. A view never changes; withScale returns another.
type points struct {
	x     mat.Matrix
	name  string
	n     int // rows available
	pop   int // rows of the data set the sample stands for (n unless Subsample)
	dim   int
	scale float64
	// cols, when not nil, are factors of scale per column: column j is
	// divided by scale·cols[j], so that a kernel's width in that column is
	// cols[j] times its width in the others (see relevanceX).
	cols []float64
	// units and draws are the two-stage design of Subsample.Units; units
	// is nil for rows drawn independently.
	units  []int
	draws  int
	strata []int // of the draws (Subsample.UnitStrata); nil: one stratum
	// cats, when not nil, marks the category columns (Categorical): read
	// as code·categorySpacing whatever the scale; numericOnly reads them
	// as 0 instead (withoutCategories).
	cats        []bool
	numericOnly bool
}

func newPoints(name string, x mat.Matrix) (*points, error) {
	if err := checkMatrix(name, x); err != nil {
		return nil, err
	}
	pop := 0
	var units []int
	var draws int
	var strata []int
	x, cats, err := unwrapCategorical(name, x)
	if err != nil {
		return nil, err
	}
	if s, ok := x.(Subsample); ok {
		x, pop, units, draws, strata = s.Matrix, s.Rows, s.Units, s.UnitDraws, s.UnitStrata
	}
	if cats == nil {
		if x, cats, err = unwrapCategorical(name, x); err != nil {
			return nil, err
		}
	}
	n, dim := x.Dims()
	if units != nil {
		var err error
		if draws, err = checkUnits(name, units, draws, n); err != nil {
			return nil, err
		}
		if err := checkStrata(name, strata, draws); err != nil {
			return nil, err
		}
	}
	if pop == 0 {
		pop = n
	}
	switch {
	case n < 2:
		return nil, fmt.Errorf("divergence: %w: %s has %d rows; at least 2 are needed", ErrTooFew, name, n)
	case dim < 1:
		return nil, fmt.Errorf("divergence: %w: %s has no columns", ErrDimension, name)
	case pop < n:
		return nil, fmt.Errorf("divergence: %w: %s is a subsample of %d rows standing for only %d", ErrSettings, name, n, pop)
	}
	return &points{x: x, name: name, n: n, pop: pop, dim: dim, scale: 1, units: units, draws: draws, strata: strata, cats: cats}, nil
}

// checkStrata checks Subsample.UnitStrata: nil, or a stratum for each of
// the draws, numbered from 0, each holding two draws or more.
func checkStrata(name string, strata []int, draws int) error {
	if strata == nil {
		return nil
	}
	if len(strata) != draws {
		return fmt.Errorf("divergence: %w: %s: %d unit strata for %d draws", ErrSettings, name, len(strata), draws)
	}
	m := make(map[int]int)
	for _, h := range strata {
		if h < 0 || h >= draws {
			return fmt.Errorf("divergence: %w: %s: unit stratum %d: want 0 ≤ stratum < %d", ErrSettings, name, h, draws)
		}
		m[h]++
	}
	for h, c := range m {
		if c < 2 {
			return fmt.Errorf("divergence: %w: %s: unit stratum %d holds one draw: the variance within it needs two", ErrSettings, name, h)
		}
	}
	return nil
}

// checkUnits checks the design of a Subsample of n rows and returns its
// number of draws: draws, or the largest unit plus one when draws is zero.
func checkUnits(name string, units []int, draws, n int) (int, error) {
	if len(units) != n {
		return 0, fmt.Errorf("divergence: %w: %s has %d rows but %d units", ErrDimension, name, n, len(units))
	}
	most := -1
	for i, u := range units {
		if u < 0 || (draws > 0 && u >= draws) {
			return 0, fmt.Errorf("divergence: %w: %s: row %d has unit %d: want 0 ≤ unit < UnitDraws = %d", ErrSettings, name, i, u, draws)
		}
		most = max(most, u)
	}
	if draws == 0 {
		draws = most + 1
	}
	return draws, nil
}

// withScale returns the view of the same rows divided by scale.
func (p *points) withScale(scale float64) *points {
	c := *p
	c.scale = scale
	return &c
}

// withColumnFactors returns the view of the same rows with column j divided
// by scale·cols[j] (see points.cols); nil restores one scale for all.
func (p *points) withColumnFactors(cols []float64) *points {
	c := *p
	c.cols = cols
	return &c
}

// newTwoSamples wraps the numerator and denominator samples, which must
// have the same number of columns.
func newTwoSamples(p, q mat.Matrix) (*points, *points, error) {
	pp, err := newPoints("P", p)
	if err != nil {
		return nil, nil, err
	}
	qq, err := newPoints("Q", q)
	if err != nil {
		return nil, nil, err
	}
	if pp.dim != qq.dim {
		return nil, nil, fmt.Errorf("divergence: %w: P has %d columns but Q has %d", ErrDimension, pp.dim, qq.dim)
	}
	return pp, qq, nil
}

// newPairs wraps paired samples, which must have the same number of rows.
func newPairs(x, y mat.Matrix) (*points, *points, error) {
	px, err := newPoints("x", x)
	if err != nil {
		return nil, nil, err
	}
	py, err := newPoints("y", y)
	if err != nil {
		return nil, nil, err
	}
	if px.n != py.n || px.pop != py.pop {
		return nil, nil, fmt.Errorf("divergence: %w: x has %d rows but y has %d: LSMI needs paired rows", ErrDimension, px.pop, py.pop)
	}
	return px, py, nil
}

// gather copies the given rows, divided by scale (and held within the
// largest float), into the rows of dst (len(rows)×dim), and reports the
// first value that is not finite.
func (p *points) gather(dst *mat.Dense, rows []int) error {
	kernel.Gather(dst, p.x, rows)
	raw := dst.RawMatrix()
	var err error
	for i := range rows {
		row := raw.Data[i*raw.Stride : i*raw.Stride+p.dim]
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &DataError{Sample: p.name, Row: rows[i], Column: j, Value: v}
			}
			if p.isCategory(j) {
				if p.numericOnly {
					row[j] = 0
				} else if row[j], err = categoryCoordinate(p.name, rows[i], j, v); err != nil {
					return err
				}
				continue
			}
			// A value far out in the tail may overflow in internal units;
			// at the largest float its kernel values are still right: 1
			// with itself, 0 with everything else.
			sc := p.scale
			if p.cols != nil {
				sc *= p.cols[j]
			}
			row[j] = math.Max(-math.MaxFloat64, math.Min(math.MaxFloat64, v/sc))
		}
	}
	return nil
}

// rows returns the given rows, divided by scale, as a new matrix.
func (p *points) rows(rows []int) (*mat.Dense, error) {
	if len(rows) == 0 {
		return &mat.Dense{}, nil
	}
	dst := mat.NewDense(len(rows), p.dim, nil)
	return dst, p.gather(dst, rows)
}

// blockRows is the number of rows read at once when every row is needed.
const blockRows = 4096

// eachBlock calls f on consecutive blocks of the row indices 0, …, n−1, at
// most blockRows at a time.
func eachBlock(n int, f func(rows []int) error) error {
	idx := make([]int, 0, min(blockRows, n))
	for start := 0; start < n; start += blockRows {
		idx = idx[:0]
		for i := start; i < min(start+blockRows, n); i++ {
			idx = append(idx, i)
		}
		if err := f(idx); err != nil {
			return err
		}
	}
	return nil
}

// each calls f on consecutive blocks of every row, divided by scale, holding
// at most blockRows rows at once.
func (p *points) each(f func(block *mat.Dense) error) error {
	buf := mat.NewDense(min(blockRows, p.n), p.dim, nil)
	return eachBlock(p.n, func(rows []int) error {
		block := buf.Slice(0, len(rows), 0, p.dim).(*mat.Dense)
		if err := p.gather(block, rows); err != nil {
			return err
		}
		return f(block)
	})
}

// moments adds the kernel moments of the averaging points to sum and gram
// (either may be nil) and returns how many points were averaged: every row
// when m ≥ n, otherwise m rows drawn without replacement by rnd.
func (p *points) moments(sum []float64, gram *mat.SymDense, g kernel.Gaussian, centres *mat.Dense, m int, rnd *rand.Rand) (int, error) {
	return p.momentsOf(sum, gram, g, centres, p.draw(m, rnd))
}

// draw returns m rows drawn without replacement by rnd, or nil (every row)
// when m ≥ n.
func (p *points) draw(m int, rnd *rand.Rand) []int {
	if m >= p.n {
		return nil
	}
	return indices.Sample(p.n, m, false, rnd)
}

// momentsOf adds the kernel moments of the given rows (every row, block by
// block, when rows is nil) to sum and gram and returns their number.
func (p *points) momentsOf(sum []float64, gram *mat.SymDense, g kernel.Gaussian, centres *mat.Dense, rows []int) (int, error) {
	if rows == nil {
		return p.n, p.each(func(block *mat.Dense) error {
			g.Moments(sum, gram, block, centres)
			return nil
		})
	}
	x, err := p.rows(rows)
	if err != nil {
		return 0, err
	}
	g.Moments(sum, gram, x, centres)
	return len(rows), nil
}
