// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package changepoint

// peaks finds change points in a stream of scores in time order: a score
// is a change point if it exceeds the threshold, every score within dist
// rows before it is lower, and no score within dist rows after it is
// higher. A candidate is confirmed once a score more than dist rows later
// arrives (or at the end), so memory holds only the scores of the last
// dist rows.
type peaks struct {
	threshold float64
	dist      int
	recent    []Score // the scores of the last dist rows, in time order
	pending   []Score // candidates whose right neighbourhood is incomplete
}

// add takes the next score and returns the change points it confirms.
func (p *peaks) add(s Score) []Score {
	var done []Score
	keep := p.pending[:0]
	for _, c := range p.pending {
		switch {
		case s.Time-c.Time > p.dist:
			done = append(done, c)
		case s.Value <= c.Value:
			keep = append(keep, c)
		}
	}
	p.pending = keep

	i := 0
	for i < len(p.recent) && s.Time-p.recent[i].Time > p.dist {
		i++
	}
	p.recent = p.recent[i:]
	highest := true
	for _, r := range p.recent {
		if r.Value >= s.Value {
			highest = false
			break
		}
	}
	if highest && s.Value > p.threshold {
		p.pending = append(p.pending, s)
	}
	p.recent = append(p.recent, s)
	return done
}

// flush ends the stream and returns the candidates still pending.
func (p *peaks) flush() []Score {
	done := p.pending
	p.pending, p.recent = nil, nil
	return done
}

// Detect returns the change points among scores in increasing time order:
// the scores above threshold that are the highest within minDistance rows
// on either side (ties go to the earliest), which are therefore more than
// minDistance rows apart. The Detector applies the same rule as it goes.
func Detect(scores []Score, threshold float64, minDistance int) []Score {
	p := &peaks{threshold: threshold, dist: minDistance}
	var out []Score
	for _, s := range scores {
		out = append(out, p.add(s)...)
	}
	return append(out, p.flush()...)
}
