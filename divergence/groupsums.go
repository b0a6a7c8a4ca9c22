// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// groupSums computes the components of the two-sample statistic that
// depend on the labelling only through the mean of the P-labelled points'
// whitened features, computed once: a permutation costs one pass over the
// rows of the smaller group (the other's sum is the total minus it),
// O(min(m_P, m_Q)·w) for w features in all, whatever the number of
// permutations before it.
//
// A kernel part stands for T = ½h̄ᵀ(H + (kλ/n)I)⁻¹h̄ − ½, h̄ the mean over
// the P-labelled points of the kernel values φ(x) at k centres and H the
// fixed Gram matrix (the fixed-H statistic of TwoSampleTest): with
// H = Σ_l e_l u_l u_lᵀ, its features are ψ_l(x) = u_lᵀφ(x)/√(e_l + kλ/n),
// and T = ½‖ψ̄_P‖² − ½. The directions whose weight e_l/(e_l + kλ/n) is
// below whitenFloor are left out: under the null hypothesis each direction
// adds about its weight/m_P to T, so those add less than k·whitenFloor/m_P
// together, and the statistic stays a fixed function of the data and the
// labels (the p-value stays exact). Smooth kernels have few directions
// above the floor, which is what makes a permutation cheap; in many
// dimensions at most whitenDirections of the largest weights are kept.
//
// The mean part holds ψ(x) = S^(−½)(x − x̄), x̄ and S the mean and
// covariance of all the averaging points: its value is
// D² = (x̄_P − x̄_Q)ᵀS⁻¹(x̄_P − x̄_Q) = (m/m_Q)²‖ψ̄_P‖², the squared
// Mahalanobis distance between the two groups' means (Hotelling's T² up to
// a constant factor). Neither x̄, S nor H depends on the labels.
type groupSums struct {
	rows   []float64 // m rows of width values, a row per averaging point: P's first
	width  int
	total  []float64 // the column sums of rows
	mp, mq int
	parts  []groupPart
	// pending holds the parts' features until finish lays them out.
	pending []*mat.Dense
}

// groupPart is a component of groupSums: the columns [at, at+n) of the rows.
type groupPart struct {
	at, n  int
	kernel bool // T = ½‖ψ̄_P‖² − ½; otherwise the mean part, D²
}

// whitenFloor is the least weight e_l/(e_l + λ) of a direction of a kernel
// part that groupSums keeps, and whitenDirections the most directions
// (those of largest weight): in one dimension a Gaussian kernel at the
// tests' widths has fewer than 10 above the floor; in many, the cap keeps a
// permutation's cost at O(min(m_P, m_Q)·(32w + d)).
const (
	whitenFloor      = 1e-4
	whitenDirections = 32
)

// whitened returns the features ψ_l = u_lᵀφ/√(e_l + ridge) of the rows of
// phi (m × k), from the eigendecomposition H = Σ e_l u_l u_lᵀ, keeping the
// directions with e_l/(e_l + ridge) ≥ floor, at most most of them (those
// of the largest eigenvalues; 0: all); ok is false when H + ridge·I
// is not positive definite or the decomposition fails.
func whitened(phi *mat.Dense, h *mat.SymDense, ridge, floor float64, most int) (psi *mat.Dense, ok bool) {
	var eig mat.EigenSym
	if !eig.Factorize(h, true) {
		return nil, false
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	var keep []int
	for l, e := range vals {
		if !(e+ridge > 0) {
			return nil, false
		}
		if e/(e+ridge) >= floor {
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return nil, false
	}
	if most > 0 && len(keep) > most {
		// EigenSym's values ascend: the largest weights are last.
		keep = keep[len(keep)-most:]
	}
	k := len(vals)
	u := mat.NewDense(k, len(keep), nil)
	for j, l := range keep {
		s := 1 / math.Sqrt(vals[l]+ridge)
		for i := range k {
			u.Set(i, j, vecs.At(i, l)*s)
		}
	}
	psi = new(mat.Dense)
	psi.Mul(phi, u)
	return psi, true
}

// add appends a part with the features psi (m × n, P's points first).
func (g *groupSums) add(psi *mat.Dense, kernel bool) {
	_, n := psi.Dims()
	g.parts = append(g.parts, groupPart{at: g.width, n: n, kernel: kernel})
	g.width += n
	g.pending = append(g.pending, psi)
}

// addMean appends the mean part for the averaging points xe (labelled P)
// and ye (Q).
func (g *groupSums) addMean(xe, ye *mat.Dense) error {
	mp, d := xe.Dims()
	mq, _ := ye.Dims()
	m := mp + mq
	x := mat.NewDense(m, d, nil)
	x.Slice(0, mp, 0, d).(*mat.Dense).Copy(xe)
	x.Slice(mp, m, 0, d).(*mat.Dense).Copy(ye)
	mean := make([]float64, d)
	for i := range m {
		floats.Add(mean, x.RawRowView(i))
	}
	floats.Scale(1/float64(m), mean)
	for i := range m {
		floats.Sub(x.RawRowView(i), mean)
	}
	cov := mat.NewSymDense(d, nil)
	cov.SymRankK(cov, 1/float64(m), x.T())
	tr := 0.0
	for i := range d {
		tr += cov.At(i, i)
	}
	// Directions with less than 10⁻¹⁰ of the average variance (a column
	// constant among the averaging points) carry no shift to measure.
	var psi *mat.Dense
	ok := tr > 0
	if ok {
		psi, ok = whitened(x, cov, 0, 1e-10*tr/float64(d), 0)
	}
	if !ok {
		return fmt.Errorf("divergence: %w: the averaging points have no spread", ErrConstant)
	}
	g.add(psi, false)
	return nil
}

// finish lays the parts out in rows and sums the columns.
func (g *groupSums) finish() {
	m := g.mp + g.mq
	g.rows = make([]float64, m*g.width)
	for j, psi := range g.pending {
		p := g.parts[j]
		for i := range m {
			copy(g.rows[i*g.width+p.at:i*g.width+p.at+p.n], psi.RawRowView(i))
		}
	}
	g.pending = nil
	g.total = make([]float64, g.width)
	for i := range m {
		floats.Add(g.total, g.rows[i*g.width:(i+1)*g.width])
	}
}

func (g *groupSums) newScratch() any { return make([]float64, g.width) }

// count is one value per part, and for each kernel part a second, with
// the roles of the groups exchanged (see values).
func (g *groupSums) count() int {
	n := len(g.parts)
	for _, p := range g.parts {
		if p.kernel {
			n++
		}
	}
	return n
}

// values writes each part's value for the labelling in which the points
// perm[:mp] are P's and the rest Q's, then, for each kernel part, its value
// with the roles exchanged, ½‖ψ̄_Q‖² − ½ (T of PE_(1−α)(Q‖P) with the same
// H): the relative divergence is not symmetric, and a change one direction
// sees poorly (a normal P against a more peaked Q) the other sees well.
func (g *groupSums) values(perm []int, scratch any, dst []float64) {
	sum := scratch.([]float64)
	clear(sum)
	w := g.width
	group := perm[:g.mp]
	if g.mq < g.mp {
		group = perm[g.mp:]
	}
	sum = sum[:w]
	// Four rows at a time: each element still adds its rows one by one in
	// the group's order (so the sum is bit for bit that of one row at a
	// time), but loads and stores its running sum once per four rows. A
	// plain loop: at a few dozen values a row, faster than an assembly call
	// per row.
	for len(group) >= 4 {
		r0 := g.rows[group[0]*w : group[0]*w+w : group[0]*w+w]
		r1 := g.rows[group[1]*w : group[1]*w+w : group[1]*w+w]
		r2 := g.rows[group[2]*w : group[2]*w+w : group[2]*w+w]
		r3 := g.rows[group[3]*w : group[3]*w+w : group[3]*w+w]
		for i := range sum {
			t := sum[i]
			t += r0[i]
			t += r1[i]
			t += r2[i]
			t += r3[i]
			sum[i] = t
		}
		group = group[4:]
	}
	for _, r := range group {
		row := g.rows[r*w : r*w+w : r*w+w]
		for i, v := range row {
			sum[i] += v
		}
	}
	if g.mq < g.mp {
		// Σ_P = Σ_all − Σ_Q.
		for i, t := range g.total {
			sum[i] = t - sum[i]
		}
	}
	mp, mq, m := float64(g.mp), float64(g.mq), float64(g.mp+g.mq)
	extra := len(g.parts)
	for j, part := range g.parts {
		s := sum[part.at : part.at+part.n]
		v := floats.Dot(s, s) / (mp * mp)
		if !part.kernel {
			dst[j] = v * (m / mq) * (m / mq)
			continue
		}
		dst[j] = v/2 - 0.5
		// Σ_Q = Σ_all − Σ_P.
		var vq float64
		for i, x := range s {
			d := g.total[part.at+i] - x
			vq += d * d
		}
		dst[extra] = vq/(mq*mq)/2 - 0.5
		extra++
	}
}
