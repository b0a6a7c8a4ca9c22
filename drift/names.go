// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

// JointName is the Name of the joint row's ColumnResult (Result.Joint), in
// every output that lists it beside the columns.
const JointName = "(joint)"
