// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package errs

import (
	"errors"
	"fmt"
	"testing"
)

func TestSettingsError(t *testing.T) {
	for _, tc := range []struct {
		err  *SettingsError
		want string
	}{
		{&SettingsError{Package: "divergence", Field: "K", Value: -1, Allowed: "need 1 to 10000 centres", Default: "DefaultK"},
			"divergence: bad settings: K = -1: need 1 to 10000 centres (0: DefaultK)"},
		{&SettingsError{Package: "changepoint", Field: "Step", Value: -2, Allowed: "need 1 row or more (0: every row)"},
			"changepoint: bad settings: Step = -2: need 1 row or more (0: every row)"},
		{&SettingsError{Field: "alpha", Value: 1.0, Allowed: "α must lie in [0, 1)"},
			"bad settings: alpha = 1: α must lie in [0, 1)"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
		wrapped := fmt.Errorf("context: %w", tc.err)
		if !errors.Is(wrapped, ErrSettings) {
			t.Errorf("errors.Is(%v, ErrSettings) = false", wrapped)
		}
	}
}

func TestKind(t *testing.T) {
	e := Kind("too few rows", ErrTooFew)
	if e.Error() != "too few rows" {
		t.Errorf("Error() = %q", e.Error())
	}
	if !errors.Is(fmt.Errorf("x: %w", e), ErrTooFew) || errors.Is(e, ErrSettings) {
		t.Errorf("Kind's error is not exactly its kind")
	}
}
