// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/sublinear/pearson/internal/isnil"
)

// Parquet is a Source reading the columns of a Parquet file, or of a
// directory of them, with github.com/parquet-go/parquet-go.
//
// # Files and directories
//
// A directory is read recursively, as Spark, Hive and DuckDB write a
// partitioned dataset: every file whose name ends in ".parquet" is a shard,
// in the lexical order of the paths, and files and directories whose names
// start with "_" or "." (such as _SUCCESS and .crc files) are ignored, as are
// files with other names. A path segment key=value below the directory
// (dir/part=3/data_0.parquet) offers a column named key, whose value in
// every row of the shard is the text value: it can be Query.Group (it is
// never numeric, and a column of that name in the file itself takes
// precedence). The shards may differ in their schemas, as long as each holds
// every column read, with a type that reads as required.
//
// The footers of all shards are read and checked when the Source is made,
// so that the row counts are known (a footer costs about 200 bytes per
// column per row group, and one read per shard); only one shard is open at a
// time, except while the units or row groups of a read are decoded ahead on
// several cores: then one for each of them (at most six).
//
// # Columns and values
//
// The columns are the top-level fields of the schema, named as in it.
// Numeric columns are INT32 and INT64 (signed or unsigned), FLOAT, DOUBLE,
// and DECIMAL stored in INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY;
// every value becomes the float64 nearest to it (for a FLOAT: to its
// shortest decimal form, the number a CSV writer prints, so that the same
// data read from CSV and from Parquet gives the same float64s). Dates, times
// and timestamps, strings, booleans, INT96, nested and repeated fields are
// not numbers: named in Query.Columns they fail with ErrNotNumber, and the
// default selection (empty Query.Columns) keeps every numeric column, in
// schema order, listing the others in Table.Skipped (with the type in
// Skipped.Value). The group column may hold strings (BYTE_ARRAY, often
// dictionary-encoded), integers or booleans, or be a partition key.
//
// With Query.Mixed (a mixed table; see the package documentation), the
// default selection also keeps the string (BYTE_ARRAY, often
// dictionary-encoded) and boolean columns, and a named column may be one:
// their values are labels, trimmed of white space as CSV cells are, held
// as codes in Table.Categories; a column named in Query.Text is read as
// labels whatever its type (an integer in decimal, another number as
// strconv.FormatFloat writes it, 'g', shortest). The physical type, not
// the first value, decides whether a column is numeric or text, and it must
// be the same in every shard. A null, or a blank string, is then a missing
// value kept as NaN and counted in Group.Missing (estimated from the kept
// rows of a two-stage sample); a null group value is still an error or a
// dropped row.
//
// A null is a missing value, as an empty CSV cell is: an error
// (ErrEmptyCell) naming the file, the row group, the row and the column,
// or, with Query.DropMissing, a dropped row. NaN and infinities fail with
// ErrNonFinite, except that with Query.NA a NaN is a missing value, as the
// cell "NaN" is in CSV. A DATE, TIMESTAMP or string column of Query.Cells
// is read by its function, its values as ISO 8601 text (see Query.Cells). A row is identified by its 1-based number in the dataset,
// counting the rows of the shards in order: Group.Lines and the line passed
// to a RowFunc are these numbers.
//
// # Bad files
//
// Nothing in a file makes the reader panic or allocate memory that the file
// does not justify: the footer's length, every column chunk's position and
// every page's sizes are checked against the file's size and against fixed
// limits (a footer of at most 16 MiB, a page of at most 2²⁵ values and 256
// MiB) before the library decodes them, and a panic of the library is
// turned into an error. A file that is not Parquet, is truncated or holds
// a structure that does not check out fails with ErrCorrupt, naming the
// file (and the row group and column when it is one of them); a column
// missing in one shard fails with ErrUnknownColumn naming the shard.
//
// See NewParquetAt for how Sample draws rows with Sampling.Seek.
type Parquet struct {
	name   string
	opts   Options
	shards []*pqShard
	rows   int64 // of all shards
	keys   []string
	total  int64 // bytes of all shards, for Options.Progress

	readMu sync.Mutex // guards read and the calls of Options.Progress
	read   int64      // bytes read so far

	openMu sync.Mutex // guards open and the refs of the shards held
	open   *pqOpen    // the shard being read

	alwaysSeek bool // tests: sample by units however few the units
	rgDraws    int  // tests: the row-group draws of a two-stage sample; 0 means the rule of unitSample
	rgDesign   int  // tests: how the row groups are drawn (designPPS, …); 0 means defaultDesign
}

// pqShard is one Parquet file of a Source.
type pqShard struct {
	path   string            // as shown in messages
	size   int64             // bytes
	ra     io.ReaderAt       // the file, when given by NewParquetAt; nil: opened when needed
	parts  map[string]string // its key=value path segments
	fields []pqField         // its top-level fields
	rgRows []int64           // rows of each row group
	first  int64             // the 0-based number of its first row in the dataset
}

// pqOpen is an open shard.
type pqOpen struct {
	shard *pqShard
	file  *os.File // nil when the shard came with its reader
	ra    *pqCounter
	pf    *parquet.File
	limit int64 // the end of the region of pages: the start of the footer
	refs  int   // holds (Parquet.hold) not yet released

	locsMu sync.Mutex                       // guards locs: units are read ahead concurrently
	locs   map[[2]int][]format.PageLocation // the offset indexes read, by row group and column chunk
}

// OpenParquet returns the Source reading the Parquet file, or the
// directory of Parquet files, at path; see Parquet. The caller closes it.
func OpenParquet(path string, opts Options) (*Parquet, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	p := &Parquet{name: displayName(path), opts: opts}
	if !fi.IsDir() {
		sh := &pqShard{path: p.name, size: fi.Size()}
		if err := p.addShard(sh); err != nil {
			p.Close()
			return nil, err
		}
		return p, nil
	}
	var paths []string
	err = filepath.WalkDir(path, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		base := d.Name()
		if q != path && (strings.HasPrefix(base, "_") || strings.HasPrefix(base, ".")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && isParquetName(base) {
			paths = append(paths, q)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: listing the directory: %w", p.name, err)
	}
	if len(paths) == 0 {
		return nil, &ParseError{File: p.name, Err: ErrEmpty, msg: "a directory without any .parquet file"}
	}
	for _, q := range paths {
		fi, err := os.Stat(q)
		if err != nil {
			return nil, fmt.Errorf("dataset: %w", err)
		}
		sh := &pqShard{path: q, size: fi.Size(), parts: partitions(path, q)}
		if err := p.addShard(sh); err != nil {
			p.Close()
			return nil, err
		}
	}
	return p, nil
}

// NewParquetAt returns the Source reading the Parquet file held by the size
// bytes of r; name is the file's name used in messages. Close does not
// close r. The footer is read and checked at once.
//
// # Sampling by units
//
// The unit of reading of a Parquet file is a page: the pages of a column
// chunk are compressed and encoded one by one, and many writers (DuckDB,
// and Spark by default) write a single page per column chunk, of a whole
// row group (about 120 000 rows for DuckDB). Drawing rows uniformly at
// random would read a page for almost every row drawn, that is, the whole
// file. With Sampling.Seek, Sample draws a two-stage sample instead, which
// reads a number of pages that depends on Sampling.Size and
// Sampling.Units, not on the size of the file:
//
//   - Stage one draws n = Sampling.Units units (DefaultUnits when zero),
//     each with probability proportional to its rows, in d row-group
//     draws: d = max(min(n, 8), ⌈n/8⌉), 8 for the default 64 units. Each
//     row-group draw draws a row of the dataset uniformly at random (its
//     row group, with probability proportional to its rows, with
//     replacement), then n/d rows of that row group uniformly at random
//     (the first is the row already drawn); the unit of each row drawn is
//     its row group or, when the chunk of the first column read has an
//     offset index, the page of that chunk holding it (its rows, with the
//     pages of the other columns covering them). A unit is still drawn by
//     each draw with probability N_u/N, but the sample touches at most d
//     row groups, and so at most d offset indexes, whatever the size of
//     the dataset: what a remote object costs in requests and bytes stays
//     flat in its rows. With n ≤ 8, d = n and each unit draw is a
//     row-group draw of its own. When a row group holds fewer than 8
//     units (no offset index, or small row groups), a row-group draw
//     reaches at most that many distinct units, and d is raised (up to
//     n, the one-stage design) until the distinct units can hold twice
//     Size rows: d = max(d, ⌈⌈2·Size/(rows per unit)⌉/(units per row
//     group)⌉).
//   - Stage two takes, for each draw, r rows of its unit uniformly at
//     random without replacement (k·r rows of a unit drawn k times, all of
//     them if it has fewer), with r = ⌈Size/n⌉ without grouping. With a
//     group column, the group values of the drawn units are read first, and
//     r is raised so that each group kept expects at least Size rows: r =
//     ⌈1.2·Size/Σⱼ pⱼ⌉ for the rarest group, where pⱼ is its share of the
//     rows of the unit of draw j. A group holding more rows than Size then
//     keeps Size of them, drawn uniformly among those taken.
//
// Every row of the dataset is then equally likely to be kept (the
// expected number of draws of a unit of N_u rows is n·N_u/N, each taking a
// given row of it with probability r/N_u: n·r/N, the same for every row,
// as long as k·r does not exceed N_u), so means and other statistics of the
// kept rows estimate those of the dataset without weights. But the kept
// rows are not independent: rows of the same unit resemble each other when
// the file is ordered (by time, by a key, by the value itself), and then
// the sample carries less information than as many independent rows. For
// the mean of n·r rows the variance is
//
//	(σ_b² + σ_w²/r)/n     instead of     (σ_b² + σ_w²)/(n·r),
//
// where σ_b² is the variance of the units' means (weighted by their rows)
// and σ_w² the mean variance within a unit: the design effect is
// 1 + (r − 1)·σ_b²/(σ_b² + σ_w²), near 1 for a shuffled file and near r
// for a file sorted by the value. The d row-group draws are stratified
// along the file (one per stratum of N/d rows, in file order), which
// removes the variance between strata from the estimate: on a file written
// in time order its spread is that of d draws within strata, not between
// row groups. It can be estimated from the sample itself: Group.Units
// gives the row-group draw (0 to d − 1, Table.Draws = d) that each kept row
// came from and Table.DrawStrata pairs adjacent draws, and the
// collapsed-strata variance over them (summary.StrataVariance, behind
// divergence.PEResult.DesignEffect with divergence.Subsample.UnitStrata)
// measures the whole variance, within and between units and row groups,
// conservatively (it adds the squared differences of paired strata). The
// unit draws of one row-group draw are not independent (they share its
// row group), so the row groups, not the units, are the clusters. A
// caller that reports an error bar must use them; with d/2 degrees of
// freedom (one per pair), Student's t gives the interval
// (docs/RESULTS.md, "The design effect", measures its coverage).
//
// The row counts are exact without grouping (Group.Rows is the footer's
// count, less Table.Dropped); with a group column, they are estimated as
// N̂_g = (N/n)·Σⱼ pⱼ (the Hansen–Hurwitz estimator), with the standard
// error of the mean of the pⱼ taken over the d row-group draws (the
// collapsed-strata estimator above), except
// for a partition key, whose counts are exact. Table.Dropped is estimated
// alike.
//
// Sample reads every row instead (with the reservoir of a full read) when
// the dataset has at most 4·R units, R the most distinct units a two-stage
// sample reaches (n, or d row groups' units when a row group holds fewer
// than n/d units, as without a page index), so that a two-stage sample
// would read a large part of it anyway (Table.Fallback is then empty): the
// bytes read stay bounded by 4·d row groups as the dataset grows, or, with a note
// in Table.Fallback, when a group is too rare to reach: Size rows of it
// expected even from whole units, a value of Query.Groups not met in the
// drawn units, fewer values than Query.MaxGroups met, or more than 256
// values met.
//
// A nil r is an error: name is only a name, never opened.
func NewParquetAt(r io.ReaderAt, size int64, name string, opts Options) (*Parquet, error) {
	p := &Parquet{name: displayName(name), opts: opts}
	if isnil.Is(r) {
		return nil, fmt.Errorf("dataset: %s: no reader (nil)", p.name)
	}
	if err := p.addShard(&pqShard{path: p.name, size: size, ra: r}); err != nil {
		return nil, err
	}
	return p, nil
}

// DefaultUnits is the number of units drawn by a two-stage sample of a
// Parquet input when Sampling.Units is zero.
const DefaultUnits = 64

// partitions returns the key=value segments of the path of a file below
// the directory root.
func partitions(root, path string) map[string]string {
	rel, err := filepath.Rel(root, filepath.Dir(path))
	if err != nil || rel == "." {
		return nil
	}
	var m map[string]string
	for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
		k, v, ok := strings.Cut(seg, "=")
		if !ok || k == "" {
			continue
		}
		if m == nil {
			m = make(map[string]string)
		}
		m[k] = v
	}
	return m
}

// addShard reads and checks the footer of sh and appends it.
func (p *Parquet) addShard(sh *pqShard) error {
	o, err := p.openShard(sh)
	if err != nil {
		return err
	}
	md := o.pf.Metadata()
	fields, leaves, err := topFields(md.Schema)
	if err != nil {
		return &ParseError{File: sh.path, Err: ErrCorrupt, msg: "schema: " + err.Error()}
	}
	sh.fields = fields
	total := int64(0)
	for g, rg := range md.RowGroups {
		switch {
		case rg.NumRows < 0 || rg.NumRows > 1<<53:
			return &ParseError{File: sh.path, Err: ErrCorrupt, msg: fmt.Sprintf("row group %d claims %d rows", g, rg.NumRows)}
		case len(rg.Columns) != leaves:
			return &ParseError{File: sh.path, Err: ErrCorrupt,
				msg: fmt.Sprintf("row group %d has %d column chunks for %d columns", g, len(rg.Columns), leaves)}
		}
		sh.rgRows = append(sh.rgRows, rg.NumRows)
		total += rg.NumRows
	}
	if total != md.NumRows || total > 1<<53-p.rows {
		return &ParseError{File: sh.path, Err: ErrCorrupt,
			msg: fmt.Sprintf("the row groups hold %d rows, the footer says %d", total, md.NumRows)}
	}
	sh.first = p.rows
	p.rows += total
	p.total += sh.size
	p.shards = append(p.shards, sh)
	for k := range sh.parts {
		if !slices.Contains(p.keys, k) {
			p.keys = append(p.keys, k)
		}
	}
	if sh.ra == nil {
		p.closeShard()
	}
	return nil
}

// shard returns the shard sh, opened.
func (p *Parquet) shard(sh *pqShard) (*pqOpen, error) {
	if p.open != nil && p.open.shard == sh {
		return p.open, nil
	}
	return p.openShard(sh)
}

// openShard opens the shard sh, closing the one that was open.
func (p *Parquet) openShard(sh *pqShard) (*pqOpen, error) {
	p.closeShard()
	o := &pqOpen{shard: sh}
	ra := sh.ra
	if ra == nil {
		f, err := os.Open(sh.path)
		if err != nil {
			return nil, fmt.Errorf("dataset: %w", err)
		}
		fi, err := f.Stat()
		if err != nil || fi.Size() != sh.size {
			f.Close()
			return nil, fmt.Errorf("dataset: %s: the file changed while it was read", sh.path)
		}
		o.file, ra = f, f
	}
	o.ra = &pqCounter{r: ra, p: p}
	// The magic bytes that start an object of a store (a Prefetcher) are
	// not read: they would cost a request per object, and its footer, its
	// magic bytes at the end and every page read are checked anyway.
	_, remote := ra.(Prefetcher)
	n, err := checkFooter(o.ra, sh.size, sh.path, !remote)
	if err == nil {
		o.limit = sh.size - 8 - n
		err = safely(func() error {
			var err error
			o.pf, err = parquet.OpenFile(o.ra, sh.size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true),
				parquet.ReadBufferSize(4096), parquet.SkipMagicBytes(remote))
			return err
		})
		if err != nil {
			err = &ParseError{File: sh.path, Err: ErrCorrupt, msg: "reading the footer: " + err.Error()}
		}
	}
	if err != nil {
		if o.file != nil {
			o.file.Close()
		}
		return nil, err
	}
	p.open = o
	return o, nil
}

// closeShard closes the open shard, or leaves it to the last release when
// it is held.
func (p *Parquet) closeShard() {
	if p.open != nil && p.open.refs == 0 {
		p.open.closeFile()
	}
	p.open = nil
}

// closeFile closes the shard's file, if the shard opened it.
func (o *pqOpen) closeFile() {
	if o.file != nil {
		o.file.Close()
	}
}

// hold returns the shard sh opened, as shard does, for use on any
// goroutine until release: a shard held stays open when another is opened
// (at most one shard per read in flight, plus the open one, is then open).
func (p *Parquet) hold(sh *pqShard) (*pqOpen, error) {
	p.openMu.Lock()
	defer p.openMu.Unlock()
	o, err := p.shard(sh)
	if err != nil {
		return nil, err
	}
	o.refs++
	return o, nil
}

// release ends a hold of o, closing it when it is no longer the open
// shard and no other hold is left.
func (p *Parquet) release(o *pqOpen) {
	p.openMu.Lock()
	defer p.openMu.Unlock()
	o.refs--
	if o.refs == 0 && o != p.open {
		o.closeFile()
	}
}

// Name returns the input's name as messages show it.
func (p *Parquet) Name() string {
	if p == nil {
		return ""
	}
	return p.name
}

// Close closes the open file.
func (p *Parquet) Close() error {
	if p == nil {
		return nil
	}
	p.closeShard()
	return nil
}

// Rows returns the number of rows of the dataset, from the footers.
func (p *Parquet) Rows() int64 {
	if p == nil {
		return 0
	}
	return p.rows
}

// pqCounter counts the bytes read from a shard, for Options.Progress and
// the tests; it may be read from several goroutines at once.
type pqCounter struct {
	r     io.ReaderAt
	p     *Parquet
	bytes int64
}

func (c *pqCounter) ReadAt(b []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(b, off)
	c.p.readMu.Lock()
	defer c.p.readMu.Unlock()
	c.bytes += int64(n)
	c.p.read += int64(n)
	if c.p.opts.Progress != nil {
		c.p.opts.Progress(c.p.read, c.p.total)
	}
	return n, err
}

// Sample reads the rows that q selects and keeps a uniform random sample of
// at most s.Size rows of each group: of every row read (a reservoir, as
// for CSV), or, with s.Seek, by a two-stage sample of units (see
// NewParquetAt).
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func (p *Parquet) Sample(ctx context.Context, q Query, s Sampling) (*Table, error) {
	isnil.Context(ctx, "dataset.Parquet.Sample")
	if p == nil {
		return nil, errNilSource
	}
	if s.Size < 0 {
		return nil, fmt.Errorf("dataset: %s: negative sample size %d", p.name, s.Size)
	}
	pl, err := p.plan(q)
	if err != nil {
		return nil, err
	}
	reason := ""
	if s.Seek && s.Size > 0 {
		t, why, err := p.unitSample(ctx, pl, s)
		if t != nil || err != nil {
			return t, err
		}
		reason = why
	}
	t, err := p.scan(ctx, pl, newSampler(s), nil)
	if t != nil {
		t.Fallback = reason
	}
	return t, err
}

// Scan reads every row that q selects, row group by row group, and calls
// fn for each valid row in file order. See Source.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func (p *Parquet) Scan(ctx context.Context, q Query, fn RowFunc) (*Table, error) {
	isnil.Context(ctx, "dataset.Parquet.Scan")
	if p == nil {
		return nil, errNilSource
	}
	if fn == nil {
		return nil, fmt.Errorf("dataset: %s: Scan: nil RowFunc", p.name)
	}
	pl, err := p.plan(q)
	if err != nil {
		return nil, err
	}
	return p.scan(ctx, pl, nil, fn)
}
