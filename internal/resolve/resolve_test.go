// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package resolve

import "testing"

func TestOrDefault(t *testing.T) {
	if OrDefault(0, 7) != 7 || OrDefault(-1, 7) != -1 || OrDefault(3, 7) != 3 {
		t.Error("OrDefault on ints")
	}
	if OrDefault(0.0, 0.05) != 0.05 || OrDefault(0.5, 0.05) != 0.5 {
		t.Error("OrDefault on floats")
	}
	if OrDefault("", "x") != "x" {
		t.Error("OrDefault on strings")
	}
}
