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
	// whose cell in the first data row parses as a number, except the Group column
	// and columns whose header name is empty.
	Columns []string
	// Group names a column whose values split the rows into groups (any strings, e.g. "A","B","ctl").
	// Empty means no grouping (one group, key "").
	Group string
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
	table  Table
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
	if len(rd.cols) > 0 {
		rd.setColumns()
	}
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

// selectDefault chooses the numeric columns from the first data row rec, at
// line.
func (rd *reader) selectDefault(rec []string, line int) error {
	count := make(map[string]int, len(rd.header))
	for _, h := range rd.header {
		count[h]++
	}
	for i, h := range rd.header {
		if i == rd.gcol || h == "" {
			continue
		}
		if _, err := parseNumber(rec[i]); err == ErrEmptyCell || err == ErrNotNumber {
			continue
		}
		// A number, possibly non-finite: the column is numeric and the
		// non-finite cell is reported when the row is read.
		if count[h] > 1 {
			return &ParseError{File: rd.name, Line: rd.hline, Column: h, Index: i + 1, Err: ErrDuplicateColumn,
				msg: "the header has several columns with this name; rename them or name the columns to read"}
		}
		rd.cols = append(rd.cols, column{name: h, index: i})
	}
	if len(rd.cols) > 0 {
		return nil
	}
	msg := "no column holds a number in the first data row"
	if len(rd.header) == 1 {
		if d, ok := likelyDelimiter(rd.header[0], rd.delim); ok && d != ' ' {
			msg += fmt.Sprintf("; the header has a single field %s: is the delimiter %s? (use --delimiter %s)",
				quote(rd.header[0]), strconv.QuoteRune(d), strconv.QuoteRune(d))
		}
	}
	return &ParseError{File: rd.name, Line: line, Err: ErrNoNumericColumns, msg: msg}
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
		if rd.row == nil {
			if err := rd.selectDefault(rec, line); err != nil {
				return err
			}
			rd.setColumns()
		}
		if err := rd.addRow(rec, line); err != nil {
			return err
		}
	}
	if dataRows == 0 {
		return &ParseError{File: rd.name, Line: rd.hline, Err: ErrNoRows, msg: "the header is not followed by any data row"}
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
	missing := false
	var gs *groupState
	if rd.gcol >= 0 {
		key := strings.TrimSpace(rec[rd.gcol])
		if key == "" {
			if !rd.opts.DropMissing {
				return rd.cellError(rec, rd.gcol, line, ErrEmptyCell)
			}
			missing = true
		} else if gs = rd.byKey[key]; gs == nil {
			gs = &groupState{g: Group{Key: strings.Clone(key)}, firstLine: line}
			rd.byKey[gs.g.Key] = gs
			rd.groups = append(rd.groups, gs)
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
	if missing {
		rd.table.Dropped++
		return nil
	}
	if rd.opts.Each != nil {
		gs.g.Rows++
		return rd.opts.Each(gs.g.Key, line, row)
	}
	rd.keep(gs, row, line)
	return nil
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
