// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package qmin

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/errs"
	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/isnil"
	"github.com/sublinear/pearson/internal/parallel"
	"github.com/sublinear/pearson/internal/summary"
)

// Defaults and limits.
const (
	// DefaultK is the number of sampled indices when Settings.K is zero.
	DefaultK = 40
	// DefaultDraws is the number of independent draws when Settings.Draws
	// is zero.
	DefaultDraws = 10
	// MaxK is the largest k (and, for Exact, the largest n) the package
	// accepts: the k×k restricted matrix alone takes 8k² bytes, 800 MB at
	// MaxK, the solvers hold a few copies of it (up to about 4 GB at
	// MaxK), and solving it takes O(k³) time.
	MaxK = 10000
	// MaxDraws is the largest number of draws Estimate accepts: each keeps
	// its indices and minimiser, 16k bytes, and Draws·K may not exceed
	// MaxDrawEntries.
	MaxDraws = 1_000_000
	// MaxDrawEntries bounds Draws·K, and so the 16·Draws·K bytes that the
	// draws of a Result keep: 1.6 GB.
	MaxDrawEntries = 100_000_000
	// MaxNystromEntries bounds n·k for Nystrom, which holds two n×k
	// matrices: 1.6 GB.
	MaxNystromEntries = 100_000_000
)

// Settings controls Estimate, Exact and MinimizeQuadratic. The zero value
// is ready to use.
type Settings struct {
	// K is k, the number of indices sampled by each draw. Zero means
	// DefaultK. With replacement, K may exceed n.
	K int

	// Draws is R, the number of independent draws whose mean is the
	// estimate; their spread gives its standard error. Zero means
	// DefaultDraws.
	Draws int

	// WithoutReplacement samples k distinct indices (then K ≤ n). The default
	// samples with replacement, as Theorem 4.2 of the paper assumes.
	WithoutReplacement bool

	// Box, when positive, constrains v to the box [−Box, Box]ⁿ; zero means
	// no constraint. Negative values are an error.
	Box float64

	// Restarts is the number of starting points of the local solver for
	// non-convex box-constrained problems. Zero means 8.
	Restarts int

	// Src is the source of randomness. Nil means rand.NewPCG(1, 2), so that
	// results are reproducible by default.
	Src rand.Source

	// Workers is the number of draws solved at once. Zero means
	// runtime.GOMAXPROCS(0). Results do not depend on it.
	Workers int
}

func (s *Settings) k() int {
	if s.K == 0 {
		return DefaultK
	}
	return s.K
}

func (s *Settings) draws() int {
	if s.Draws == 0 {
		return DefaultDraws
	}
	return s.Draws
}

func (s *Settings) restarts() int {
	if s.Restarts == 0 {
		return defaultRestarts
	}
	return s.Restarts
}

func (s *Settings) source() rand.Source {
	if s.Src == nil {
		return rand.NewPCG(1, 2)
	}
	return s.Src
}

func (s *Settings) validateBox() error {
	if s.Box < 0 || math.IsNaN(s.Box) || math.IsInf(s.Box, 0) {
		return &errs.SettingsError{Package: "qmin", Field: "Box", Value: s.Box, Allowed: "the half-width of the box must be a finite number ≥ 0 (0: no box)"}
	}
	if s.Restarts < 0 {
		return fmt.Errorf("qmin: %w: restarts %d < 0", ErrSettings, s.Restarts)
	}
	return nil
}

// validate checks the settings for a problem of dimension n.
func (s *Settings) validate(n int) error {
	if n < 1 {
		return fmt.Errorf("qmin: %w: dimension n = %d < 1", ErrShape, n)
	}
	k := s.k()
	switch {
	case k < 1:
		return &errs.SettingsError{Package: "qmin", Field: "K", Value: s.K, Allowed: "need at least 1 sampled index", Default: "DefaultK"}
	case k > MaxK:
		return fmt.Errorf("qmin: %w: k = %d exceeds MaxK = %d: its k×k block alone would take %.1f GB", ErrTooLarge, k, MaxK, 8*float64(k)*float64(k)/1e9)
	case s.WithoutReplacement && k > n:
		return fmt.Errorf("qmin: %w: k = %d distinct indices cannot be drawn from n = %d", ErrSettings, k, n)
	}
	d := s.draws()
	if d < 1 || d > MaxDraws {
		return &errs.SettingsError{Package: "qmin", Field: "Draws", Value: s.Draws, Allowed: fmt.Sprintf("need 1 to %d draws", MaxDraws), Default: "DefaultDraws"}
	}
	if d*k > MaxDrawEntries {
		return fmt.Errorf("qmin: %w: draws × k = %d × %d exceeds MaxDrawEntries = %d: the draws' indices and minimisers alone would take %.1f GB", ErrTooLarge, d, k, MaxDrawEntries, 16*float64(d)*float64(k)/1e9)
	}
	return s.validateBox()
}

// Draw is one run of Algorithm 1.
type Draw struct {
	// Indices is the sampled sequence S.
	Indices []int
	// Restricted is the minimum z̃ of the restricted problem p_{k,A|S,d|S,b|S}
	// and its minimiser.
	Restricted Solution
	// Value is the draw's estimate (n²/k²) z̃.
	Value float64
}

// Result is the estimate of min p over R draws.
type Result struct {
	// Value is the mean of the draws' values: the estimate of z* = min p.
	Value float64
	// StdErr is the standard error of Value, the standard deviation of the
	// draws' values over √R. It is zero when R = 1: one draw carries no
	// estimate of its own error.
	StdErr float64
	// N and K are the dimension n and the sample size k.
	N, K int
	// Draws holds each draw, in order.
	Draws []Draw
	// Certified reports that every restricted minimum is certified (see
	// Solution.Certified).
	Certified bool
}

// Estimate approximates z* = min_v p_{n,A,d,b}(v) by Algorithm 1 of Hayashi &
// Yoshida (2016), repeated over R independent draws: each draws a sequence S
// of k indices uniformly from [n], solves the restricted problem
//
//	z̃ = min_{v ∈ Rᵏ} ⟨v, A|S v⟩ + k⟨v, diag(d|S) v⟩ + k⟨b|S, v⟩
//
// with MinimizeQuadratic (M = sym(A|S) + k·diag(d|S), c = k·b|S) and returns
// (n²/k²)·z̃. The estimate is the mean over the draws. With probability 1 − δ
// a draw is within εLK²n² of z* for k = 2^{Θ(1/ε²)} + Θ(log(1/δ) log log(1/δ)),
// where L bounds the entries and K the minimiser (Theorem 4.2); in practice
// the error per n² falls steadily with k and does not depend on n.
//
// Each draw makes O(k²) queries and O(k³) arithmetic, independently of n.
// Draws run concurrently (see Settings.Workers); each has its own generator
// seeded from s.Src in order, so the result depends only on the settings.
// The error wraps ErrUnbounded when a restricted problem has no minimum,
// ErrIllConditioned when it is too close to singular to minimise,
// ErrNonFinite when a queried entry is NaN or infinite, and ErrShape,
// ErrSettings or ErrTooLarge for bad sizes or settings. s may be nil.
func Estimate(p Problem, s *Settings) (*Result, error) {
	return EstimateContext(context.Background(), p, s)
}

// EstimateContext is Estimate, stopping early when ctx is cancelled: it
// returns within microseconds, whatever k, with an error wrapping
// ctx.Err(). The draws not yet begun are skipped; those under way are
// abandoned to finish in the background, their results dropped (see
// parallel.Await): each stops at its next step (after the restriction is
// built, before it is minimised), but a single query of p, Restrict or
// factorisation runs to its end, so p must stay unchanged and safe to query
// for that long. Without a cancellation the draws are the same as
// Estimate's.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func EstimateContext(ctx context.Context, p Problem, s *Settings) (*Result, error) {
	isnil.Context(ctx, "qmin.EstimateContext")
	if s == nil {
		s = &Settings{}
	}
	n, err := problemDim(p)
	if err != nil {
		return nil, err
	}
	if err := s.validate(n); err != nil {
		return nil, err
	}
	if err := queryable(p); err != nil {
		return nil, err
	}
	k, r := s.k(), s.draws()
	rnd := rand.New(s.source())
	seeds := make([][2]uint64, r)
	for i := range seeds {
		seeds[i] = [2]uint64{rnd.Uint64(), rnd.Uint64()}
	}
	res := &Result{N: n, K: k, Draws: make([]Draw, r), Certified: true}
	errs := make([]error, r)
	scale := (float64(n) / float64(k)) * (float64(n) / float64(k))
	stopped := parallel.ForContext(ctx, r, parallel.Workers(s.Workers), func(i int) {
		// The draw itself writes only values of its own, so that when a
		// cancellation abandons it its slots are left to this goroutine.
		d, err := parallel.Await(ctx, func() (Draw, error) {
			dr := rand.New(rand.NewPCG(seeds[i][0], seeds[i][1]))
			idx := indices.Sample(n, k, !s.WithoutReplacement, dr)
			sol, err := solveRestricted(ctx, p, idx, s.Box, s.restarts(), dr)
			if err != nil {
				return Draw{}, err
			}
			return Draw{Indices: idx, Restricted: sol, Value: scale * sol.Value}, nil
		})
		if err != nil {
			errs[i] = fmt.Errorf("qmin: draw %d: %w", i+1, err)
			return
		}
		res.Draws[i] = d
	})
	if stopped == nil && ctx.Err() != nil && slices.ContainsFunc(errs, func(err error) bool { return errors.Is(err, ctx.Err()) }) {
		stopped = ctx.Err() // every draw had begun when the cancellation came
	}
	if stopped != nil {
		return nil, fmt.Errorf("qmin: %w", stopped)
	}
	values := make([]float64, r)
	for i, err := range errs {
		if err != nil {
			return nil, err
		}
		values[i] = res.Draws[i].Value
		res.Certified = res.Certified && res.Draws[i].Restricted.Certified
	}
	res.Value, res.StdErr = summary.MeanStdErr(values)
	if math.IsNaN(res.Value) || math.IsInf(res.Value, 0) || math.IsNaN(res.StdErr) || math.IsInf(res.StdErr, 0) {
		return nil, fmt.Errorf("qmin: %w: the estimate overflowed: rescale the problem", ErrNonFinite)
	}
	return res, nil
}

// Exact returns z* = min_v p_{n,A,d,b}(v) itself, by MinimizeQuadratic on the
// whole problem (M = sym(A) + n·diag(d), c = n·b): the reference that
// Estimate approximates. It makes n² queries and takes O(n³) time and 8n²
// bytes, so n may be at most MaxK. Only s.Box, s.Restarts and s.Src are used;
// s may be nil.
func Exact(p Problem, s *Settings) (Solution, error) {
	return ExactContext(context.Background(), p, s)
}

// ExactContext is Exact, returning within microseconds of a cancellation of
// ctx, whatever n, with an error wrapping ctx.Err(). The solution under way
// is abandoned to finish in the background (as a draw of EstimateContext
// is), its result dropped.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func ExactContext(ctx context.Context, p Problem, s *Settings) (Solution, error) {
	isnil.Context(ctx, "qmin.ExactContext")
	if s == nil {
		s = &Settings{}
	}
	n, err := problemDim(p)
	if err != nil {
		return Solution{}, err
	}
	if n > MaxK {
		return Solution{}, fmt.Errorf("qmin: %w: n = %d exceeds MaxK = %d: the n×n matrix alone would take %.1f GB", ErrTooLarge, n, MaxK, 8*float64(n)*float64(n)/1e9)
	}
	if err := s.validateBox(); err != nil {
		return Solution{}, err
	}
	if err := queryable(p); err != nil {
		return Solution{}, err
	}
	// An abandoned solution draws on from src; detached, it no longer
	// touches the caller's Src.
	src := parallel.NewSource(s.source())
	rnd := rand.New(src)
	sol, err := parallel.Await(ctx, func() (Solution, error) {
		return solveRestricted(ctx, p, indices.Range(n), s.Box, s.restarts(), rnd)
	})
	if err != nil {
		src.Detach()
		return Solution{}, fmt.Errorf("qmin: %w", err)
	}
	return sol, nil
}

// solveRestricted minimises p_{k,A|S,d|S,b|S} for S = idx, k = len(idx). It
// stops before the minimisation when ctx is done, so that a draw abandoned
// by a cancellation does not go on to factorise its block.
func solveRestricted(ctx context.Context, p Problem, idx []int, box float64, restarts int, rnd *rand.Rand) (Solution, error) {
	m, c, err := restricted(p, idx, rnd)
	if err != nil {
		return Solution{}, err
	}
	if err := ctx.Err(); err != nil {
		return Solution{}, err
	}
	return minimize(m, c, box, restarts, rnd)
}

// Restricted returns the restricted problem that a draw of Estimate solves
// for the indices S = idx, as the function vᵀMv + cᵀv with
//
//	M = sym(A|S) + k·diag(d|S),   c = k·b|S,   k = len(idx),
//
// ready for MinimizeQuadratic; its minimum times n²/k² is the draw's
// estimate. It gives a caller exactly the matrix a draw builds, to solve it
// by another method than MinimizeQuadratic or to time the solve apart from
// the queries (as the reproduction of the paper's experiments does). rnd is
// passed to a Restricter's Restrict (nil: a fixed
// generator). The error wraps ErrNonFinite for a NaN or infinite entry,
// ErrShape for an empty idx or an index outside [0, n), and ErrTooLarge for
// more than MaxK indices.
func Restricted(p Problem, idx []int, rnd *rand.Rand) (*mat.SymDense, []float64, error) {
	n, err := problemDim(p)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case len(idx) == 0:
		return nil, nil, fmt.Errorf("qmin: %w: no indices", ErrShape)
	case len(idx) > MaxK:
		return nil, nil, fmt.Errorf("qmin: %w: %d indices exceed MaxK = %d", ErrTooLarge, len(idx), MaxK)
	default:
		for _, i := range idx {
			if i < 0 || i >= n {
				return nil, nil, fmt.Errorf("qmin: %w: index %d outside [0, %d)", ErrShape, i, n)
			}
		}
	}
	if err := queryable(p); err != nil {
		return nil, nil, err
	}
	if rnd == nil {
		rnd = rand.New(rand.NewPCG(1, 2))
	}
	m, c, err := restricted(p, idx, rnd)
	if err != nil {
		return nil, nil, fmt.Errorf("qmin: %w", err)
	}
	return m, c, nil
}

func restricted(p Problem, idx []int, rnd *rand.Rand) (*mat.SymDense, []float64, error) {
	k := len(idx)
	a := mat.NewSymDense(k, nil)
	d := make([]float64, k)
	b := make([]float64, k)
	if err := restrict(p, a, d, b, idx, rnd); err != nil {
		return nil, nil, err
	}
	fk := float64(k)
	for i := range k {
		for j := i; j < k; j++ {
			if v := a.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("%w: A[%d,%d] (or its transpose) is %v", ErrNonFinite, idx[i], idx[j], v)
			}
		}
		if math.IsNaN(d[i]) || math.IsInf(d[i], 0) {
			return nil, nil, fmt.Errorf("%w: d[%d] is %v", ErrNonFinite, idx[i], d[i])
		}
		if math.IsNaN(b[i]) || math.IsInf(b[i], 0) {
			return nil, nil, fmt.Errorf("%w: b[%d] is %v", ErrNonFinite, idx[i], b[i])
		}
		a.SetSym(i, i, a.At(i, i)+fk*d[i])
		b[i] *= fk
	}
	return a, b, nil
}

// Sample returns k indices from [0, n): independent and uniform when replace
// is true, as Algorithm 1 draws them; otherwise distinct, a uniformly random
// k-subset (Floyd's algorithm; the order is not uniformly random). It takes
// O(k) time and space, whatever n is. The sizes may come from data, so
// that k < 0, k > n without replacement, or n < 1 with it and k > 0, are
// an error wrapping ErrSettings, not a panic; k > MaxDrawEntries (800 MB of
// indices) is one wrapping ErrTooLarge.
func Sample(n, k int, replace bool, rnd *rand.Rand) ([]int, error) {
	if k > MaxDrawEntries {
		return nil, fmt.Errorf("qmin: %w: %d indices exceed MaxDrawEntries = %d (%.1f GB)", ErrTooLarge, k, MaxDrawEntries, 8*float64(k)/1e9)
	}
	if k < 0 || (!replace && k > n) || (replace && k > 0 && n < 1) {
		how := "distinct"
		if replace {
			how = "independent"
		}
		return nil, fmt.Errorf("qmin: %w: cannot sample %d %s indices from n = %d", ErrSettings, k, how, n)
	}
	if rnd == nil {
		return nil, fmt.Errorf("qmin: %w: the random generator is nil", ErrSettings)
	}
	return indices.Sample(n, k, replace, rnd), nil
}
