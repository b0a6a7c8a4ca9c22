// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sublinear/pearson/internal/testtier"
)

func TestQuick(t *testing.T) {
	testtier.SkipUnderRace(t)
	rep, err := runExperiments(context.Background(), Config{Experiments: []string{Toy, Pearson}, Seeds: 3, Quick: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	paths, err := rep.WriteFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"results.json", "tables.md", "figure1.png", "figure1.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() < 100 {
			t.Errorf("%s: %v", name, err)
		}
	}
	if len(paths) != 4 {
		t.Errorf("paths %v", paths)
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b, &back); err != nil || len(back.Measurements) != len(rep.Measurements) || back.Seeds != 3 {
		t.Fatalf("results.json: %v, %d measurements", err, len(back.Measurements))
	}
	md, err := os.ReadFile(filepath.Join(dir, "tables.md"))
	if err != nil || !strings.Contains(string(md), "Table 2") || !strings.Contains(string(md), "Figure 1") {
		t.Errorf("tables.md: %v\n%s", err, md)
	}
	// The proposed method's error falls with k: at the largest k below
	// the smallest, averaged over the sizes (a single draw per seed, so
	// each mean is noisy, but k = 160 against 10 and 80 against 20 are far
	// apart: 4× and 2× in the error's k^{-1/2} law).
	for _, e := range []string{Toy, Pearson} {
		agg := rep.aggregate(e)
		ns, ks := rep.values(e)
		var lo, hi float64
		for _, n := range ns {
			lo += agg[key(Proposed, n, ks[0])].errMean
			hi += agg[key(Proposed, n, ks[len(ks)-1])].errMean
		}
		t.Logf("%s: mean error %.4g at k = %d, %.4g at k = %d", e, lo/float64(len(ns)), ks[0], hi/float64(len(ns)), ks[len(ks)-1])
		if !(hi < lo) {
			t.Errorf("%s: the error does not fall with k: %.4g at k = %d, %.4g at k = %d", e, lo, ks[0], hi, ks[len(ks)-1])
		}
	}
}

func key(method string, n, k int) [3]string {
	return [3]string{method, fmt.Sprint(n), fmt.Sprint(k)}
}

func TestRunErrors(t *testing.T) {
	if _, err := runExperiments(context.Background(), Config{Experiments: []string{"nope"}, Seeds: 1}); err == nil {
		t.Error("unknown experiment: no error")
	}
	if _, err := runExperiments(context.Background(), Config{Experiments: []string{Toy}, Seeds: 0}); err == nil {
		t.Error("no seeds: no error")
	}
}
