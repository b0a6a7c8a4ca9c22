// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestClassTarget runs rank and mi on a target of class labels 0, 1, 2:
// detected as categorical by default, scored with the delta kernel, the
// informative feature first; --target-type numeric and --y-type numeric
// turn the detection off; a bad value or --sigma-y with categorical is a
// usage error.
func TestClassTarget(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 3))
	var b strings.Builder
	b.WriteString("noise,signal,class\n")
	for range 600 {
		c := rnd.IntN(3)
		fmt.Fprintf(&b, "%.4f,%.4f,%d\n", rnd.NormFloat64(), float64(c)-1+rnd.NormFloat64(), c)
	}
	path := writeFile(t, "classes.csv", b.String())
	type ranked struct {
		Features []struct {
			Feature string  `json:"feature"`
			SigmaY  float64 `json:"sigma_y"`
		} `json:"features"`
		TargetType string `json:"target_type"`
	}
	for _, c := range []struct {
		args      []string
		want      string
		classSigY bool
	}{
		{nil, "categorical", true},
		{[]string{"--target-type", "categorical"}, "categorical", true},
		{[]string{"--target-type", "numeric"}, "numeric", false},
	} {
		code, out, stderr := run(t, append(append([]string{"rank", "--target", "class", "--format", "json", "--k", "30", "--m", "600"}, c.args...), path)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		var r ranked
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: %v\n%s", c.args, err, out)
		}
		if r.TargetType != c.want || r.Features[0].Feature != "signal" || (r.Features[0].SigmaY == 0.01) != c.classSigY {
			t.Errorf("%v: target_type %q, first %q with σy %v; want %q, signal", c.args, r.TargetType, r.Features[0].Feature, r.Features[0].SigmaY, c.want)
		}
	}
	code, out, stderr := run(t, "mi", "--x", "signal", "--y", "class", "--format", "json", "--k", "30", "--m", "600", path)
	if code != 0 || !strings.Contains(out, `"y_type":"categorical"`) || !strings.Contains(out, `"sigma_y":0.01`) {
		t.Errorf("mi on the class column: exit %d, %s%s", code, out, stderr)
	}
	for _, args := range [][]string{
		{"rank", "--target", "class", "--target-type", "classes", path},
		{"rank", "--target", "class", "--target-type", "categorical", "--sigma-y", "1", path},
		{"mi", "--x", "noise", "--y", "signal,class", "--y-type", "categorical", path},
	} {
		if code, _, stderr := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage): %s", args, code, stderr)
		}
	}
}
