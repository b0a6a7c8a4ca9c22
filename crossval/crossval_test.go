// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package crossval

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"
)

// bowl scores (x, y) by (log x − log x₀)² + (log y − log y₀)².
func bowl(rows, cols []float64, x0, y0 float64) RowScore {
	return func(_ context.Context, i int) ([]float64, error) {
		s := make([]float64, len(cols))
		for j, y := range cols {
			s[j] = math.Pow(math.Log(rows[i]/x0), 2) + math.Pow(math.Log(y/y0), 2)
		}
		return s, nil
	}
}

func TestSearch(t *testing.T) {
	rows := LogGrid(0.1, 10, 9)
	cols := LogGrid(1e-3, 1, 7)
	var first *Table[float64]
	for _, workers := range []int{1, 2, 5} {
		tab, err := Search(context.Background(), rows, cols, bowl(rows, cols, 1, 0.01), workers)
		if err != nil {
			t.Fatal(err)
		}
		if r, c := tab.Best(); math.Abs(r-1) > 1e-12 || math.Abs(c-0.01) > 1e-12 {
			t.Errorf("best (%v, %v), want (1, 0.01)", r, c)
		}
		if tab.Edges().Any() {
			t.Errorf("interior optimum reported on an edge: %+v", tab.Edges())
		}
		if first != nil && !reflect.DeepEqual(first, tab) {
			t.Errorf("workers=%d: table differs", workers)
		}
		first = tab
	}
	// Optimum beyond the grid: on the high row edge and the low column edge.
	tab, err := Search(context.Background(), rows, cols, bowl(rows, cols, 100, 1e-6), 2)
	if err != nil {
		t.Fatal(err)
	}
	if e := tab.Edges(); !e.RowHigh || !e.ColLow || e.RowLow || e.ColHigh {
		t.Errorf("edges %+v, want RowHigh and ColLow", e)
	}
	// A single column has no edge.
	tab, err = Search(context.Background(), rows, []float64{1}, bowl(rows, []float64{1}, 1e9, 1), 2)
	if err != nil || tab.Edges().ColLow || tab.Edges().ColHigh || !tab.Edges().RowHigh {
		t.Errorf("one column: %+v, %v", tab.Edges(), err)
	}
}

func TestSearchNonFiniteAndErrors(t *testing.T) {
	rows, cols := []float64{1, 2}, []float64{1, 2}
	nan := func(_ context.Context, i int) ([]float64, error) {
		if i == 0 {
			return []float64{math.NaN(), 3}, nil
		}
		return []float64{math.Inf(-1), 5}, nil
	}
	tab, err := Search(context.Background(), rows, cols, nan, 1)
	if err != nil || tab.BestRow != 0 || tab.BestCol != 1 || !math.IsInf(tab.Scores[1][0], 1) {
		t.Errorf("non-finite scores: %+v, %v", tab, err)
	}
	allNaN := func(context.Context, int) ([]float64, error) { return []float64{math.NaN(), math.NaN()}, nil }
	if _, err := Search(context.Background(), rows, cols, allNaN, 1); !errors.Is(err, ErrNoScore) {
		t.Errorf("all NaN: %v", err)
	}
	boom := errors.New("boom")
	failing := func(_ context.Context, i int) ([]float64, error) {
		if i == 1 {
			return nil, boom
		}
		return []float64{1, 1}, nil
	}
	if _, err := Search(context.Background(), rows, cols, failing, 2); !errors.Is(err, boom) {
		t.Errorf("failing row: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(ctx, rows, cols, bowl(rows, cols, 1, 1), 2); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestLogGrid(t *testing.T) {
	g := LogGrid(0.01, 100, 5)
	for i, want := range []float64{0.01, 0.1, 1, 10, 100} {
		if math.Abs(g[i]-want) > 1e-12*want {
			t.Errorf("LogGrid[%d] = %v, want %v", i, g[i], want)
		}
	}
	if g := LogGrid(3, 7, 1); len(g) != 1 || g[0] != 3 {
		t.Errorf("one point: %v", g)
	}
}
