// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package divergence

import (
	"errors"
	"testing"
)

// TestMemoryGrowsWithSettings checks that each bound grows with the
// settings that cost memory, and that its dominant terms are those of the
// formulas: the cross-validation's w·(8f+4)·k² words and the draws' D·k·(4+d).
func TestMemoryGrowsWithSettings(t *testing.T) {
	t.Parallel()
	base := PESettings{Settings: Settings{Workers: 2}}
	at := func(mod func(s *PESettings)) float64 {
		s := base
		mod(&s)
		return s.Memory(100_000, 100_000, 2)
	}
	def := at(func(*PESettings) {})
	for name, mod := range map[string]func(s *PESettings){
		"k":     func(s *PESettings) { s.K = 1000 },
		"m":     func(s *PESettings) { s.M = 100_000 },
		"draws": func(s *PESettings) { s.Draws = 10_000 },
		"folds": func(s *PESettings) { s.Folds = 20 },
	} {
		if got := at(mod); !(got > def) {
			t.Errorf("raising %s: %g bytes, not more than the default's %g", name, got, def)
		}
	}
	k1000 := at(func(s *PESettings) { s.K = 1000 })
	if cv := 8 * 2 * (8*5 + 4) * 1000.0 * 1000; k1000 < cv {
		t.Errorf("k = 1000: %g bytes, less than its cross-validation's %g", k1000, cv)
	}
	if fixed := at(func(s *PESettings) { s.K, s.Sigma, s.Lambda = 1000, 1, 1 }); !(fixed < k1000/2) {
		t.Errorf("k = 1000 with σ and λ fixed: %g bytes, want far less than %g (no cross-validation)", fixed, k1000)
	}
	draws := at(func(s *PESettings) { s.Draws = 1_000_000 })
	if want := 8 * 1e6 * 100 * 6.0; draws < want {
		t.Errorf("a million draws: %g bytes, less than the draws kept, %g", draws, want)
	}
	ts := TwoSampleSettings{PESettings: base, Permutations: 1_000_000}
	if small := (&TwoSampleSettings{PESettings: base}).Memory(1000, 1000, 2); !(ts.Memory(1000, 1000, 2) > small+8*1e6*float64(len(PermutationSigmaScales()))) {
		t.Errorf("a million permutations: %g bytes, the default %g", ts.Memory(1000, 1000, 2), small)
	}
	ls := LSMISettings{Settings: Settings{Workers: 2}}
	is := IndependenceSettings{LSMISettings: ls}
	rs := RankSettings{LSMISettings: ls}
	if !(is.Memory(1000, 1, 1) > ls.Memory(1000, 1, 1)) || !(rs.Memory(1000, 10, 1) > ls.Memory(1000, 1, 1)) {
		t.Error("a test or a ranking bounded below its LSMI")
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	var se *SettingsError
	for name, err := range map[string]error{
		"K":         (&PESettings{Settings: Settings{K: -1}}).Validate(),
		"Sigma":     (&PESettings{Sigma: 1e-310}).Validate(),
		"SigmaY":    (&LSMISettings{SigmaY: -1}).Validate(),
		"Perm":      (&TwoSampleSettings{Permutations: -1}).Validate(),
		"IndPerm":   (&IndependenceSettings{Permutations: MaxPermutations + 1}).Validate(),
		"RankPerm":  (&RankSettings{PValuePermutations: -2}).Validate(),
		"Folds":     (&Settings{Folds: 1}).Validate(),
		"alpha":     ValidateAlpha(1),
		"alpha NaN": ValidateAlpha(-0.5),
	} {
		if !errors.As(err, &se) || !errors.Is(err, ErrSettings) {
			t.Errorf("%s: %v, want a *SettingsError", name, err)
		}
	}
	if err := errors.Join((&PESettings{}).Validate(), (&RankSettings{}).Validate(), ValidateAlpha(0), ValidateAlpha(DefaultAlpha)); err != nil {
		t.Errorf("defaults: %v", err)
	}
}
