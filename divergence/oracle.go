// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/internal/indices"
	"github.com/sublinear/pearson/internal/summary"
	"github.com/sublinear/pearson/qmin"
)

// momentFunc returns H and h of a kernel least-squares problem for the
// centres idx (rows of the centre sample): kernel averages over every point,
// or over points drawn by rnd.
type momentFunc func(idx []int, rnd *rand.Rand) (*mat.SymDense, []float64, error)

// oracle presents the problem min_θ ½θᵀHθ − hᵀθ + (λ/2)θᵀθ, whose value
// gives PE or SMI as −½ − min, to qmin with the encoding of docs/DESIGN.md §2:
//
//	A = H/2,   d = λ/(2N)·1,   b = −h/n,
//
// where n is the number of candidate centres (rows of the centre sample) and
// N the number of rows of the data set they stand for (n unless the sample
// is a Subsample). Algorithm 1 then returns exactly
//
//	(n²/k²) z̃ = −½ h_Sᵀ(H_SS + (kλ/N) I)⁻¹ h_S,
//
// the k-centre problem with its regularisation rescaled to kλ/N, and the
// draw's minimiser v gives θ = (n/k)·v.
type oracle struct {
	n       int
	lambdaN float64 // λ/N
	moments momentFunc
}

// Dim returns the number of candidate centres.
func (o *oracle) Dim() int { return o.n }

// entryRand is the generator behind single-entry queries: the same averaging
// points for every entry, so that they form one matrix.
func entryRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

// AAt returns H[i, j]/2. It averages over the data, so it costs O(m); Restrict
// is the fast path.
func (o *oracle) AAt(i, j int) float64 {
	h, _, err := o.moments([]int{i, j}, entryRand())
	if err != nil {
		return math.NaN()
	}
	return h.At(0, 1) / 2
}

// DAt returns λ/(2N).
func (o *oracle) DAt(int) float64 { return o.lambdaN / 2 }

// BAt returns −h[i]/n.
func (o *oracle) BAt(i int) float64 {
	_, h, err := o.moments([]int{i}, entryRand())
	if err != nil {
		return math.NaN()
	}
	return -h[0] / float64(o.n)
}

// Restrict fills the restriction to idx from one computation of H and h.
func (o *oracle) Restrict(a *mat.SymDense, d, b []float64, idx []int, rnd *rand.Rand) error {
	h, hv, err := o.moments(idx, rnd)
	if err != nil {
		return err
	}
	a.ScaleSym(0.5, h)
	for i := range idx {
		d[i] = o.lambdaN / 2
		b[i] = -hv[i] / float64(o.n)
	}
	return nil
}

// fit is the outcome of the constant-time estimate or of the exact solution:
// the value of each draw (PE or SMI), and each draw's centres and weights θ.
type fit struct {
	values  []float64
	plugin  []float64 // hᵀθ − ½θᵀHθ − ½ = value + (kλ/2N)‖θ‖²
	centres [][]int
	thetas  [][]float64
	mean    float64
	stderr  float64
}

// solve runs Algorithm 1 on the oracle with k centres per draw (all of them,
// once, when k ≥ n and one draw suffices), or the exact all-centre solution.
func (o *oracle) solve(ctx context.Context, k, draws int, replace, exact bool, src rand.Source, workers int) (*fit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var draw []qmin.Draw
	if exact {
		sol, err := qmin.ExactContext(ctx, o, &qmin.Settings{Src: src})
		if err != nil {
			return nil, unwrapData(err)
		}
		draw = []qmin.Draw{{Indices: indices.Range(o.n), Restricted: sol, Value: sol.Value}}
	} else {
		res, err := qmin.EstimateContext(ctx, o, &qmin.Settings{K: k, Draws: draws, WithoutReplacement: !replace, Src: src, Workers: workers})
		if err != nil {
			return nil, unwrapData(err)
		}
		draw = res.Draws
	}
	f := &fit{}
	for _, d := range draw {
		v := -0.5 - d.Value
		theta := make([]float64, len(d.Restricted.V))
		floats.ScaleTo(theta, float64(o.n)/float64(len(d.Indices)), d.Restricted.V)
		f.values = append(f.values, v)
		f.plugin = append(f.plugin, v+float64(len(d.Indices))*o.lambdaN/2*floats.Dot(theta, theta))
		f.centres = append(f.centres, d.Indices)
		f.thetas = append(f.thetas, theta)
	}
	f.mean, f.stderr = summary.MeanStdErr(f.values)
	if math.IsNaN(f.mean) || math.IsInf(f.mean, 0) || math.IsNaN(f.stderr) || math.IsInf(f.stderr, 0) {
		return nil, fmt.Errorf("divergence: %w: the estimate is %v ± %v", ErrNonFinite, f.mean, f.stderr)
	}
	return f, nil
}

// unwrapData returns the data error inside err, if any, without the layers
// qmin adds around it: the user's problem is the data, not the solver.
func unwrapData(err error) error {
	var de *DataError
	if errors.As(err, &de) {
		return de
	}
	return fmt.Errorf("divergence: %w", err)
}
