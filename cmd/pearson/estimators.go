// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"

	"github.com/sublinear/pearson/divergence"
)

// estimatorSettings are the settings an estimating command hands its
// library entry point, common and its own together: what the pipeline
// validates and bounds the memory of before any work, through this one
// interface whatever the command.
type estimatorSettings interface {
	// Validate is the library's check of the settings (and of α).
	Validate() error
	// memory is the library's bound of the memory the estimate holds
	// beyond its samples, on samples of shape sh (divergence's Memory
	// methods).
	memory(sh shape) float64
	// work is the kernel arithmetic the run asks for on samples of shape
	// sh, which checkWork bounds.
	work(sh shape) estimateWork
}

// estimateWork is the kernel arithmetic of a run: estimates estimates
// (rank's features; one otherwise), each averaging over points points with
// centres centres in each of draws draws.
type estimateWork struct {
	points, centres, draws float64
	estimates              int
}

// drawWork is the work of one estimate with settings s on samples of rows
// rows together.
func drawWork(s divergence.Settings, rows int) estimateWork {
	w := s.Work(rows)
	return estimateWork{points: float64(w.Points), centres: float64(w.Centres), draws: float64(w.Draws), estimates: 1}
}

// peSettings are the settings of RelativePE with its α.
type peSettings struct {
	s     divergence.PESettings
	alpha float64
}

func (p peSettings) Validate() error {
	return errors.Join(divergence.ValidateAlpha(p.alpha), p.s.Validate())
}
func (p peSettings) memory(sh shape) float64 { return p.s.Memory(sh.ra, sh.rb, sh.ca) }
func (p peSettings) work(sh shape) estimateWork {
	return drawWork(p.s.Settings, sh.ra+sh.rb)
}

// twoSampleSettings are the settings of TwoSampleTest with its α.
type twoSampleSettings struct {
	s     divergence.TwoSampleSettings
	alpha float64
}

func (t twoSampleSettings) Validate() error {
	return errors.Join(divergence.ValidateAlpha(t.alpha), t.s.Validate())
}
func (t twoSampleSettings) memory(sh shape) float64 { return t.s.Memory(sh.ra, sh.rb, sh.ca) }
func (t twoSampleSettings) work(sh shape) estimateWork {
	return drawWork(t.s.Settings, sh.ra+sh.rb)
}

// miSettings are the settings of LSMI, and of IndependenceTest with
// Permutations (a p-value asked for).
type miSettings struct {
	s divergence.IndependenceSettings
}

func (m miSettings) Validate() error { return m.s.Validate() }
func (m miSettings) work(sh shape) estimateWork {
	return drawWork(m.s.Settings, sh.ra)
}
func (m miSettings) memory(sh shape) float64 {
	if m.s.Permutations == 0 {
		return m.s.LSMISettings.Memory(sh.ra, sh.ca, sh.cb)
	}
	return m.s.Memory(sh.ra, sh.ca, sh.cb)
}

// rankSettings are the settings of Rank.
type rankSettings struct{ s divergence.RankSettings }

func (r rankSettings) Validate() error         { return r.s.Validate() }
func (r rankSettings) memory(sh shape) float64 { return r.s.Memory(sh.ra, sh.ca, sh.cb) }

// work counts each feature's estimate on its own: they run one after the
// other, each under the bound, with progress shown feature by feature.
func (r rankSettings) work(sh shape) estimateWork {
	w := drawWork(r.s.Settings, sh.ra)
	w.estimates = max(sh.ca, 1)
	return w
}

// What the pipeline asks of each estimating command besides its run: its
// library settings with b permutations (see command.estimatorSettings),
// its permutations, and the shape of its samples before they are read.

func (d *peCmd) estimatorSettings(s divergence.Settings, _ int) estimatorSettings {
	return peSettings{s: d.settings(s), alpha: d.alpha}
}

func (t *testCmd) estimatorSettings(s divergence.Settings, b int) estimatorSettings {
	ts := divergence.TwoSampleSettings{PESettings: t.settings(s), Permutations: b}
	if t.budgetSet {
		ts.Points = s.M // as estimate runs it
	}
	return twoSampleSettings{s: ts, alpha: t.alpha}
}

func (m *miCmd) estimatorSettings(s divergence.Settings, b int) estimatorSettings {
	return miSettings{divergence.IndependenceSettings{LSMISettings: m.settings(s), Permutations: b}}
}

func (k *rankCmd) estimatorSettings(s divergence.Settings, b int) estimatorSettings {
	return rankSettings{divergence.RankSettings{LSMISettings: k.settings(s), PValuePermutations: b}}
}
