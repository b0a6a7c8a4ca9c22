package csvtable

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Options says how to read a table.
type Options struct {
	// Delimiter separates fields. Zero means ','.
	Delimiter rune
	// Columns names the numeric columns to keep, in this order. Empty means every column
	// whose first non-empty cell parses as a number, in header order, except the Group
	// column and columns whose header name is empty; the others are listed in
	// Table.Skipped.
	Columns []string
	// Group names a column whose values split the rows into groups (any strings, e.g. "A","B","ctl").
	// Empty means no grouping (one group, key "").
	Group string
	// Groups, when not empty, names the group values whose rows are kept: the
	// rows of other values are still read and validated, but neither kept
	// nor counted (not in Table.Dropped either), and their values are listed
	// in Table.Others.
	Groups []string
	// MaxGroups, when positive, keeps the rows of at most that many group
	// values, the first met; later values are treated as values not in
	// Groups. With Groups and MaxGroups, memory does not grow with the number
	// of distinct group values.
	MaxGroups int
	// DropMissing skips rows in which a kept column (or the group column) is empty, counting them,
	// instead of failing.
	DropMissing bool
	// Reservoir, when positive, keeps a uniform random sample of at most Reservoir rows per group
	// (Li's algorithm L) while counting every row; zero keeps every row. Negative is an error.
	Reservoir int
	// Src is the randomness of the reservoir (math/rand/v2). Nil means rand.NewPCG(1, 2): results are reproducible.
	Src rand.Source
	// Each, when not nil, is called for every valid row in file order with
	// its group's key, its line and its values (a slice reused for the next
	// row: copy what must outlive the call), and no row is kept: the groups
	// of the Table have their row counts but no Data. An error from Each
	// stops the reading and is returned as it is. For streaming a file of any
	// length through a computation.
	Each func(group string, line int, row []float64) error
}

// Table is what Read returns.
type Table struct {
	Name    string   // the file name used in messages ("-" shown as "<stdin>")
	Columns []string // names of the kept numeric columns, in order
	Groups  []Group  // in order of first appearance in the file (exactly one group when Options.Group is empty)
	Dropped int      // rows skipped by DropMissing
	// Skipped lists the named columns that the default selection (empty
	// Options.Columns) left out, in the order they were decided: those whose
	// first non-empty cell is not a number, then those empty in every row.
	Skipped []Skipped
	// Others lists the group values whose rows were not kept (see
	// Options.Groups and Options.MaxGroups), in order of first appearance, at
	// most MaxOthers of them; MoreOthers reports that there were more.
	Others     []string
	MoreOthers bool
}

// MaxOthers is how many group values whose rows are not kept Table.Others
// remembers.
const MaxOthers = 100

// Skipped is a column that the default selection left out.
type Skipped struct {
	Column string // its name
	Index  int    // its 1-based field number
	Line   int    // the line of its first non-empty cell; 0 when it is empty in every row
	Value  string // that cell, trimmed of white space
}

// Group is the rows of one group value.
type Group struct {
	Key   string    // the group column's value ("" without grouping)
	Rows  int       // how many data rows of the file belong to the group and were not dropped (all of them, not only the kept ones)
	Data  []float64 // kept rows, row-major: len(Data) == len(kept rows) * len(Table.Columns)
	Lines []int     // the 1-based file line of each kept row (for messages downstream), increasing
}

// Len returns the number of kept rows.
func (g *Group) Len() int { return len(g.Lines) }

// Row returns kept row i (0 <= i < Len()) as a slice of Data, one value per
// column of the table. It panics if i is out of range.
func (g *Group) Row(i int) []float64 {
	c := len(g.Data) / len(g.Lines)
	return g.Data[i*c : (i+1)*c : (i+1)*c]
}

// displayName is the name used in messages for an input called name.
func displayName(name string) string {
	switch name {
	case "-":
		return "<stdin>"
	case "":
		return "<input>"
	}
	return name
}

// Open reads the file at path as a table (see Read). The path "-" means
// standard input. Errors for missing files, directories and unreadable files
// name the path.
func Open(path string, opts Options) (*Table, error) {
	f, closeFn, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	return Read(f, path, opts)
}

// openInput opens path ("-" for standard input) for reading.
func openInput(path string) (io.Reader, func(), error) {
	if path == "-" {
		return os.Stdin, func() {}, nil
	}
	f, err := OpenFile(path)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// OpenFile opens the file at path for reading, with the package's messages
// for a missing file or a directory. Callers that wrap the stream (to count
// bytes, say) open with it and call Read.
func OpenFile(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("csvtable: %w", err)
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, fmt.Errorf("csvtable: %s: is a directory, not a file", path)
	}
	return f, nil
}

// utf8BOM is the UTF-8 encoding of U+FEFF.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// validDelimiter reports whether encoding/csv accepts d as a field delimiter.
func validDelimiter(d rune) bool {
	return d != 0 && d != '"' && d != '\r' && d != '\n' && utf8.ValidRune(d) && d != utf8.RuneError
}

// newReader returns a csv.Reader on r that skips a leading UTF-8 byte-order
// mark.
func newReader(r io.Reader, name string, delim rune) (*csv.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(len(utf8BOM))
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, readError(name, 0, err)
	}
	if bytes.Equal(head, utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	cr := csv.NewReader(br)
	cr.Comma = delim
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	return cr, nil
}

// readError converts an error returned by csv.Reader.Read that is not io.EOF.
// lastLine is the line of the last record read successfully.
func readError(name string, lastLine int, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		msg := fmt.Sprintf("malformed CSV: %v (byte %d of the line", pe.Err, pe.Column)
		if pe.StartLine != pe.Line {
			msg += fmt.Sprintf(", in the row that starts on line %d", pe.StartLine)
		}
		msg += "; a field containing quotes must be quoted, with inner quotes doubled)"
		return &ParseError{File: name, Line: pe.Line, Err: pe.Err, msg: msg}
	}
	if lastLine > 0 {
		return fmt.Errorf("csvtable: %s: reading after line %d: %w", name, lastLine, err)
	}
	return fmt.Errorf("csvtable: %s: reading: %w", name, err)
}

// isBlankRecord reports whether rec is a line holding only spaces, which
// encoding/csv returns as one field (it skips truly empty lines itself).
func isBlankRecord(rec []string) bool {
	return len(rec) == 1 && strings.TrimSpace(rec[0]) == ""
}

// parseNumber parses a trimmed decimal number. It returns ErrEmptyCell,
// ErrNotNumber or ErrNonFinite on failure.
func parseNumber(s string) (float64, error) {
	s = strings.TrimSpace(s)
	v, err := strconv.ParseFloat(s, 64)
	if err == nil {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, ErrNonFinite
		}
		// strconv also accepts Go syntax: hexadecimal floats and underscores.
		for i := 0; i < len(s); i++ {
			if c := s[i]; c == '_' || c == 'x' || c == 'X' {
				return 0, ErrNotNumber
			}
		}
		return v, nil
	}
	if s == "" {
		return 0, ErrEmptyCell
	}
	if errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) {
		return 0, ErrNonFinite
	}
	return 0, ErrNotNumber
}

// cellMessage describes a cell holding text that failed with kind.
func cellMessage(kind error, text string, delim rune) string {
	switch kind {
	case ErrEmptyCell:
		return "empty cell"
	case ErrNonFinite:
		t := strings.TrimSpace(text)
		if v, err := strconv.ParseFloat(t, 64); errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) {
			return quote(text) + " is too large for a float64 (not a finite number)"
		}
		return quote(text) + " is not a finite number"
	}
	return "cannot parse " + quote(text) + " as a number" + delimiterHint(text, delim)
}

// column is a kept column: its name and position in the header.
type column struct {
	name  string
	index int // 0-based
}

// groupState is a group being read.
type groupState struct {
	g         Group
	firstLine int
	// algorithm L
	logW float64 // log of W
	next int     // 0-based index, among the group's rows, of the next row to take
}

// reader holds the state of one Read.
type reader struct {
	name   string
	opts   Options
	delim  rune
	cr     *csv.Reader
	header []string
	hline  int // line of the header
	cols   []column
	gcol   int // index of the group column, -1 without grouping
	rng    *rand.Rand
	row    []float64 // scratch: the values of the current row
	groups []*groupState
	byKey  map[string]*groupState
	others map[string]bool // the values of Table.Others
	table  Table

	// The default column selection (empty Options.Columns).
	deflt     bool
	undecided []int // header indices of the columns empty in every row so far
	firstData int   // the line of the first data row
	rowsSeen  int   // data rows read before the current one
	delivered bool  // Options.Each has been called
}

// Read reads a table with a header line from r. name is the file name used in
// messages ("-" is shown as "<stdin>"). See the package documentation for the
// accepted dialect.
func Read(r io.Reader, name string, opts Options) (*Table, error) {
	rd := &reader{name: displayName(name), opts: opts, delim: opts.Delimiter, gcol: -1}
	if rd.delim == 0 {
		rd.delim = ','
	}
	if err := rd.checkOptions(); err != nil {
		return nil, err
	}
	cr, err := newReader(r, rd.name, rd.delim)
	if err != nil {
		return nil, err
	}
	rd.cr = cr
	if err := rd.readHeader(); err != nil {
		return nil, err
	}
	if err := rd.readRows(); err != nil {
		return nil, err
	}
	return &rd.table, nil
}

// checkOptions validates the options before reading.
func (rd *reader) checkOptions() error {
	if !validDelimiter(rd.delim) {
		return fmt.Errorf("csvtable: %s: invalid delimiter %q", rd.name, rd.delim)
	}
	if rd.opts.Reservoir < 0 {
		return fmt.Errorf("csvtable: %s: negative reservoir size %d", rd.name, rd.opts.Reservoir)
	}
	seen := make(map[string]bool, len(rd.opts.Columns))
	for _, c := range rd.opts.Columns {
		if c == "" {
			return &ParseError{File: rd.name, Err: ErrUnknownColumn, msg: "empty column name in the list of columns"}
		}
		if seen[c] {
			return &ParseError{File: rd.name, Column: c, Err: ErrDuplicateColumn, msg: "listed twice in the columns to read"}
		}
		seen[c] = true
		if c == rd.opts.Group {
			return &ParseError{File: rd.name, Column: c, Err: ErrGroupIsColumn,
				msg: "is the group column and cannot also be a numeric column"}
		}
	}
	return nil
}

// readHeader reads the header line and resolves the group column and any
// explicitly named columns.
func (rd *reader) readHeader() error {
	rec, err := rd.cr.Read()
	if err == io.EOF {
		return &ParseError{File: rd.name, Err: ErrEmpty, msg: "empty input: no header line"}
	}
	if err != nil {
		return readError(rd.name, 0, err)
	}
	rd.hline, _ = rd.cr.FieldPos(0)
	rd.header = make([]string, len(rec))
	for i, h := range rec {
		rd.header[i] = strings.TrimSpace(h)
	}
	if g := rd.opts.Group; g != "" {
		i, err := rd.lookup(g, "group column")
		if err != nil {
			return err
		}
		rd.gcol = i
	}
	for _, c := range rd.opts.Columns {
		i, err := rd.lookup(c, "column")
		if err != nil {
			return err
		}
		rd.cols = append(rd.cols, column{name: c, index: i})
	}
	if len(rd.opts.Columns) == 0 {
		rd.deflt = true
		for i, h := range rd.header {
			if i != rd.gcol && h != "" {
				rd.undecided = append(rd.undecided, i)
			}
		}
	}
	rd.setColumns()
	return nil
}

// setColumns records the kept columns once they are known.
func (rd *reader) setColumns() {
	rd.table.Columns = make([]string, len(rd.cols))
	for i, c := range rd.cols {
		rd.table.Columns[i] = c.name
	}
	rd.row = make([]float64, len(rd.cols))
}

// lookup returns the index of the header field called name.
func (rd *reader) lookup(name, what string) (int, error) {
	found := -1
	for i, h := range rd.header {
		if h != name {
			continue
		}
		if found >= 0 {
			return 0, &ParseError{File: rd.name, Line: rd.hline, Column: name, Index: i + 1, Err: ErrDuplicateColumn,
				msg: fmt.Sprintf("the header has two columns with this name (fields %d and %d)", found+1, i+1)}
		}
		found = i
	}
	if found >= 0 {
		return found, nil
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "unknown %s: the header has ", what)
	if len(rd.header) == 1 {
		fmt.Fprintf(&msg, "a single field %s", quote(rd.header[0]))
		if d, ok := likelyDelimiter(rd.header[0], rd.delim); ok && d != ' ' {
			fmt.Fprintf(&msg, ": is the delimiter %s? (use --delimiter %s)", strconv.QuoteRune(d), strconv.QuoteRune(d))
		}
	} else {
		fmt.Fprintf(&msg, "%d columns: %s", len(rd.header), quoteList(rd.header, 20))
		for _, h := range rd.header {
			if strings.EqualFold(h, name) {
				fmt.Fprintf(&msg, "; did you mean %s?", quote(h))
				break
			}
		}
	}
	return 0, &ParseError{File: rd.name, Line: rd.hline, Column: name, Err: ErrUnknownColumn, msg: msg.String()}
}

// decide classifies, for the default selection, the columns still
// undecided by the data row rec at line: a column whose cell is a number (a
// non-finite one included, which is then reported when the row is read) is
// kept, one whose cell is text is left out (Table.Skipped), and one whose
// cell is empty stays undecided, since an empty cell is missing, not text.
//
// A column kept after rows were read was empty in all of them: without
// DropMissing that is an error at the first data row; with it, those rows
// are dropped (the kept rows forgotten), unless they were passed to Each.
func (rd *reader) decide(rec []string, line int) error {
	var added []int
	undecided := rd.undecided[:0]
	for _, i := range rd.undecided {
		switch _, err := parseNumber(rec[i]); err {
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
		case !rd.opts.DropMissing:
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
			gs.logW, gs.next = 0, 0
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

// readRows reads the data rows.
func (rd *reader) readRows() error {
	opts := &rd.opts
	rd.table.Name = rd.name
	if opts.Reservoir > 0 {
		src := opts.Src
		if src == nil {
			src = rand.NewPCG(1, 2)
		}
		rd.rng = rand.New(src)
	}
	if rd.gcol >= 0 {
		rd.byKey = make(map[string]*groupState)
	} else {
		rd.groups = []*groupState{{}}
	}
	nh := len(rd.header)
	lastLine := rd.hline
	dataRows := 0
	for {
		rec, err := rd.cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return readError(rd.name, lastLine, err)
		}
		line, _ := rd.cr.FieldPos(0)
		lastLine = line
		if len(rec) != nh {
			if nh > 1 && isBlankRecord(rec) {
				continue
			}
			return &ParseError{File: rd.name, Line: line, Err: ErrRagged,
				msg: fmt.Sprintf("expected %d fields as in the header (line %d), found %d", nh, rd.hline, len(rec))}
		}
		dataRows++
		if dataRows == 1 {
			rd.firstData = line
		}
		if rd.deflt && (dataRows == 1 || len(rd.undecided) > 0) {
			if err := rd.decide(rec, line); err != nil {
				return err
			}
		}
		if err := rd.addRow(rec, line); err != nil {
			return err
		}
		rd.rowsSeen = dataRows
	}
	if dataRows == 0 {
		return &ParseError{File: rd.name, Line: rd.hline, Err: ErrNoRows, msg: "the header is not followed by any data row"}
	}
	if err := rd.finishDefault(); err != nil {
		return err
	}
	return rd.finish(dataRows)
}

// cellError returns the error for field i of rec, at line, failing with kind.
func (rd *reader) cellError(rec []string, i int, line int, kind error) error {
	if l, _ := rd.cr.FieldPos(i); l > 0 {
		line = l
	}
	return &ParseError{File: rd.name, Line: line, Column: rd.header[i], Index: i + 1, Err: kind,
		msg: cellMessage(kind, rec[i], rd.delim)}
}

// addRow validates the data row rec at line and adds it to its group.
func (rd *reader) addRow(rec []string, line int) error {
	missing, other := false, false
	var gs *groupState
	if rd.gcol >= 0 {
		key := strings.TrimSpace(rec[rd.gcol])
		switch {
		case key == "":
			if !rd.opts.DropMissing {
				return rd.cellError(rec, rd.gcol, line, ErrEmptyCell)
			}
			missing = true
		case rd.byKey[key] != nil:
			gs = rd.byKey[key]
		case rd.keepGroup(key):
			gs = &groupState{g: Group{Key: strings.Clone(key)}, firstLine: line}
			rd.byKey[gs.g.Key] = gs
			rd.groups = append(rd.groups, gs)
		default:
			rd.other(key)
			other = true
		}
	} else {
		gs = rd.groups[0]
	}
	row := rd.row
	for j, c := range rd.cols {
		v, err := parseNumber(rec[c.index])
		if err != nil {
			if err == ErrEmptyCell && rd.opts.DropMissing {
				missing = true
				continue
			}
			return rd.cellError(rec, c.index, line, err)
		}
		row[j] = v
	}
	switch {
	case other:
		return nil
	case missing:
		rd.table.Dropped++
		return nil
	case len(rd.cols) == 0:
		// The default selection has found no numeric column yet: the row
		// is counted, and dropped or an error when one is found.
		gs.g.Rows++
		return nil
	case rd.opts.Each != nil:
		gs.g.Rows++
		rd.delivered = true
		return rd.opts.Each(gs.g.Key, line, row)
	}
	rd.keep(gs, row, line)
	return nil
}

// keepGroup reports whether the rows of a group value not met before are
// kept (Options.Groups and Options.MaxGroups).
func (rd *reader) keepGroup(key string) bool {
	if len(rd.opts.Groups) > 0 && !slices.Contains(rd.opts.Groups, key) {
		return false
	}
	return rd.opts.MaxGroups <= 0 || len(rd.groups) < rd.opts.MaxGroups
}

// other records a group value whose rows are not kept, in Table.Others.
func (rd *reader) other(key string) {
	t := &rd.table
	if rd.others[key] || t.MoreOthers {
		return
	}
	if len(t.Others) == MaxOthers {
		t.MoreOthers = true
		return
	}
	if rd.others == nil {
		rd.others = make(map[string]bool)
	}
	key = strings.Clone(key)
	rd.others[key] = true
	t.Others = append(t.Others, key)
}

// keep adds a valid row to group gs, through the reservoir if there is one.
func (rd *reader) keep(gs *groupState, row []float64, line int) {
	g := &gs.g
	i := g.Rows
	g.Rows++
	k := rd.opts.Reservoir
	if k == 0 || i < k {
		g.Data = append(g.Data, row...)
		g.Lines = append(g.Lines, line)
		if i == k-1 {
			gs.logW = math.Log(rd.uniform()) / float64(k)
			gs.next = k
			gs.advance(rd.skip(gs.logW), false)
		}
		return
	}
	if i != gs.next {
		return
	}
	j := rd.rng.IntN(k)
	c := len(row)
	copy(g.Data[j*c:(j+1)*c], row)
	g.Lines[j] = line
	gs.logW += math.Log(rd.uniform()) / float64(k)
	gs.advance(rd.skip(gs.logW), true)
}

// uniform returns a uniform random number in the open interval (0, 1).
func (rd *reader) uniform() float64 {
	return (float64(rd.rng.Uint64()>>12) + 0.5) * 0x1p-52
}

// maxSkip bounds the number of rows skipped at once, to stay clear of
// integer overflow.
const maxSkip = 1 << 62

// skip returns how many rows algorithm L skips before taking the next one:
// floor(log(U) / log(1-W)) for a fresh uniform U.
func (rd *reader) skip(logW float64) int {
	// log(1-W) computed from log W without cancellation.
	den := math.Log(-math.Expm1(logW))
	s := math.Floor(math.Log(rd.uniform()) / den)
	if !(s < maxSkip) { // +Inf or NaN when den is 0 or W underflows
		return maxSkip
	}
	return int(s)
}

// advance sets the index of the next row to take: skip rows after the current
// next one (taken is true) or starting at next (the reservoir was just
// filled, taken is false).
func (gs *groupState) advance(skip int, taken bool) {
	step := skip
	if taken {
		step++
	}
	if gs.next > math.MaxInt-step {
		gs.next = math.MaxInt
		return
	}
	gs.next += step
}

// finish checks the groups and puts the kept rows of each group in file
// order.
func (rd *reader) finish(dataRows int) error {
	t := &rd.table
	t.Groups = make([]Group, 0, len(rd.groups))
	for _, gs := range rd.groups {
		if gs.g.Rows == 0 {
			if rd.gcol < 0 {
				return &ParseError{File: rd.name, Err: ErrNoRows,
					msg: fmt.Sprintf("no data row left: all %d were dropped for empty cells", dataRows)}
			}
			return &ParseError{File: rd.name, Line: gs.firstLine, Column: rd.header[rd.gcol], Index: rd.gcol + 1, Err: ErrNoRows,
				msg: fmt.Sprintf("group %s (first seen here) has no row left: all were dropped for empty cells", quote(gs.g.Key))}
		}
		if gs.g.Rows > len(gs.g.Lines) && len(gs.g.Lines) > 0 {
			sortByLine(&gs.g, len(t.Columns))
		}
		t.Groups = append(t.Groups, gs.g)
	}
	if len(t.Groups) == 0 { // grouping, every row dropped for an empty group value
		return &ParseError{File: rd.name, Err: ErrNoRows,
			msg: fmt.Sprintf("no data row left: all %d were dropped for empty cells", dataRows)}
	}
	return nil
}

// sortByLine reorders the kept rows of g by increasing line.
func sortByLine(g *Group, c int) {
	n := len(g.Lines)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	sort.Slice(perm, func(a, b int) bool { return g.Lines[perm[a]] < g.Lines[perm[b]] })
	data := make([]float64, len(g.Data))
	lines := make([]int, n)
	for i, p := range perm {
		copy(data[i*c:(i+1)*c], g.Data[p*c:(p+1)*c])
		lines[i] = g.Lines[p]
	}
	g.Data, g.Lines = data, lines
}
