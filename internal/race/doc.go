// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package race reports whether the race detector is on, so that tests of
// statistical accuracy, which repeat single-threaded arithmetic thousands of
// times and gain nothing from the detector, can skip themselves under it.
// .ci/run runs the whole suite once without the detector as well.
package race

// SkipReason is the message of such a skip.
const SkipReason = "statistical test: its arithmetic gains nothing from the race detector; .ci/run runs it without -race"
