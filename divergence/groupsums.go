// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"fmt"
	"math"
	mbits "math/bits"
	"math/rand/v2"

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
//
// Each value's mean and standard deviation over the uniformly random
// labellings (moments, from quadMoments) standardise it in the combined
// statistic: functions of the pooled points alone. With bin set, the rows
// are those of bins of points that share their features (one column's
// values, binValues), weighted by their counts.
type groupSums struct {
	rows []float64 // a row of width values per point, P's first (or per bin, see bin)
	// cols, with bins, holds the rows transposed: a column of a value per
	// bin for each of the width values (see binSums).
	cols   []float64
	width  int
	total  []float64 // the sum of the points' rows
	mp, mq int
	// bin, when not nil, gives the row of each averaging point (P's first):
	// the points of a bin share one row of features, and weight holds the
	// number of points of each row. A permutation then counts the group's
	// points per bin and sums the rows weighted by the counts.
	bin    []int32
	weight []float64
	parts  []groupPart
	// pending holds the parts' features until finish lays them out.
	pending []*mat.Dense
	// mean and sd are each value's mean and standard deviation over the
	// uniformly random labellings (see moments).
	mean, sd []float64
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

// addMean appends the mean part for the averaging points' rows x (or
// the bins' rows, weighted by g.weight): P's first.
func (g *groupSums) addMean(x *mat.Dense) error {
	rows, d := x.Dims()
	x = mat.DenseCopyOf(x)
	w := g.weights(rows)
	m := floats.Sum(w)
	mean := make([]float64, d)
	for i := range rows {
		floats.AddScaled(mean, w[i]/m, x.RawRowView(i))
	}
	for i := range rows {
		floats.Sub(x.RawRowView(i), mean)
	}
	cov := weightedCov(x, w)
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

// weights returns g.weight, or rows ones when the rows are the points.
func (g *groupSums) weights(rows int) []float64 {
	if g.weight != nil {
		return g.weight
	}
	w := make([]float64, rows)
	for i := range w {
		w[i] = 1
	}
	return w
}

// weightedCov returns Σ_i w_i x_i x_iᵀ / Σ_i w_i over the rows x_i of x.
func weightedCov(x *mat.Dense, w []float64) *mat.SymDense {
	rows, d := x.Dims()
	y := mat.NewDense(rows, d, nil)
	for i := range rows {
		floats.ScaleTo(y.RawRowView(i), math.Sqrt(w[i]), x.RawRowView(i))
	}
	cov := mat.NewSymDense(d, nil)
	cov.SymRankK(cov, 1/floats.Sum(w), y.T())
	return cov
}

// finish lays the parts out in rows, sums the columns and computes the
// values' permutation moments.
func (g *groupSums) finish() {
	rows := g.mp + g.mq
	if g.bin != nil {
		rows = len(g.weight)
	}
	w := g.weights(rows)
	g.rows = make([]float64, rows*g.width)
	for j, psi := range g.pending {
		p := g.parts[j]
		for i := range rows {
			copy(g.rows[i*g.width+p.at:i*g.width+p.at+p.n], psi.RawRowView(i))
		}
	}
	if g.bin != nil {
		g.cols = make([]float64, rows*g.width)
		for i := range rows {
			for j := range g.width {
				g.cols[j*rows+i] = g.rows[i*g.width+j]
			}
		}
	}
	g.total = make([]float64, g.width)
	for i := range rows {
		floats.AddScaled(g.total, w[i], g.rows[i*g.width:(i+1)*g.width])
	}
	g.mean, g.sd = make([]float64, g.count()), make([]float64, g.count())
	extra := len(g.parts)
	for j, part := range g.parts {
		ePsi, vPsi := quadMoments(g.pending[j], w, g.mp, g.mq)
		if !part.kernel {
			// D² = ‖Σ_P ψ‖²·(m/(m_P·m_Q))².
			f := float64(g.mp+g.mq) / float64(g.mp) / float64(g.mq)
			g.mean[j], g.sd[j] = ePsi*f*f, math.Sqrt(vPsi)*f*f
			continue
		}
		// T = ‖Σ_P ψ‖²/(2m_P²) − ½, and with the roles exchanged the same
		// with Q's sum, whose moments are those of a group of m_Q.
		f := 2 * float64(g.mp) * float64(g.mp)
		g.mean[j], g.sd[j] = ePsi/f-0.5, math.Sqrt(vPsi)/f
		eQ, vQ := quadMoments(g.pending[j], w, g.mq, g.mp)
		f = 2 * float64(g.mq) * float64(g.mq)
		g.mean[extra], g.sd[extra] = eQ/f-0.5, math.Sqrt(vQ)/f
		extra++
	}
	g.pending = nil
}

// quadMoments returns the mean and (normal-theory) variance of ‖S‖², S the
// sum of the rows of psi (weighted: row i stands for w_i points) over a
// uniformly random group of mg of the m = mg + mo points: with μ and Σ the
// points' mean and covariance, S has mean mg·μ and covariance
// C = mg·mo/(m−1)·Σ, so E‖S‖² = mg²‖μ‖² + tr C, and for S normal
// Var‖S‖² = 2 tr C² + 4 mg² μᵀCμ. Both are functions of the pooled points
// alone, so standardising by them keeps the statistic a fixed function of
// the data and the labels.
func quadMoments(psi *mat.Dense, w []float64, mg, mo int) (mean, variance float64) {
	rows, n := psi.Dims()
	m := float64(mg + mo)
	mu := make([]float64, n)
	for i := range rows {
		floats.AddScaled(mu, w[i]/m, psi.RawRowView(i))
	}
	x := mat.NewDense(rows, n, nil)
	for i := range rows {
		floats.SubTo(x.RawRowView(i), psi.RawRowView(i), mu)
	}
	c := weightedCov(x, w)
	c.ScaleSym(float64(mg)*float64(mo)/(m-1), c)
	tr, tr2 := 0.0, 0.0
	for i := range n {
		tr += c.At(i, i)
		for j := range n {
			tr2 += c.At(i, j) * c.At(i, j)
		}
	}
	cmu := make([]float64, n)
	for i := range n {
		for j := range n {
			cmu[i] += c.At(i, j) * mu[j]
		}
	}
	g := float64(mg)
	mean = g*g*floats.Dot(mu, mu) + tr
	variance = 2*tr2 + 4*g*g*floats.Dot(mu, cmu)
	return mean, variance
}

// moments writes each value's mean and standard deviation over the
// uniformly random labellings, in the order of values: exact means,
// normal-theory standard deviations (quadMoments).
func (g *groupSums) moments(mean, sd []float64) {
	copy(mean, g.mean)
	copy(sd, g.sd)
}

// groupScratch is a worker's buffers: the group's sums, and with bins its
// counts per bin and the bits of a drawn group (see drawValues).
type groupScratch struct {
	sum, counts []float64
	bits        []uint64
	ranks       []int32
}

func (g *groupSums) newScratch() any {
	sc := &groupScratch{sum: make([]float64, g.width)}
	if g.bin != nil {
		m := g.mp + g.mq
		sc.counts = make([]float64, len(g.weight))
		// One word beyond the last point's, so that rank(m) reads a word.
		sc.bits = make([]uint64, m/64+1)
		sc.ranks = make([]int32, len(sc.bits))
	}
	return sc
}

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
	sc := scratch.(*groupScratch)
	sum := sc.sum
	clear(sum)
	w := g.width
	group := perm[:g.mp]
	if g.mq < g.mp {
		group = perm[g.mp:]
	}
	sum = sum[:w]
	if g.bin != nil {
		// Count the group's points per bin, then weight the bins' rows.
		counts := sc.counts
		clear(counts)
		for _, r := range group {
			counts[g.bin[r]]++
		}
		g.binSums(counts, sum)
		g.fill(sum, dst)
		return
	}
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
	g.fill(sum, dst)
}

// binSums sets sum to the bins' rows weighted by the group's counts per
// bin: each value the dot product of the counts with its column of the
// bins' values (cols), the same sums for the observed and every permuted
// labelling.
func (g *groupSums) binSums(counts, sum []float64) {
	n := len(counts)
	for j := range sum {
		sum[j] = floats.Dot(counts, g.cols[j*n:(j+1)*n])
	}
}

// fill writes the values of the labelling whose smaller group's rows sum
// to sum (P's group when m_P ≤ m_Q, otherwise Q's) into dst: see values.
func (g *groupSums) fill(sum, dst []float64) {
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

// drawValues writes the values of a uniformly random labelling drawn from
// rnd, for binned points (bin set): the values depend on the labelling only
// through the smaller group's count of points in each bin, so it draws
// those counts, a multivariate hypergeometric vector, without placing
// m_P points. With the points laid out bin after bin, a bit per point:
// each bit is set independently with probability about f, the smaller
// group's share (drawnShare), so that given their number the set bits are
// a uniformly random subset of that size; then uniformly random set bits
// are cleared, or clear bits set, one at a time, until the number is the
// group's. Every step is exchangeable in the points, so the set bits are a
// uniformly random subset of the group's size, as a shuffle of the points
// gives; each bin's count is the number of set bits in its range. It costs
// about m/64 draws of 64 bits per binary digit of the share and about
// m·|share − f|/f single draws for the correction, where a shuffle draws
// min(m_P, m_Q) positions; a group of fewer than m/directShare points
// starts from no bit set and sets its points one at a time (each try
// succeeds with probability above 1 − 1/directShare), so that a share
// just above a binary digit's reach (1/64 for 1/128 of the points) does
// not cost m/2 tries of clearing.
func (g *groupSums) drawValues(rnd *rand.Rand, scratch any, dst []float64) {
	sc := scratch.(*groupScratch)
	m := g.mp + g.mq
	size := min(g.mp, g.mq)
	bits := sc.bits
	num, digits := drawnShare(size, m)
	set := 0
	if size < m/directShare {
		// A small group: its points drawn one at a time, without the
		// Bernoulli words (see directShare).
		num, digits = 0, 0
	}
	for i := range bits {
		if i*64 >= m {
			bits[i] = 0
			continue
		}
		// Bernoulli(num/2^digits) bits: from the last binary digit to the
		// first, a set digit ORs a uniform word in, a clear one ANDs.
		var x uint64
		if digits == 0 {
			bits[i] = 0
			continue
		}
		for d := range digits {
			if num>>d&1 == 1 {
				x |= rnd.Uint64()
			} else {
				x &= rnd.Uint64()
			}
		}
		if rest := m - i*64; rest < 64 {
			x &= 1<<rest - 1
		}
		bits[i] = x
		set += mbits.OnesCount64(x)
	}
	for set > size {
		j := rnd.IntN(m)
		if b := uint64(1) << (j & 63); bits[j>>6]&b != 0 {
			bits[j>>6] &^= b
			set--
		}
	}
	for set < size {
		j := rnd.IntN(m)
		if b := uint64(1) << (j & 63); bits[j>>6]&b == 0 {
			bits[j>>6] |= b
			set++
		}
	}
	// rank(p) = the set bits before position p.
	ranks := sc.ranks
	r := int32(0)
	for i, x := range bits {
		ranks[i] = r
		r += int32(mbits.OnesCount64(x))
	}
	rank := func(p int) float64 {
		return float64(ranks[p>>6] + int32(mbits.OnesCount64(bits[p>>6]&(1<<(p&63)-1))))
	}
	counts := sc.counts
	prev, at := 0.0, 0
	for b, n := range g.weight {
		at += int(n)
		next := rank(at)
		counts[b] = next - prev
		prev = next
	}
	sum := sc.sum[:g.width]
	clear(sum)
	g.binSums(counts, sum)
	g.fill(sum, dst)
}

// directShare sets the groups drawValues draws point by point: those of
// fewer than m/directShare of the m points, whose Bernoulli words at the
// nearest share of at most six binary digits could set twice the group's
// size (reviewed: a group of 160 of 20 000 cost 77 µs a permutation, the
// even split 5.7).
const directShare = 16

// drawnShare returns the probability num/2^digits with which drawValues
// sets each bit for a group of size of m points: the share size/m to
// within 1/128, with the fewest binary digits (one for an even split), so
// that the bits cost few draws and the correction few more.
func drawnShare(size, m int) (num uint64, digits int) {
	f := float64(size) / float64(m)
	for digits = 1; ; digits++ {
		scale := float64(uint64(1) << digits)
		num = uint64(math.Round(f * scale))
		if math.Abs(float64(num)/scale-f) <= 1.0/128 || digits == 6 {
			return num, digits
		}
	}
}

// testBins is the number of bins of the pooled values over which the
// two-sample test of one column computes its features: a permutation then
// counts a group's points per bin and weights testBins rows, instead of
// summing a row per point, and the kernel values are computed at the bins
// alone. The bins are runs of the sorted pooled values at evenly spaced
// ranks, about 20 points each at the test's cap of 20 000 points: at the
// test's kernel widths (the median heuristic's distance and more) the
// values within a bin differ by a small fraction of a width.
const testBins = 1000

// binValues bins the pooled one-column points x (m × 1, P's first), whose
// increasing order is order, into at most testBins bins of consecutive
// ranks, each ending at a rank j·m/testBins or at the first change of
// value after it (so that equal values share a bin), and returns each bin's
// mean value (a column); it sets g.bin to each point's bin and g.weight to
// each bin's number of points. The bins are a function of the pooled
// values as a set, whatever the labels: a statistic of the binned points is
// still a fixed function of the pooled sample and the labels. With at most
// testBins points, each distinct value is its own bin and the binned
// statistic is the unbinned one.
func (g *groupSums) binValues(x *mat.Dense, order []int) *mat.Dense {
	m, _ := x.Dims()
	vals := x.RawMatrix().Data
	stride := x.RawMatrix().Stride
	g.bin = make([]int32, m)
	var sums []float64
	g.weight = g.weight[:0]
	next := 0 // the rank at which the next bin may start
	for i, r := range order {
		v := vals[r*stride]
		if i == 0 || (i >= next && v != vals[order[i-1]*stride]) {
			sums, g.weight = append(sums, 0), append(g.weight, 0)
			// The next bin starts at the first rank j·m/testBins after i.
			j := i*testBins/m + 1
			next = (j*m + testBins - 1) / testBins
		}
		b := len(sums) - 1
		sums[b] += v
		g.weight[b]++
		g.bin[r] = int32(b)
	}
	for b := range sums {
		sums[b] /= g.weight[b]
	}
	return mat.NewDense(len(sums), 1, sums)
}
