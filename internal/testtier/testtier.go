// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package testtier is the one switch between the project's two test tiers.
//
// The default tier, `go test ./...`, covers every package and every
// behaviour a user depends on, and ends within three minutes on a 2-core
// machine. The long tier adds the statistical studies: coverage of error
// bars over many seeds, power and calibration of the tests over hundreds of
// repetitions, streams of millions of rows. It runs when the environment
// variable PEARSON_LONG is set to 1:
//
//	PEARSON_LONG=1 go test -timeout 60m ./...
//
// A test of the long tier starts with Long(t); a test that runs in both tiers
// at two sizes picks its size with Pick. .ci/run runs the default tier under
// the race detector and then everything once without it. No test reads
// -short: this is the one switch.
//
// The race detector is a build mode, not a tier: tests of single-threaded
// statistical arithmetic skip themselves under it with SkipUnderRace (they
// gain nothing from it and .ci/run runs them without it), and tests that
// time a cancellation scale their limit with Race.
package testtier

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Env is the environment variable that turns the long tier on: any value but
// "" and "0".
const Env = "PEARSON_LONG"

// Enabled reports whether the long tier is on.
func Enabled() bool {
	v := os.Getenv(Env)
	return v != "" && v != "0"
}

// Long skips t unless the long tier is on; why says what the test costs
// (for example "600 permutation tests").
func Long(t testing.TB, why string) {
	t.Helper()
	if !Enabled() {
		t.Skipf("long tier (%s): set %s=1 to run it", why, Env)
	}
}

// Pick returns quick in the default tier and long in the long tier: the
// number of seeds, repetitions or rows of a test that runs in both.
func Pick[T any](quick, long T) T {
	if Enabled() {
		return long
	}
	return quick
}

// SkipUnderRace skips t when the race detector is on: for tests that repeat
// single-threaded arithmetic many times and gain nothing from the detector.
func SkipUnderRace(t testing.TB) {
	t.Helper()
	if Race {
		t.Skip("statistical test: its arithmetic gains nothing from the race detector; .ci/run runs it without -race")
	}
}

// FixtureDir returns the directory in which benchmarks keep the large inputs
// they write once and measure on every run (gigabytes at 10⁸ rows):
// pearson-bench in the temporary directory ($TMPDIR or /tmp, the file
// system of t.TempDir, so that a fixture can be hard-linked into a test's
// own directory), made if need be. The scripts that write fixtures with
// other writers (scripts/bench-data.mjs, scripts/e2e-bench.sh) take it as
// their directory.
func FixtureDir(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join(os.TempDir(), "pearson-bench")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// Count formats n for the name of a sub-benchmark: a power of ten as 1e6,
// anything else in digits.
func Count(n int) string {
	s := strconv.Itoa(n)
	if len(s) > 1 && s[0] == '1' && strings.Trim(s[1:], "0") == "" {
		return "1e" + strconv.Itoa(len(s)-1)
	}
	return s
}
