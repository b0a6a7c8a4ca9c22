// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/sublinear/pearson/internal/isnil"
)

// Format of a saved reference (see the package documentation).
const (
	// Magic opens every saved reference.
	Magic = "pearson-drift\n"
	// Version is the version of the format Save writes; Load reads it and
	// every earlier one.
	Version = 1
	// maxMeta bounds the metadata Load accepts.
	maxMeta = 64 << 20
)

// meta is the JSON metadata of a saved reference.
type meta struct {
	SampledRows int          `json:"sampled_rows"`
	Columns     []metaColumn `json:"columns"`
}

type metaColumn struct {
	Name       string   `json:"name"`
	Type       string   `json:"type"`
	Rows       int      `json:"rows"`
	Missing    int      `json:"missing"`
	Categories []string `json:"categories,omitempty"`
	Counts     []int    `json:"counts,omitempty"`
	// Whole is the column's Tally of every row (absent in files saved
	// before it existed: then no Whole test).
	Whole *tallyJSON `json:"whole,omitempty"`
}

// tallyJSON is a Tally as a saved reference stores it.
type tallyJSON struct {
	Rows    int            `json:"rows"`
	Missing int            `json:"missing"`
	Bins    []int          `json:"bins,omitempty"`
	Mean    float64        `json:"mean"`
	M2      float64        `json:"m2"`
	AbsMean float64        `json:"abs_mean"`
	AbsM2   float64        `json:"abs_m2"`
	Labels  map[string]int `json:"labels,omitempty"`
}

// wholeJSON returns the tally of the column as Save stores it: nil when it
// counts only the sample's values, which Load counts again (its cut points
// are always the sample's: Load recomputes them).
func (c *table) wholeJSON() *tallyJSON {
	t := c.whole
	if t == nil || t.present() <= c.presentCount() {
		return nil
	}
	j := &tallyJSON{Rows: t.rows, Missing: t.miss, Bins: t.bins, Labels: t.labels}
	if !t.categorical {
		j.Mean, j.M2, j.AbsMean, j.AbsM2 = t.moments()
	}
	return j
}

// tally returns the column's tally from j, checked, or, when j is nil,
// counted from the sample's values.
func (c *table) tally(j *tallyJSON) (*Tally, bool) {
	sample := Column{Values: c.values}
	if c.kind == Categorical {
		sample = Column{Categories: make([]string, len(c.codes))}
		for i, code := range c.codes {
			if code >= 0 {
				sample.Categories[i] = c.cats[code]
			}
		}
	}
	if j == nil {
		t, err := tallyOf(&sample, nil, nil)
		return t, err == nil
	}
	t := NewTally(sample)
	t.rows, t.miss = j.Rows, j.Missing
	t.setMoments(j.Mean, j.M2, j.AbsMean) // j.AbsM2 follows from them
	ok := j.Rows >= c.len() && j.Missing >= 0 && j.Missing <= j.Rows
	if t.categorical {
		t.labels = j.Labels
		if t.labels == nil {
			t.labels = map[string]int{}
		}
		n := 0
		for _, c := range t.labels {
			ok = ok && c >= 0
			n += c
		}
		return t, ok && n == t.present() && j.Bins == nil
	}
	t.bins = j.Bins
	n := 0
	for _, c := range t.bins {
		ok = ok && c >= 0
		n += c
	}
	return t, ok && len(t.bins) == len(t.grid)+1 && n == t.present()
}

// Save writes the reference in the format Load reads.
// A nil reference or writer is an error, not a panic.
func (r *Reference) Save(w io.Writer) error {
	if r == nil || isnil.Is(w) {
		return errors.New("drift: Save: the reference or the writer is nil")
	}
	m := meta{SampledRows: r.rows, Columns: make([]metaColumn, len(r.cols))}
	for i, c := range r.cols {
		m.Columns[i] = metaColumn{Name: c.name, Type: c.kind.String(), Rows: c.rows, Missing: c.missing, Whole: c.wholeJSON()}
		if c.kind == Categorical {
			m.Columns[i].Categories = c.cats
			m.Columns[i].Counts = c.frequencies(len(c.cats))
			if m.Columns[i].Categories == nil {
				m.Columns[i].Categories = []string{}
			}
		}
	}
	js, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("drift: saving the reference: %w", err)
	}
	crc := crc32.NewIEEE()
	bw := bufio.NewWriter(w)
	out := io.MultiWriter(bw, crc)
	var head [8]byte
	binary.LittleEndian.PutUint32(head[:4], Version)
	binary.LittleEndian.PutUint32(head[4:], uint32(len(js)))
	io.WriteString(out, Magic)
	out.Write(head[:])
	out.Write(js)
	var buf [8]byte
	for _, c := range r.cols {
		for _, v := range c.values {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
			out.Write(buf[:])
		}
		for _, v := range c.codes {
			binary.LittleEndian.PutUint32(buf[:4], uint32(v))
			out.Write(buf[:4])
		}
	}
	binary.LittleEndian.PutUint32(buf[:4], crc.Sum32())
	bw.Write(buf[:4])
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("drift: saving the reference: %w", err)
	}
	return nil
}

// Load reads a reference written by Save. A file that is not a reference,
// or is corrupt or truncated, gives an error wrapping ErrFormat; one written
// in a newer version of the format, ErrVersion.
// A nil reader is an error wrapping ErrFormat, not a panic.
func Load(r io.Reader) (*Reference, error) {
	if isnil.Is(r) {
		return nil, fmt.Errorf("%w: the reader is nil", ErrFormat)
	}
	crc := crc32.NewIEEE()
	br := bufio.NewReader(r)
	in := io.TeeReader(br, crc)
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, args...))
	}
	read := func(p []byte, what string) error {
		if _, err := io.ReadFull(in, p); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return bad("truncated in the %s", what)
			}
			return fmt.Errorf("drift: reading the reference: %w", err)
		}
		return nil
	}
	magic := make([]byte, len(Magic))
	if err := read(magic, "header"); err != nil {
		return nil, err
	}
	if string(magic) != Magic {
		return nil, bad("no %q header", Magic[:len(Magic)-1])
	}
	var head [8]byte
	if err := read(head[:], "header"); err != nil {
		return nil, err
	}
	switch v := binary.LittleEndian.Uint32(head[:4]); {
	case v == 0:
		return nil, bad("version 0")
	case v > Version:
		return nil, fmt.Errorf("%w: version %d, this program reads up to version %d", ErrVersion, v, Version)
	}
	n := binary.LittleEndian.Uint32(head[4:])
	if n > maxMeta {
		return nil, bad("metadata of %d bytes", n)
	}
	js := make([]byte, n)
	if err := read(js, "metadata"); err != nil {
		return nil, err
	}
	var m meta
	if err := json.Unmarshal(js, &m); err != nil {
		return nil, bad("metadata: %v", err)
	}
	if m.SampledRows < 0 || len(m.Columns) == 0 {
		return nil, bad("metadata: %d sampled rows, %d columns", m.SampledRows, len(m.Columns))
	}
	ref := &Reference{rows: m.SampledRows, cols: make([]*table, len(m.Columns))}
	for i, mc := range m.Columns {
		t, err := readColumn(mc, m.SampledRows, read)
		if err != nil {
			return nil, err
		}
		ref.cols[i] = t
	}
	sum := crc.Sum32()
	var tail [4]byte
	if err := read(tail[:], "checksum"); err != nil {
		return nil, err
	}
	if binary.LittleEndian.Uint32(tail[:]) != sum {
		return nil, bad("checksum mismatch: the file is corrupt")
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, bad("data after the checksum")
	}
	// Check the columns as NewReference checks new ones.
	seen := map[string]bool{}
	for _, t := range ref.cols {
		if seen[t.name] {
			return nil, bad("column %q appears twice", t.name)
		}
		seen[t.name] = true
		inSample := t.len() - t.presentCount()
		if t.rows < t.len() || t.missing < inSample || t.missing > t.rows || t.len()-inSample > t.rows-t.missing {
			return nil, bad("column %q: counts do not add up", t.name)
		}
	}
	return ref, nil
}

// readColumn reads one column's payload, growing its slice as the data
// arrive so that a corrupt row count cannot allocate beyond the file.
func readColumn(mc metaColumn, rows int, read func([]byte, string) error) (*table, error) {
	t := &table{name: mc.Name, rows: mc.Rows, missing: mc.Missing}
	what := fmt.Sprintf("data of column %q", mc.Name)
	const chunk = 1 << 13
	buf := make([]byte, 8*chunk)
	switch mc.Type {
	case "numeric":
		t.kind = Numeric
		t.values = make([]float64, 0, min(rows, chunk))
		for left := rows; left > 0; left -= chunk {
			k := min(left, chunk)
			if err := read(buf[:8*k], what); err != nil {
				return nil, err
			}
			for j := range k {
				t.values = append(t.values, math.Float64frombits(binary.LittleEndian.Uint64(buf[8*j:])))
			}
		}
	case "categorical":
		t.kind = Categorical
		t.cats = mc.Categories
		if t.cats == nil {
			t.cats = []string{}
		}
		t.codes = make([]int32, 0, min(rows, chunk))
		for left := rows; left > 0; left -= chunk {
			k := min(left, chunk)
			if err := read(buf[:4*k], what); err != nil {
				return nil, err
			}
			for j := range k {
				c := int32(binary.LittleEndian.Uint32(buf[4*j:]))
				if c < -1 || int(c) >= len(t.cats) {
					return nil, fmt.Errorf("%w: column %q: category code %d out of range", ErrFormat, mc.Name, c)
				}
				t.codes = append(t.codes, c)
			}
		}
	default:
		return nil, fmt.Errorf("%w: column %q: unknown type %q", ErrFormat, mc.Name, mc.Type)
	}
	for _, v := range t.values {
		if math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: column %q: infinite value", ErrFormat, mc.Name)
		}
	}
	var ok bool
	if t.whole, ok = t.tally(mc.Whole); !ok {
		return nil, fmt.Errorf("%w: column %q: its tally of every row does not add up", ErrFormat, mc.Name)
	}
	return t, nil
}
