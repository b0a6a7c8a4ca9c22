// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package errs_test

import (
	"errors"
	"fmt"

	"github.com/sublinear/pearson/errs"
)

// A caller tells a bad setting from bad data once, whichever package
// reported it, and names the setting from the error's fields.
func ExampleSettingsError() {
	var err error = fmt.Errorf("reading: %w", &errs.SettingsError{Package: "divergence", Field: "K", Value: -1, Allowed: "need 1 to 10000 centres", Default: "DefaultK"})
	var se *errs.SettingsError
	if errors.As(err, &se) {
		fmt.Println(errors.Is(err, errs.ErrSettings), se.Field, se.Value, se.Default != "")
	}
	fmt.Println(err)
	// Output:
	// true K -1 true
	// reading: divergence: bad settings: K = -1: need 1 to 10000 centres (0: DefaultK)
}
