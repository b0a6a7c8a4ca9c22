// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package qmin

import (
	"errors"

	"github.com/sublinear/pearson/errs"
)

// Errors returned by the package, wrapped with details; test for them with
// errors.Is. ErrNonFinite, ErrSettings and ErrTooLarge are the shared values
// of package errs.
var (
	// ErrUnbounded means the quadratic function has no minimum: its matrix
	// has a negative eigenvalue, or it is singular and the linear term has a
	// component along its null space. A box constraint makes every problem
	// bounded.
	ErrUnbounded = errors.New("the quadratic function is unbounded below")

	// ErrIllConditioned means the quadratic function's matrix is positive
	// definite as computed, so the function has a minimum, but it is so
	// close to singular that the linear term cannot be resolved along its
	// weakest directions: no value could be trusted. More regularisation
	// (a larger d) fixes it.
	ErrIllConditioned = errors.New("the quadratic function is too ill-conditioned to minimise")

	// ErrNonFinite means an entry of A, d or b, or a value computed from
	// them, is NaN or infinite.
	ErrNonFinite = errs.ErrNonFinite

	// ErrShape means the sizes of a problem's parts disagree, or the
	// dimension n is less than 1.
	ErrShape = errors.New("bad shape")

	// ErrSettings means a field of Settings is out of range, such as k < 1.
	ErrSettings = errs.ErrSettings

	// ErrTooLarge means a requested block would not fit in the memory the
	// package allows itself (see MaxK).
	ErrTooLarge = errs.ErrTooLarge
)
