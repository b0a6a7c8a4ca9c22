// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package tabular

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sublinear/pearson/dataset"
)

// TestSelection: named columns less those excluded, the default
// selection's columns less those excluded, and each refusal with its kind:
// an exclusion that leaves nothing (named or not), an excluded column that
// is not there, and the group column.
func TestSelection(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		sel  Selection
		want []string
		kind error
		msg  string
	}{
		{"default", Selection{}, nil, nil, ""},
		{"named", Selection{Columns: []string{"a", "b"}}, []string{"a", "b"}, nil, ""},
		{"named less one", Selection{Columns: []string{"a", "b"}, Exclude: []string{"b"}}, []string{"a"}, nil, ""},
		{"named less all", Selection{Columns: []string{"a"}, Exclude: []string{"a"}}, nil, ErrNoColumn, "--exclude leaves no column: it names every column of --columns"},
		{"features less all", Selection{Columns: []string{"a"}, Exclude: []string{"a"}, List: "features"}, nil, ErrNoColumn, "every column of --features"},
		{"not named", Selection{Columns: []string{"a"}, Exclude: []string{"z"}}, nil, ErrNotListed, `--exclude "z": not among the columns of --columns`},
		{"group", Selection{Columns: []string{"a"}, Exclude: []string{"g"}, Group: "g"}, nil, ErrGroupExcluded, "is the --group column"},
	} {
		got, err := c.sel.Named()
		if !slices.Equal(got, c.want) || !errors.Is(err, c.kind) || c.kind == nil && err != nil || err != nil && !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: Named %q, %v; want %q, %v (%s)", c.name, got, err, c.want, c.kind, c.msg)
		}
	}
	names, skipped := []string{"a", "b"}, []dataset.Skipped{{Column: "s", Line: 2, Value: "x"}}
	for _, c := range []struct {
		name    string
		exclude []string
		group   string
		want    []string
		kind    error
		msg     string
	}{
		{"none", nil, "", names, nil, ""},
		{"one", []string{"a"}, "", []string{"b"}, nil, ""},
		{"a skipped one", []string{"s"}, "", names, nil, ""},
		{"all", []string{"a", "b"}, "", nil, ErrNoColumn, "f.csv: --exclude leaves no column"},
		{"unknown", []string{"z"}, "", nil, ErrNotListed, `f.csv: --exclude "z": no such column (its columns: "a", "b", "s")`},
		{"group", []string{"g"}, "g", nil, ErrGroupExcluded, `f.csv: --exclude "g": it is the --group column`},
	} {
		got, err := Selection{Exclude: c.exclude, Group: c.group}.Kept("f.csv", names, skipped)
		if !slices.Equal(got, c.want) || !errors.Is(err, c.kind) || c.kind == nil && err != nil || err != nil && !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: Kept %q, %v; want %q, %v (%s)", c.name, got, err, c.want, c.kind, c.msg)
		}
	}
}
