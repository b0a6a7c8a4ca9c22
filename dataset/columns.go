// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// decide classifies, for the default selection, the columns still
// undecided by the data row rec at line: a column whose cell is a number (a
// non-finite one included, which is then reported when the row is read) is
// kept, one whose cell is text is left out (Table.Skipped), and one whose
// cell is empty stays undecided, since an empty cell is missing, not text.
//
// A column kept after rows were read was empty in all of them: without
// DropMissing that is an error at the first data row; with it, those rows
// are dropped (the kept rows forgotten), unless they were passed to Scan's function.
func (rd *reader) decide(rec []string, line int) error {
	var added []int
	undecided := rd.undecided[:0]
	for _, i := range rd.undecided {
		_, err := parseNumber(rec[i])
		if rd.q.NA && isMissingWord(rec[i]) {
			err = ErrEmptyCell
		}
		switch err {
		case ErrEmptyCell:
			undecided = append(undecided, i)
		case ErrNotNumber:
			l := line
			if fl, _ := rd.cr.FieldPos(i); fl > 0 {
				l = fl
			}
			rd.table.Skipped = append(rd.table.Skipped, Skipped{Column: rd.header[i], Index: i + 1, Line: l, Value: strings.Clone(strings.TrimSpace(rec[i]))})
		default:
			added = append(added, i)
		}
	}
	rd.undecided = undecided
	if len(added) > 0 {
		if err := rd.addColumns(added, rec, line); err != nil {
			return err
		}
	}
	if len(rd.cols) > 0 || len(rd.undecided) > 0 {
		return nil
	}
	msg := "no column holds a number in the first data row"
	if line != rd.firstData {
		msg = "no column holds a number in its first non-empty cell"
	}
	return &ParseError{File: rd.name, Line: line, Err: ErrNoNumericColumns, msg: msg + rd.headerHint()}
}

// addColumns adds the columns at the header indices added, found numeric by
// the row rec at line, to the kept columns, in header order.
func (rd *reader) addColumns(added []int, rec []string, line int) error {
	count := make(map[string]int, len(rd.header))
	for _, h := range rd.header {
		count[h]++
	}
	for _, i := range added {
		h := rd.header[i]
		if count[h] > 1 {
			return &ParseError{File: rd.name, Line: rd.hline, Column: h, Index: i + 1, Err: ErrDuplicateColumn,
				msg: "the header has several columns with this name; rename them or name the columns to read"}
		}
	}
	if rd.rowsSeen > 0 {
		i := added[0]
		why := fmt.Sprintf("the column is numeric: its first value, on line %d, is %s", line, quote(strings.TrimSpace(rec[i])))
		switch {
		case !rd.q.DropMissing:
			return &ParseError{File: rd.name, Line: rd.firstData, Column: rd.header[i], Index: i + 1, Err: ErrEmptyCell,
				msg: "empty cell (" + why + ")"}
		case rd.delivered:
			return &ParseError{File: rd.name, Line: rd.firstData, Column: rd.header[i], Index: i + 1, Err: ErrEmptyCell,
				msg: "empty cell in rows already passed on (" + why + "); name the columns to read"}
		}
		// Every row so far had an empty cell in the column: drop them all.
		for _, gs := range rd.groups {
			rd.table.Dropped += gs.g.Rows
			gs.g.Rows, gs.g.Data, gs.g.Lines = 0, gs.g.Data[:0], gs.g.Lines[:0]
			gs.res = reservoir{}
		}
	}
	for _, i := range added {
		rd.cols = append(rd.cols, column{name: rd.header[i], index: i})
	}
	sort.Slice(rd.cols, func(a, b int) bool { return rd.cols[a].index < rd.cols[b].index })
	rd.setColumns()
	return nil
}

// headerHint suggests another delimiter when the header is a single field
// that holds one, or returns "".
func (rd *reader) headerHint() string {
	if len(rd.header) == 1 {
		if d, ok := likelyDelimiter(rd.header[0], rd.delim); ok && d != ' ' {
			return fmt.Sprintf("; the header has a single field %s: is the delimiter %s? (use --delimiter %s)",
				quote(rd.header[0]), strconv.QuoteRune(d), strconv.QuoteRune(d))
		}
	}
	return ""
}

// finishDefault ends the default selection at the end of the input: the
// columns empty in every row are left out, and it is an error if no column
// is numeric.
func (rd *reader) finishDefault() error {
	if !rd.deflt {
		return nil
	}
	for _, i := range rd.undecided {
		rd.table.Skipped = append(rd.table.Skipped, Skipped{Column: rd.header[i], Index: i + 1})
	}
	if len(rd.cols) > 0 {
		return nil
	}
	names := make([]string, len(rd.undecided))
	for j, i := range rd.undecided {
		names[j] = rd.header[i]
	}
	return &ParseError{File: rd.name, Line: rd.firstData, Err: ErrNoNumericColumns,
		msg: "no column holds a number: " + quoteList(names, 20) + " empty in every row" + rd.headerHint()}
}
