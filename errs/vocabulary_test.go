// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package errs_test

import (
	"context"
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/changepoint"
	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/drift"
	"github.com/sublinear/pearson/errs"
	"github.com/sublinear/pearson/qmin"
)

// TestOneVocabulary checks that a bad setting of every package is the same
// kind of error, whichever package's name a caller tests with, and that the
// packages' names of a kind are one value.
func TestOneVocabulary(t *testing.T) {
	if divergence.ErrSettings != changepoint.ErrSettings || divergence.ErrSettings != qmin.ErrSettings || divergence.ErrSettings != drift.ErrSettings {
		t.Error("the packages' ErrSettings are different values")
	}
	if divergence.ErrNonFinite != changepoint.ErrNonFinite || divergence.ErrNonFinite != qmin.ErrNonFinite {
		t.Error("the packages' ErrNonFinite are different values")
	}
	if !errors.Is(dataset.ErrNonFinite, divergence.ErrNonFinite) {
		t.Error("dataset.ErrNonFinite is not an ErrNonFinite")
	}
	if !errors.Is(changepoint.ErrTooFew, divergence.ErrTooFew) || !errors.Is(divergence.ErrTooLarge, qmin.ErrTooLarge) {
		t.Error("a package's own wording of a shared kind is not that kind")
	}

	_, cpErr := changepoint.NewDetector(1, 0.5, &changepoint.Settings{Window: 1})
	_, divErr := divergence.RelativePE(context.Background(), mat.NewDense(2, 1, []float64{0, 1}), mat.NewDense(2, 1, []float64{0, 1}), 0.5, &divergence.PESettings{Settings: divergence.Settings{K: -1}})
	_, driftErr := drift.NewReference([]drift.Column{{Name: "x", Values: []float64{0, 1}}}, &drift.Settings{Level: 2})
	p, err := qmin.NewDense(mat.NewDense(2, 2, []float64{1, 0, 0, 1}), []float64{1, 1}, []float64{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	_, qminErr := qmin.Estimate(p, &qmin.Settings{K: -1})
	for name, err := range map[string]error{"changepoint": cpErr, "divergence": divErr, "drift": driftErr, "qmin": qminErr} {
		for _, kind := range []error{errs.ErrSettings, divergence.ErrSettings, changepoint.ErrSettings, qmin.ErrSettings} {
			if !errors.Is(err, kind) {
				t.Errorf("%s: errors.Is(%v, ErrSettings) = false", name, err)
			}
		}
	}
	var se *errs.SettingsError
	if !errors.As(cpErr, &se) || se.Package != "changepoint" || se.Field != "Window" || se.Default != "DefaultWindow" {
		t.Errorf("changepoint's error %#v: want Package changepoint, Field Window, Default DefaultWindow", se)
	}
	if !errors.As(driftErr, &se) || se.Package != "drift" || se.Field != "Level" {
		t.Errorf("drift's error %#v: want Package drift, Field Level", se)
	}
}
