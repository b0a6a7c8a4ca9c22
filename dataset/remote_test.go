// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/sublinear/pearson/dataset/datasettest"
	"github.com/sublinear/pearson/objstore"
	"github.com/sublinear/pearson/objstore/s3test"
)

// pqPartRow is a row of the partitioned datasets of the remote tests.
type pqPartRow struct {
	X float64 `parquet:"x"`
	Y float64 `parquet:"y"`
}

// writeParts writes a dataset of two partitions, part=a and part=b, of two
// files each, of small pages (an offset index each), into a temporary
// directory, and returns it.
func writeParts(t testing.TB, rows int) string {
	t.Helper()
	root := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, part := range []string{"part=a", "part=b"} {
		for f := range 2 {
			var groups [][]pqPartRow
			for range 3 {
				g := make([]pqPartRow, rows)
				for i := range g {
					g[i] = pqPartRow{X: rng.NormFloat64(), Y: float64(i%97) + rng.Float64()}
				}
				groups = append(groups, g)
			}
			p := datasettest.WriteParquet(t, "data.parquet", groups, parquet.PageBufferSize(2048))
			dst := filepath.Join(root, part, []string{"f0.parquet", "f1.parquet"}[f])
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(p)
			if err := os.WriteFile(dst, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// What a writer leaves beside the shards: ignored.
	os.WriteFile(filepath.Join(root, "_SUCCESS"), nil, 0o644)
	return root
}

// listObjects lists url with a new store and returns its objects as
// OpenObjects takes them.
func listObjects(t testing.TB, url string) ([]Object, *objstore.Store) {
	t.Helper()
	st := objstore.New(context.Background(), objstore.Settings{})
	objs, err := st.List(url)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Object, len(objs))
	for i, o := range objs {
		out[i] = Object{Path: o.URL(), Key: o.Key(), Size: o.Size(), R: o}
	}
	return out, st
}

// sameTables fails unless a and b hold the same rows, counts and draws.
func sameTables(t *testing.T, a, b *Table) {
	t.Helper()
	a.Name, b.Name = "", ""
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("the tables differ: local %d groups, %d draws, %d units, %d rows read; remote %d groups, %d draws, %d units, %d rows read",
			len(a.Groups), a.Draws, a.Units, a.RowsRead, len(b.Groups), b.Draws, b.Units, b.RowsRead)
	}
}

// TestObjectsParquetSameAsLocal checks that a partitioned Parquet dataset
// in a real S3-compatible server (versitygw) gives, at the same seed, the
// very same two-stage sample as the same files on disk, with and without
// the partition key as the group column, and reads a small part of it.
func TestObjectsParquetSameAsLocal(t *testing.T) {
	srv := s3test.Start(t)
	root := writeParts(t, 50000)
	var total int64
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		srv.Put(t, "bkt", "ds/"+filepath.ToSlash(rel), p)
		fi, _ := d.Info()
		total += fi.Size()
		return nil
	})
	for _, q := range []Query{{}, {Group: "part"}, {Columns: []string{"y"}, Group: "part", Groups: []string{"b"}}} {
		s := Sampling{Size: 1000, Seek: true, Units: 32}
		local, err := OpenParquet(root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s.Src = rand.NewPCG(7, 8)
		want, err := local.Sample(context.Background(), q, s)
		localRead := local.read
		local.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !want.Sampled || want.Units == 0 {
			t.Fatalf("the local read was not a two-stage sample: %s", want.Fallback)
		}
		objs, st := listObjects(t, "s3://bkt/ds/")
		src, err := OpenObjects("s3://bkt/ds/", objs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s.Src = rand.NewPCG(7, 8)
		got, err := src.Sample(context.Background(), q, s)
		src.Close()
		if err != nil {
			t.Fatal(err)
		}
		sameTables(t, want, got)
		stats := st.Stats()
		t.Logf("query %+v: %d requests, %d bytes of %d (%d read from the local files)", q, stats.Requests, stats.Bytes, total, localRead)
		// What the local read reads, with the footers and indexes
		// fetched whole, and pages read in slightly larger ranges.
		if most := 2*localRead + int64(len(objs))*remoteTail; stats.Bytes > most {
			t.Errorf("fetched %d bytes, more than %d", stats.Bytes, most)
		}
	}
}

// TestObjectsHTTPSameAsLocal checks that a Parquet file behind an HTTP
// server with Range support (net/http's file server) gives the same
// sample as the local file.
func TestObjectsHTTPSameAsLocal(t *testing.T) {
	root := writeParts(t, 6000)
	srv := httptest.NewServer(http.FileServer(http.Dir(root)))
	defer srv.Close()
	path := filepath.Join(root, "part=a", "f0.parquet")
	s := Sampling{Size: 1000, Seek: true, Units: 8}
	local, err := OpenParquet(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	local.alwaysSeek = true
	s.Src = rand.NewPCG(1, 1)
	want, err := local.Sample(context.Background(), Query{}, s)
	local.Close()
	if err != nil {
		t.Fatal(err)
	}
	objs, _ := listObjects(t, srv.URL+"/part=a/f0.parquet")
	src, err := OpenObjects(objs[0].Path, objs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	src.(*Parquet).alwaysSeek = true
	s.Src = rand.NewPCG(1, 1)
	got, err := src.Sample(context.Background(), Query{}, s)
	if err != nil {
		t.Fatal(err)
	}
	sameTables(t, want, got)
}

// TestObjectsBadFooter checks that a Parquet object whose footer claims
// gigabytes, or that is cut short, is refused before anything of that size
// is fetched or allocated.
func TestObjectsBadFooter(t *testing.T) {
	dir := t.TempDir()
	big := make([]byte, 100000)
	copy(big, pqMagic)
	copy(big[len(big)-8:], []byte{0, 0, 0, 0x80, 'P', 'A', 'R', '1'}) // a footer of 2 GiB
	os.WriteFile(filepath.Join(dir, "big.parquet"), big, 0o644)
	good, _ := os.ReadFile(writeX(t, []int{5000}, 1024))
	os.WriteFile(filepath.Join(dir, "cut.parquet"), good[:len(good)/2], 0o644)
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	for _, name := range []string{"big.parquet", "cut.parquet"} {
		objs, st := listObjects(t, srv.URL+"/"+name)
		_, err := OpenObjects(objs[0].Path, objs, Options{})
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: got %v, want ErrCorrupt", name, err)
		}
		if b := st.Stats().Bytes; b > int64(len(big)) {
			t.Errorf("%s: fetched %d bytes", name, b)
		}
	}
}

// TestObjectsCSVBlocks checks that a CSV object in a real S3-compatible
// server is sampled in blocks, giving the sample of the same bytes on disk,
// in a number of requests that depends on the blocks drawn, not on the
// rows.
func TestObjectsCSVBlocks(t *testing.T) {
	srv := s3test.Start(t)
	data, _ := sortedCSV(300000)
	srv.PutBytes(t, "bkt", "t.csv", data)
	s := Sampling{Size: 3000, Seek: true, Units: 32}
	s.Src = rand.NewPCG(2, 3)
	want, err := NewCSVBlocks(bytes.NewReader(data), int64(len(data)), "t.csv", Options{}).Sample(context.Background(), Query{Group: "g"}, s)
	if err != nil {
		t.Fatal(err)
	}
	s.Src = rand.NewPCG(2, 3)
	stats := sameSample(t, want, "s3://bkt/t.csv", Query{Group: "g"}, s)
	t.Logf("%d requests, %d bytes of %d", stats.Requests, stats.Bytes, len(data))
	// The header's rows, then one request per block at most (adjacent
	// blocks coalesce), and the listing.
	if stats.Requests > int64(s.Units)+4 || stats.Bytes > int64(len(data))/4 {
		t.Errorf("%d requests and %d bytes for %d blocks of a %d-byte object", stats.Requests, stats.Bytes, s.Units, len(data))
	}
}

// TestObjectsCompressedCSVRefused checks that a gzip or zstd CSV object is
// refused before anything but its first bytes is read, naming the object:
// it cannot be sampled by byte ranges, and reading it would download it.
func TestObjectsCompressedCSVRefused(t *testing.T) {
	for name, head := range map[string][]byte{
		"https://host/t.csv.gz":  {0x1f, 0x8b, 8, 0, 0, 0, 0, 0},
		"https://host/t.csv.zst": {0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0},
	} {
		body := append(head, make([]byte, 1<<20)...)
		r := &countingReaderAt{r: bytes.NewReader(body)}
		_, err := OpenObjects(name, []Object{{Path: name, Size: int64(len(body)), R: r}}, Options{})
		if err == nil || !strings.Contains(err.Error(), name+": a compressed CSV object cannot be sampled by byte ranges") {
			t.Errorf("%s: got %v; want a refusal naming the object", name, err)
		}
		if r.bytes.Load() > 64 {
			t.Errorf("%s: %d bytes read before the refusal; want only the first bytes", name, r.bytes.Load())
		}
	}
}

// sameSample samples the dataset at url with q and s in two stages (or
// blocks) and checks that the table is want; it returns what the store
// fetched.
func sameSample(t *testing.T, want *Table, url string, q Query, s Sampling) objstore.Stats {
	t.Helper()
	objs, st := listObjects(t, url)
	src, err := OpenObjects(url, objs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := src.Sample(context.Background(), q, s)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Sampled {
		t.Fatalf("not sampled: %s", got.Fallback)
	}
	sameTables(t, want, got)
	return st.Stats()
}
