// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package misuse

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sublinear/pearson/changepoint"
	"github.com/sublinear/pearson/crossval"
	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/divergence"
	"github.com/sublinear/pearson/drift"
	"github.com/sublinear/pearson/kernel"
	"github.com/sublinear/pearson/objstore"
	"github.com/sublinear/pearson/qmin"
)

// want is what a misuse must give.
type want int

const (
	// anError: an error, no panic.
	anError want = iota
	// noPanic: any result, no panic (a nil receiver of a getter answers
	// as an empty value).
	noPanic
	// nilContext: the documented panic of a nil context, in the caller's
	// goroutine, saying so.
	nilContext
	// canceled: an error wrapping context.Canceled.
	canceled
	// callerPanic: a panic in the caller's goroutine, as documented, or as
	// any method of a plain data type (settings, a result, a column)
	// called on a nil pointer does in Go.
	callerPanic
)

type misuse struct {
	name string
	want want
	call func() error
}

var (
	//lint:ignore SA1012 a nil context is the misuse under test
	nilCtx   context.Context
	bg       = context.Background()
	nilDense *mat.Dense
	nan      = math.NaN()
)

func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

func src() rand.Source { return rand.NewPCG(1, 2) }

// good is a small, well-formed sample of n rows and d columns.
func good(n, d int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 3))
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, rnd.NormFloat64())
		}
	}
	return x
}

func withNaN(n, d int) *mat.Dense {
	x := good(n, d, 9)
	x.Set(n/2, 0, nan)
	return x
}

func zeroRows() mat.Matrix { return &mat.Dense{} }

// run calls c in this goroutine, turning a panic into a description. A
// panic that recover cannot catch, in a goroutine the call started, ends
// the test binary: the test fails, naming the case last started (go test
// -v), which is what a caller of the library would suffer.
func run(c misuse) (err error, panicked any) {
	defer func() { panicked = recover() }()
	return c.call(), nil
}

func TestMisuse(t *testing.T) {
	var cases []misuse
	cases = append(cases, divergenceCases()...)
	cases = append(cases, changepointCases()...)
	cases = append(cases, driftCases()...)
	cases = append(cases, datasetCases(t)...)
	cases = append(cases, qminCases()...)
	cases = append(cases, objstoreCases()...)
	cases = append(cases, otherCases()...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err, p := run(c)
			switch {
			case c.want == callerPanic:
				if p == nil {
					t.Errorf("%s: got error %v, want a panic", c.name, err)
				}
			case c.want == nilContext:
				if p == nil || !strings.Contains(fmt.Sprint(p), "nil context") {
					t.Errorf("%s: got error %v and panic %v, want the documented panic of a nil context", c.name, err, p)
				}
			case p != nil:
				t.Errorf("%s: panic: %v", c.name, p)
			case c.want == anError && err == nil:
				t.Errorf("%s: no error", c.name)
			case c.want == canceled && !errors.Is(err, context.Canceled):
				t.Errorf("%s: error %v, want one wrapping context.Canceled", c.name, err)
			}
		})
	}
}

func divergenceCases() []misuse {
	p, q := good(40, 2, 1), good(40, 2, 2)
	s := divergence.Settings{K: 10, M: 40, Draws: 2, Src: src()}
	pe := func(ctx context.Context, p, q mat.Matrix) func() error {
		return func() error {
			_, err := divergence.RelativePE(ctx, p, q, 0.5, &divergence.PESettings{Settings: s})
			return err
		}
	}
	tune := func(ctx context.Context, p, q mat.Matrix) func() error {
		return func() error {
			_, err := divergence.TunePE(ctx, p, q, 0.5, &divergence.PESettings{Settings: s})
			return err
		}
	}
	value := func(ctx context.Context, p, q mat.Matrix) func() error {
		return func() error {
			_, err := divergence.RelativePEValue(ctx, p, q, 0.5, &divergence.PESettings{Settings: s})
			return err
		}
	}
	ts := func(ctx context.Context, p, q mat.Matrix) func() error {
		return func() error {
			_, err := divergence.TwoSampleTest(ctx, p, q, 0.5, &divergence.TwoSampleSettings{PESettings: divergence.PESettings{Settings: s}, Permutations: 5})
			return err
		}
	}
	seq := func(ctx context.Context, p, q mat.Matrix) func() error {
		return func() error {
			_, err := divergence.SequentialTwoSampleTest(ctx, p, q, 0.5, &divergence.TwoSampleSettings{PESettings: divergence.PESettings{Settings: s}, Permutations: 5}, 2)
			return err
		}
	}
	lsmi := func(ctx context.Context, x, y mat.Matrix) func() error {
		return func() error {
			_, err := divergence.LSMI(ctx, x, y, &divergence.LSMISettings{Settings: s})
			return err
		}
	}
	ind := func(ctx context.Context, x, y mat.Matrix) func() error {
		return func() error {
			_, err := divergence.IndependenceTest(ctx, x, y, &divergence.IndependenceSettings{LSMISettings: divergence.LSMISettings{Settings: s}, Permutations: 5})
			return err
		}
	}
	rank := func(ctx context.Context, x, y mat.Matrix) func() error {
		return func() error {
			_, err := divergence.Rank(ctx, x, y, &divergence.RankSettings{LSMISettings: divergence.LSMISettings{Settings: s}})
			return err
		}
	}
	var out []misuse
	for _, f := range []struct {
		name string
		f    func(context.Context, mat.Matrix, mat.Matrix) func() error
		y    mat.Matrix
	}{
		{"divergence.RelativePE", pe, q},
		{"divergence.TunePE", tune, q},
		{"divergence.RelativePEValue", value, q},
		{"divergence.TwoSampleTest", ts, q},
		{"divergence.SequentialTwoSampleTest", seq, q},
		{"divergence.LSMI", lsmi, good(40, 1, 4)},
		{"divergence.IndependenceTest", ind, good(40, 1, 4)},
		{"divergence.Rank", rank, good(40, 1, 4)},
	} {
		out = append(out,
			misuse{f.name + "/nil ctx", nilContext, f.f(nilCtx, p, f.y)},
			misuse{f.name + "/cancelled ctx", canceled, f.f(cancelled(), p, f.y)},
			misuse{f.name + "/nil", anError, f.f(bg, nil, f.y)},
			misuse{f.name + "/typed nil", anError, f.f(bg, p, nilDense)},
			misuse{f.name + "/0 rows", anError, f.f(bg, zeroRows(), f.y)},
			misuse{f.name + "/NaN", anError, f.f(bg, withNaN(40, 2), f.y)},
			misuse{f.name + "/huge K", anError, func() error {
				ss := s
				s.K = 1 << 40
				defer func() { s = ss }()
				return f.f(bg, p, f.y)()
			}},
			misuse{f.name + "/huge M (capped by the rows)", noPanic, func() error {
				ss := s
				s.M = 1 << 40
				defer func() { s = ss }()
				return f.f(bg, p, f.y)()
			}},
		)
	}
	out = append(out,
		misuse{"divergence.NewPEProblem/typed nil", anError, func() error {
			_, err := divergence.NewPEProblem(nilDense, q, 0.5, nil)
			return err
		}},
		misuse{"divergence.NewPEProblem/NaN", anError, func() error {
			_, err := divergence.NewPEProblem(withNaN(40, 2), q, 0.5, nil)
			return err
		}},
		misuse{"divergence.SampleRows/nil", noPanic, func() error { divergence.SampleRows(nil); return nil }},
		misuse{"divergence.TwoSamplePoints/huge", noPanic, func() error { divergence.TwoSamplePoints(1<<40, 1<<40, 1<<40); return nil }},
		misuse{"divergence.Rows/nil", noPanic, func() error { divergence.Rows(nil); return nil }},
		misuse{"divergence.Column/nil", noPanic, func() error { divergence.Column(nil); return nil }},
		misuse{"divergence.ClassCodes/nil", noPanic, func() error { divergence.ClassCodes[string](nil); return nil }},
		misuse{"divergence.IsClasses/NaN", noPanic, func() error { divergence.IsClasses([]float64{nan}); return nil }},
		misuse{"divergence.ValidateAlpha/NaN", anError, func() error { return divergence.ValidateAlpha(nan) }},
		misuse{"divergence.Settings.Validate/nil", noPanic, func() error { return (*divergence.Settings)(nil).Validate() }},
		misuse{"divergence.PESettings.Validate/nil", noPanic, func() error { return (*divergence.PESettings)(nil).Validate() }},
		misuse{"divergence.PESettings.Memory/nil", noPanic, func() error { (*divergence.PESettings)(nil).Memory(1<<40, 1<<40, 1<<40); return nil }},
		misuse{"divergence.LSMISettings.Validate/nil", noPanic, func() error { return (*divergence.LSMISettings)(nil).Validate() }},
		misuse{"divergence.LSMISettings.Memory/nil", noPanic, func() error { (*divergence.LSMISettings)(nil).Memory(1<<40, 1<<40, 1<<40); return nil }},
		misuse{"divergence.TwoSampleSettings.Validate/nil", noPanic, func() error { return (*divergence.TwoSampleSettings)(nil).Validate() }},
		misuse{"divergence.IndependenceSettings.Validate/nil", noPanic, func() error { return (*divergence.IndependenceSettings)(nil).Validate() }},
		misuse{"divergence.RankSettings.Validate/nil", noPanic, func() error { return (*divergence.RankSettings)(nil).Validate() }},
		misuse{"divergence.Ratio.Eval/nil receiver", anError, func() error { _, err := (*divergence.Ratio)(nil).Eval(p); return err }},
		misuse{"divergence.TwoSampleResult.Extend/nil receiver", anError, func() error { return (*divergence.TwoSampleResult)(nil).Extend(bg, 5) }},
		misuse{"divergence.PEResult.Ratio.Eval/typed nil", anError, func() error {
			res, err := divergence.RelativePE(bg, p, q, 0.5, &divergence.PESettings{Settings: s})
			if err != nil {
				return fmt.Errorf("setup: %w", err)
			}
			_, err = res.Ratio.Eval(nilDense)
			return err
		}},
		misuse{"divergence.TwoSampleResult.Extend/nil ctx", nilContext, func() error {
			res, err := divergence.TwoSampleTest(bg, p, q, 0.5, &divergence.TwoSampleSettings{PESettings: divergence.PESettings{Settings: s}, Permutations: 5})
			if err != nil {
				return fmt.Errorf("setup: %w", err)
			}
			return res.Extend(nilCtx, 5)
		}},
		misuse{"divergence.TwoSampleResult.Extend/huge", anError, func() error {
			res, err := divergence.TwoSampleTest(bg, p, q, 0.5, &divergence.TwoSampleSettings{PESettings: divergence.PESettings{Settings: s}, Permutations: 5})
			if err != nil {
				return fmt.Errorf("setup: %w", err)
			}
			return res.Extend(bg, 1<<40)
		}},
	)
	return out
}

func changepointCases() []misuse {
	series := good(300, 1, 5)
	early := good(300, 1, 5) // a NaN before the first score
	early.Set(1, 0, nan)
	s := &changepoint.Settings{Window: 10, Embed: 2, Draws: 2, Src: src()}
	seg := &changepoint.SegmentSettings{Src: src()}
	sc := func(ctx context.Context, x mat.Matrix, s *changepoint.Settings) func() error {
		return func() error { _, err := changepoint.Scores(ctx, x, 0.5, s); return err }
	}
	sg := func(ctx context.Context, x mat.Matrix, s *changepoint.SegmentSettings) func() error {
		return func() error { _, err := changepoint.Segment(ctx, x, 0.5, s); return err }
	}
	push := func(ctx context.Context, row []float64) func() error {
		return func() error {
			d, err := changepoint.NewDetector(1, 0.5, s)
			if err != nil {
				return fmt.Errorf("setup: %w", err)
			}
			_, _, err = d.Push(ctx, row)
			return err
		}
	}
	var nilDet *changepoint.Detector
	return []misuse{
		{"changepoint.Scores/nil ctx", nilContext, sc(nilCtx, series, s)},
		{"changepoint.Scores/cancelled ctx", canceled, sc(cancelled(), series, s)},
		{"changepoint.Scores/nil", anError, sc(bg, nil, s)},
		{"changepoint.Scores/typed nil", anError, sc(bg, nilDense, s)},
		{"changepoint.Scores/0 rows", anError, sc(bg, zeroRows(), s)},
		{"changepoint.Scores/NaN", anError, sc(bg, early, s)},
		{"changepoint.Scores/huge window", anError, sc(bg, series, &changepoint.Settings{Window: 1 << 40})},
		{"changepoint.Segment/nil ctx", nilContext, sg(nilCtx, series, seg)},
		{"changepoint.Segment/cancelled ctx", canceled, sg(cancelled(), series, seg)},
		{"changepoint.Segment/nil", anError, sg(bg, nil, seg)},
		{"changepoint.Segment/typed nil", anError, sg(bg, nilDense, seg)},
		{"changepoint.Segment/0 rows", anError, sg(bg, zeroRows(), seg)},
		{"changepoint.Segment/NaN", anError, sg(bg, early, seg)},
		{"changepoint.Segment/huge window", anError, sg(bg, series, &changepoint.SegmentSettings{Window: 1 << 40})},
		{"changepoint.SegmentParamsFor/nil", noPanic, func() error { changepoint.SegmentParamsFor(1<<40, nil); return nil }},
		{"changepoint.NewDetector/huge dim", anError, func() error { _, err := changepoint.NewDetector(1<<40, 0.5, nil); return err }},
		{"changepoint.NewDetector/huge window", anError, func() error {
			_, err := changepoint.NewDetector(1, 0.5, &changepoint.Settings{Window: 1 << 40})
			return err
		}},
		{"changepoint.NewDetector/0 dim", anError, func() error { _, err := changepoint.NewDetector(0, 0.5, nil); return err }},
		{"changepoint.Detector.Push/nil ctx", nilContext, push(nilCtx, []float64{1})},
		{"changepoint.Detector.Push/cancelled ctx", noPanic, push(cancelled(), []float64{1})},
		{"changepoint.Detector.Push/NaN", anError, push(bg, []float64{nan})},
		{"changepoint.Detector.Push/wrong length", anError, push(bg, []float64{1, 2})},
		{"changepoint.Detector.Push/nil row", anError, push(bg, nil)},
		{"changepoint.Detector.Push/nil receiver", anError, func() error { _, _, err := nilDet.Push(bg, []float64{1}); return err }},
		{"changepoint.Detector.Flush/nil receiver", anError, func() error { _, err := nilDet.Flush(); return err }},
		{"changepoint.Detector.ChangePoints/nil receiver", noPanic, func() error { nilDet.ChangePoints(); return nil }},
		{"changepoint.Detector.Rows/nil receiver", noPanic, func() error { nilDet.Rows(); return nil }},
		{"changepoint.Detector.MinRows/nil receiver", noPanic, func() error { nilDet.MinRows(); return nil }},
		{"changepoint.Detector.Tuning/nil receiver", noPanic, func() error { nilDet.Tuning(); return nil }},
		{"changepoint.CheckTimes/NaN", anError, func() error { return changepoint.CheckTimes([]float64{1, nan}) }},
		{"changepoint.CheckTimes/nil", noPanic, func() error { return changepoint.CheckTimes(nil) }},
		{"changepoint.TimeChecker.Next/nil receiver", anError, func() error { return (*changepoint.TimeChecker)(nil).Next(1) }},
		{"changepoint.Detect/nil", noPanic, func() error { changepoint.Detect(nil, nan, -1); return nil }},
	}
}

func driftCases() []misuse {
	num := func(name string, v []float64) drift.Column { return drift.Column{Name: name, Values: v} }
	ref := []drift.Column{num("x", good(50, 1, 6).RawMatrix().Data)}
	cur := []drift.Column{num("x", good(50, 1, 7).RawMatrix().Data)}
	nanCol := []drift.Column{num("x", []float64{nan, nan, nan, nan, nan})}
	emptyCol := []drift.Column{num("x", []float64{})}
	s := &drift.Settings{Permutations: 20}
	cmp := func(ctx context.Context, ref, cur []drift.Column) func() error {
		return func() error { _, err := drift.Compare(ctx, ref, cur, s); return err }
	}
	var nilRef *drift.Reference
	reference := func() *drift.Reference {
		r, err := drift.NewReference(ref, s)
		if err != nil {
			panic(err)
		}
		return r
	}
	return []misuse{
		{"drift.Compare/nil ctx", nilContext, cmp(nilCtx, ref, cur)},
		{"drift.Compare/cancelled ctx", canceled, cmp(cancelled(), ref, cur)},
		{"drift.Compare/nil", anError, cmp(bg, nil, cur)},
		{"drift.Compare/0 rows ref", anError, cmp(bg, emptyCol, cur)},
		{"drift.Compare/0 rows cur", anError, cmp(bg, ref, emptyCol)},
		{"drift.Compare/all NaN ref", anError, cmp(bg, nanCol, cur)},
		{"drift.Compare/all NaN cur", anError, func() error {
			// Compared: every value went missing, a drift of the missing share.
			res, err := drift.Compare(bg, ref, nanCol, s)
			if err != nil {
				return fmt.Errorf("error %w, want the missing share's drift", err)
			}
			if c := res.Columns[0]; !c.Drifted || c.Rule != "missing share" {
				return errors.New("want drift by the missing share")
			}
			return errors.New("drifted by the missing share, as it must")
		}},
		{"drift.Compare/Inf", anError, cmp(bg, ref, []drift.Column{num("x", []float64{1, math.Inf(1), 2})})},
		{"drift.Compare/huge SampleRows", noPanic, func() error {
			_, err := drift.Compare(bg, ref, cur, &drift.Settings{SampleRows: 1 << 40, Permutations: 20})
			return err
		}},
		{"drift.Compare/huge Permutations", anError, func() error {
			_, err := drift.Compare(bg, ref, cur, &drift.Settings{Permutations: 1 << 40})
			return err
		}},
		{"drift.NewReference/nil", anError, func() error { _, err := drift.NewReference(nil, nil); return err }},
		{"drift.NewReference/0 rows", anError, func() error { _, err := drift.NewReference(emptyCol, nil); return err }},
		{"drift.NewReference/all NaN", anError, func() error { _, err := drift.NewReference(nanCol, nil); return err }},
		{"drift.Reference.Compare/nil ctx", nilContext, func() error { _, err := reference().Compare(nilCtx, cur, s); return err }},
		{"drift.Reference.Compare/nil receiver", anError, func() error { _, err := nilRef.Compare(bg, cur, s); return err }},
		{"drift.Reference.Compare/0 rows", anError, func() error { _, err := reference().Compare(bg, emptyCol, s); return err }},
		{"drift.Reference.Compare/all NaN", noPanic, func() error { _, err := reference().Compare(bg, nanCol, s); return err }},
		{"drift.Reference.Columns/nil receiver", noPanic, func() error { nilRef.Columns(); return nil }},
		{"drift.Reference.Save/nil receiver", anError, func() error { return nilRef.Save(&bytes.Buffer{}) }},
		{"drift.Reference.Save/nil writer", anError, func() error { return reference().Save(nil) }},
		{"drift.Load/nil", anError, func() error { _, err := drift.Load(nil); return err }},
		{"drift.WriteHTML/nil", anError, func() error { return drift.WriteHTML(&bytes.Buffer{}, nil, "") }},
		{"drift.Result methods/nil receiver", callerPanic, func() error {
			var r *drift.Result
			r.Sorted()
			r.Summary()
			r.JointScaling()
			return nil
		}},
		{"drift.ColumnResult methods/nil receiver", callerPanic, func() error {
			var c *drift.ColumnResult
			c.Status()
			c.Effect()
			return nil
		}},
		{"drift.Column.Kind/nil receiver", callerPanic, func() error { (*drift.Column)(nil).Kind(); return nil }},
		{"drift.Settings.SampleSize/nil receiver", callerPanic, func() error { (*drift.Settings)(nil).SampleSize(); return nil }},
	}
}

func datasetCases(t *testing.T) []misuse {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "a.csv")
	if err := os.WriteFile(csvPath, []byte("x,y\n1,2\n3,4\n5,6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	open := func() dataset.Source {
		s, err := dataset.Open(csvPath, dataset.Options{})
		if err != nil {
			panic(err)
		}
		return s
	}
	each := func(string, int, []float64) error { return nil }
	gzPrefix := func() dataset.Source { // three objects of a prefix of compressed CSV
		var objs []dataset.Object
		for _, k := range []string{"a", "b", "c"} {
			var b bytes.Buffer
			w := gzip.NewWriter(&b)
			w.Write([]byte("x,y\n1,2\n3,4\n5,6\n"))
			w.Close()
			objs = append(objs, dataset.Object{Path: "s3://b/p/" + k + ".csv.gz", Key: k + ".csv.gz", Size: int64(b.Len()), R: bytes.NewReader(b.Bytes())})
		}
		s, err := dataset.OpenObjects("s3://b/p/", objs, dataset.Options{})
		if err != nil {
			panic(err)
		}
		return s
	}
	var nilCSV *dataset.CSV
	var nilPq *dataset.Parquet
	var nilReader *bytes.Reader
	return []misuse{
		{"dataset.ReadVector/nil", anError, func() error { _, err := dataset.ReadVector(nil, "v", ','); return err }},
		{"dataset.ReadVector/typed nil", anError, func() error { _, err := dataset.ReadVector(nilReader, "v", ','); return err }},
		{"dataset.ReadMatrix/nil", anError, func() error { _, _, _, err := dataset.ReadMatrix(nil, "m", ','); return err }},
		{"dataset.OpenVector/missing", anError, func() error { _, err := dataset.OpenVector(filepath.Join(dir, "no"), ','); return err }},
		{"dataset.OpenMatrix/missing", anError, func() error { _, _, _, err := dataset.OpenMatrix(filepath.Join(dir, "no"), ','); return err }},
		{"dataset.Open/empty name", anError, func() error { _, err := dataset.Open("", dataset.Options{}); return err }},
		{"dataset.OpenParquet/missing", anError, func() error {
			_, err := dataset.OpenParquet(filepath.Join(dir, "no.parquet"), dataset.Options{})
			return err
		}},
		{"dataset.NewParquetAt/nil", anError, func() error {
			// The name is an existing file's: it must not be opened.
			_, err := dataset.NewParquetAt(nil, 100, csvPath, dataset.Options{})
			return err
		}},
		{"dataset.NewParquetAt/typed nil", anError, func() error { _, err := dataset.NewParquetAt(nilReader, 100, "p", dataset.Options{}); return err }},
		{"dataset.NewParquetAt/huge size", anError, func() error {
			_, err := dataset.NewParquetAt(bytes.NewReader([]byte("PAR1")), 1<<60, "p", dataset.Options{})
			return err
		}},
		{"dataset.NewCSV/nil", anError, func() error {
			_, err := dataset.NewCSV(nil, "c", dataset.Options{}).Scan(bg, dataset.Query{}, nil)
			return err
		}},
		{"dataset.NewCSVAt/nil", anError, func() error {
			_, err := dataset.NewCSVAt(nil, 10, "c", dataset.Options{}).Sample(bg, dataset.Query{}, dataset.Sampling{Size: 2, Src: src()})
			return err
		}},
		{"dataset.NewCSVBlocks/nil", anError, func() error {
			_, err := dataset.NewCSVBlocks(nil, 10, "c", dataset.Options{}).Sample(bg, dataset.Query{}, dataset.Sampling{Size: 2, Src: src()})
			return err
		}},
		{"dataset.OpenObjects/nil", anError, func() error { _, err := dataset.OpenObjects("o", nil, dataset.Options{}); return err }},
		{"dataset.OpenObjects/nil reader", anError, func() error {
			_, err := dataset.OpenObjects("o", []dataset.Object{{Path: csvPath, Size: 10}}, dataset.Options{})
			return err
		}},
		{"dataset.OpenObjects/compressed prefix, nil ctx", nilContext, func() error {
			_, err := gzPrefix().Sample(nilCtx, dataset.Query{}, dataset.Sampling{Size: 2, Src: src()})
			return err
		}},
		{"dataset.OpenObjects/compressed prefix, Scan nil ctx", nilContext, func() error { _, err := gzPrefix().Scan(nilCtx, dataset.Query{}, each); return err }},
		{"dataset.OpenObjects/compressed prefix, cancelled ctx", canceled, func() error {
			_, err := gzPrefix().Sample(cancelled(), dataset.Query{}, dataset.Sampling{Size: 2, Src: src(), ObjectBytes: 1, Seek: true})
			return err
		}},
		{"dataset.OpenObjects/compressed prefix, nil fn", anError, func() error { _, err := gzPrefix().Scan(bg, dataset.Query{}, nil); return err }},
		{"dataset.OpenObjects/compressed prefix, negative size", anError, func() error {
			_, err := gzPrefix().Sample(bg, dataset.Query{}, dataset.Sampling{Size: -1})
			return err
		}},
		{"dataset.OpenObjects/compressed prefix, huge size and budget", noPanic, func() error {
			_, err := gzPrefix().Sample(bg, dataset.Query{}, dataset.Sampling{Size: 1 << 40, ObjectBytes: 1 << 62})
			return err
		}},
		{"dataset.OpenObjects/compressed prefix, size beyond the bytes", anError, func() error {
			objs := []dataset.Object{{Path: "s3://b/p/a.csv.gz", Key: "a.csv.gz", Size: 1 << 50, R: bytes.NewReader(nil)}, {Path: "s3://b/p/b.csv.gz", Key: "b.csv.gz", Size: 10, R: bytes.NewReader(nil)}}
			s, err := dataset.OpenObjects("s3://b/p/", objs, dataset.Options{})
			if err == nil {
				_, err = s.Sample(bg, dataset.Query{}, dataset.Sampling{Size: 2})
			}
			return err
		}},
		{"dataset.Source.Scan/nil ctx", nilContext, func() error { _, err := open().Scan(nilCtx, dataset.Query{}, each); return err }},
		{"dataset.Source.Scan/cancelled ctx", noPanic, func() error { _, err := open().Scan(cancelled(), dataset.Query{}, each); return err }},
		{"dataset.Source.Scan/nil fn", anError, func() error { _, err := open().Scan(bg, dataset.Query{}, nil); return err }},
		{"dataset.Source.Sample/nil ctx", nilContext, func() error {
			_, err := open().Sample(nilCtx, dataset.Query{}, dataset.Sampling{Size: 2, Src: src()})
			return err
		}},
		{"dataset.Source.Sample/huge size", noPanic, func() error {
			_, err := open().Sample(bg, dataset.Query{}, dataset.Sampling{Size: 1 << 40, Src: src()})
			return err
		}},
		{"dataset.Source.Scan/unknown column", anError, func() error {
			_, err := open().Scan(bg, dataset.Query{Columns: []string{"zz"}}, each)
			return err
		}},
		{"dataset.CSV methods/nil receiver", anError, func() error {
			nilCSV.Name()
			_ = nilCSV.Close()
			_, err := nilCSV.Scan(bg, dataset.Query{}, nil)
			return err
		}},
		{"dataset.Parquet methods/nil receiver", anError, func() error {
			nilPq.Name()
			nilPq.Rows()
			_ = nilPq.Close()
			_, err := nilPq.Scan(bg, dataset.Query{}, nil)
			return err
		}},
		{"dataset.Group.Len/nil receiver", callerPanic, func() error { (*dataset.Group)(nil).Len(); return nil }},
		{"dataset.IsCompressed/empty", noPanic, func() error { dataset.IsCompressed(""); return nil }},
	}
}

func qminCases() []misuse {
	a := good(20, 20, 8)
	var sym mat.SymDense
	sym.SymOuterK(1, a)
	d := make([]float64, 20)
	b := make([]float64, 20)
	for i := range d {
		d[i], b[i] = 1, 1
	}
	prob, err := qmin.NewDense(&sym, d, b)
	if err != nil {
		panic(err)
	}
	s := &qmin.Settings{K: 5, Draws: 2, Src: src()}
	var nilProb *qmin.Dense
	return []misuse{
		{"qmin.Sample/huge", anError, func() error { _, err := qmin.Sample(1<<40, 1<<40, true, rand.New(src())); return err }},
		{"qmin.Sample/huge without replacement", anError, func() error { _, err := qmin.Sample(1<<40, 1<<40, false, rand.New(src())); return err }},
		{"qmin.Sample/nil rnd", noPanic, func() error { _, err := qmin.Sample(10, 3, true, nil); return err }},
		{"qmin.NewDense/nil", anError, func() error { _, err := qmin.NewDense(nil, d, b); return err }},
		{"qmin.NewDense/typed nil", anError, func() error { _, err := qmin.NewDense(nilDense, d, b); return err }},
		{"qmin.NewDense/NaN", anError, func() error { _, err := qmin.NewDense(&sym, []float64{nan}, b); return err }},
		{"qmin.Estimate/nil", anError, func() error { _, err := qmin.Estimate(nil, s); return err }},
		{"qmin.Estimate/typed nil", anError, func() error { _, err := qmin.Estimate(nilProb, s); return err }},
		{"qmin.Estimate/huge K", anError, func() error { _, err := qmin.Estimate(prob, &qmin.Settings{K: 1 << 40}); return err }},
		{"qmin.Estimate/huge Draws", anError, func() error { _, err := qmin.Estimate(prob, &qmin.Settings{K: 2, Draws: 1 << 40}); return err }},
		{"qmin.EstimateContext/nil ctx", nilContext, func() error { _, err := qmin.EstimateContext(nilCtx, prob, s); return err }},
		{"qmin.EstimateContext/cancelled ctx", canceled, func() error { _, err := qmin.EstimateContext(cancelled(), prob, s); return err }},
		{"qmin.ExactContext/nil ctx", nilContext, func() error { _, err := qmin.ExactContext(nilCtx, prob, s); return err }},
		{"qmin.ExactContext/cancelled ctx", noPanic, func() error { _, err := qmin.ExactContext(cancelled(), prob, s); return err }},
		{"qmin.Exact/nil", anError, func() error { _, err := qmin.Exact(nil, s); return err }},
		{"qmin.MinimizeQuadratic/nil", anError, func() error { _, err := qmin.MinimizeQuadratic(nil, b, s); return err }},
		{"qmin.MinimizeQuadratic/NaN", anError, func() error { _, err := qmin.MinimizeQuadratic(&sym, []float64{nan}, s); return err }},
		{"qmin.Nystrom/nil", anError, func() error { _, err := qmin.Nystrom(nil, qmin.NystromPinv, s); return err }},
		{"qmin.Nystrom/huge K", anError, func() error { _, err := qmin.Nystrom(prob, qmin.NystromPinv, &qmin.Settings{K: 1 << 40}); return err }},
		{"qmin.Restricted/nil", anError, func() error { _, _, err := qmin.Restricted(nil, []int{0}, nil); return err }},
		{"qmin.Restricted/out of range", anError, func() error { _, _, err := qmin.Restricted(prob, []int{1 << 40}, nil); return err }},
		{"qmin.Dense.Columns/nil receiver", anError, func() error { return nilProb.Columns(mat.NewDense(20, 1, nil), []int{0}) }},
	}
}

func objstoreCases() []misuse {
	var nilStore *objstore.Store
	var nilObj *objstore.Object
	return []misuse{
		{"objstore.New/nil ctx", nilContext, func() error { objstore.New(nilCtx, objstore.Settings{}); return nil }},
		{"objstore.Store.List/nil receiver", anError, func() error { _, err := nilStore.List("s3://b/k"); return err }},
		{"objstore.Store.List/cancelled ctx", anError, func() error {
			_, err := objstore.New(cancelled(), objstore.Settings{Endpoint: "http://127.0.0.1:1", Anonymous: true}).List("s3://b/k")
			return err
		}},
		{"objstore.Store.List/bad URL", anError, func() error { _, err := objstore.New(bg, objstore.Settings{}).List("ftp://x"); return err }},
		{"objstore.Store.Stats/nil receiver", noPanic, func() error { nilStore.Stats(); return nil }},
		{"objstore.Object.ReadAt/nil receiver", anError, func() error { _, err := nilObj.ReadAt(make([]byte, 4), 0); return err }},
		{"objstore.Object getters/nil receiver", noPanic, func() error {
			nilObj.Size()
			nilObj.Key()
			nilObj.URL()
			nilObj.ETag()
			nilObj.Prefetch([][2]int64{{0, 1}}, false)
			return nil
		}},
	}
}

func otherCases() []misuse {
	score := func(ctx context.Context, i int) ([]float64, error) { return []float64{1}, nil }
	return []misuse{
		{"crossval.Search/nil ctx", nilContext, func() error {
			_, err := crossval.Search(nilCtx, []int{1, 2}, []float64{1}, score, 2)
			return err
		}},
		{"crossval.Search/cancelled ctx", canceled, func() error {
			_, err := crossval.Search(cancelled(), []int{1, 2}, []float64{1}, score, 2)
			return err
		}},
		{"crossval.Search/nil score", anError, func() error { _, err := crossval.Search(bg, []int{1, 2}, []float64{1}, nil, 2); return err }},
		{"crossval.Search/no rows", anError, func() error { _, err := crossval.Search[int](bg, nil, nil, score, 2); return err }},
		{"crossval.Table.Best/nil receiver", callerPanic, func() error { (*crossval.Table[int])(nil).Best(); return nil }},
		{"crossval.LogGrid/bad bounds", callerPanic, func() error { crossval.LogGrid(0, 1, 3); return nil }},
		{"kernel.Gaussian.At/lengths differ", callerPanic, func() error { kernel.Gaussian{Sigma: 1}.At([]float64{1}, nil); return nil }},
		{"kernel.MedianHeuristic/typed nil", anError, func() error { _, err := kernel.MedianHeuristic(nilDense, 10, nil); return err }},
		{"kernel.MedianHeuristic/nil", anError, func() error { _, err := kernel.MedianHeuristic(nil, 10, nil); return err }},
		{"kernel.MedianHeuristic/0 rows", anError, func() error { _, err := kernel.MedianHeuristic(zeroRows(), 10, nil); return err }},
		{"kernel.MedianHeuristic/NaN", anError, func() error { _, err := kernel.MedianHeuristic(withNaN(10, 1), 10, nil); return err }},
	}
}
