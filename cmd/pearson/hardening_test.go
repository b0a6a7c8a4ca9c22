// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sublinear/pearson/internal/testtier"
)

func TestSameBytesWhateverTheCores(t *testing.T) {
	// The same command and seed print the same bytes with 1 and 4 cores.
	// Not parallel: GOMAXPROCS is the whole process's.
	cases := [][]string{
		{"divergence", shiftP, shiftQ},
		{"pe", "--group", "group", "--numerator", "B", "--denominator", "ctl", "--m", "600", "--format", "csv", groups},
		{"test", "--permutations", "200", "--m", "500", shiftP, shiftQ},
		{"mi", "--x", "x3,x4", "--y", "y", "--permutations", "50", "--k", "50", "--m", "1000", regression},
		{"rank", "--target", "y", "--permutations", "20", "--k", "50", "--m", "1000", regression},
		{"qmin", "--a", testdata("qmin", "A.csv"), "--d", testdata("qmin", "d.csv"), "--b", testdata("qmin", "b.csv"), "--exact", "--box", "0.2"},
	}
	if testtier.Race {
		// The detector watches the workers of an estimate and of a
		// permutation test at 4 cores; the other commands' equal bytes
		// are arithmetic, which the run without it checks.
		cases = cases[:3]
	}
	for _, args := range cases {
		var outs []string
		for _, procs := range []int{1, 4} {
			old := runtime.GOMAXPROCS(procs)
			code, out, errs := run(t, args...)
			runtime.GOMAXPROCS(old)
			if code != 0 {
				t.Fatalf("%v: code %d: %s", args, code, errs)
			}
			outs = append(outs, out)
		}
		if outs[0] != outs[1] {
			t.Errorf("%v: GOMAXPROCS 1 and 4 differ:\n%s\n%s", args, outs[0], outs[1])
		}
	}
}

func TestOtherSeedWithinStandardError(t *testing.T) {
	t.Parallel()
	// Another seed draws other centres and averaging points: the estimate
	// moves, but by no more than its reported standard errors allow (four
	// of them, combined; σ and λ fixed, so that the seed changes only the
	// draws and the standard error covers all of its randomness).
	args := []string{"pe", "--sigma", "0.8", "--lambda", "0.2", "--m", "400", "--k", "50", "--draws", "10", "--format", "json", "--group", "group", "--numerator", "A", "--denominator", "ctl", groups}
	var pe, se []float64
	for _, seed := range []string{"1", "2", "3"} {
		code, out, errs := run(t, append(args, "--seed", seed)...)
		if code != 0 {
			t.Fatalf("code %d: %s", code, errs)
		}
		var v struct{ PE, Stderr float64 }
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		pe, se = append(pe, v.PE), append(se, v.Stderr)
	}
	for i := 1; i < len(pe); i++ {
		d, lim := math.Abs(pe[i]-pe[0]), 4*math.Hypot(se[i], se[0])
		if pe[i] == pe[0] {
			t.Errorf("seed %d gave the same estimate as seed 1", i+1)
		}
		if d > lim {
			t.Errorf("seed %d: PE %v, seed 1: %v; difference %.3g beyond 4 standard errors %.3g", i+1, pe[i], pe[0], d, lim)
		}
	}
}

// csvStream generates a CSV file of two groups and two columns, row by
// row, without holding it.
type csvStream struct {
	rows, done int
	rnd        *rand.Rand
	buf        bytes.Buffer
}

func (s *csvStream) Read(p []byte) (int, error) {
	for s.buf.Len() < len(p) && s.done <= s.rows {
		if s.done == 0 {
			s.buf.WriteString("g,x,z\n")
		} else if s.rnd.IntN(2) == 0 {
			fmt.Fprintf(&s.buf, "A,%.4f,%.4f\n", s.rnd.NormFloat64(), s.rnd.NormFloat64())
		} else {
			fmt.Fprintf(&s.buf, "B,%.4f,%.4f\n", 0.3+s.rnd.NormFloat64(), s.rnd.NormFloat64())
		}
		s.done++
	}
	if s.buf.Len() == 0 {
		return 0, io.EOF
	}
	return s.buf.Read(p)
}

func TestMemoryBoundedOnLongInput(t *testing.T) {
	// 3·10⁶ rows streamed through standard input in sampled mode: the heap
	// must stay bounded by the reservoirs (2 × 131 200 rows of 2 values and
	// a line number, 6 MB), not grow with the rows (keeping them all would
	// take 72 MB, twice that while the slices grow). Not parallel: other
	// tests would share the heap measured.
	testtier.SkipUnderRace(t) // the heap it measures is the detector's too
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			for p := peak.Load(); ms.HeapInuse > p && !peak.CompareAndSwap(p, ms.HeapInuse); p = peak.Load() {
			}
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	var out, errb bytes.Buffer
	in := &csvStream{rows: 3_000_000, rnd: rand.New(rand.NewPCG(3, 3))}
	code := Run(context.Background(), []string{"pearson", "pe", "--group", "g", "--format", "json", "-"}, in, &out, &errb)
	close(stop)
	<-done
	if code != 0 {
		t.Fatalf("code %d: %s", code, errb.String())
	}
	var v struct {
		NP int `json:"n_p"`
		NQ int `json:"n_q"`
	}
	json.Unmarshal(out.Bytes(), &v)
	mb := float64(peak.Load()) / (1 << 20)
	t.Logf("3·10⁶ rows: n_p %d + n_q %d, peak heap in use %.1f MB", v.NP, v.NQ, mb)
	if v.NP+v.NQ != 3_000_000 {
		t.Errorf("counted %d rows", v.NP+v.NQ)
	}
	if mb > 48 {
		t.Errorf("peak heap %.1f MB: it grows with the rows", mb)
	}
}

func TestNumbersAtAnyScale(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t) // statistical arithmetic through the command, checked by the run without the detector
	// The same data in units a million times smaller or larger give the same
	// PE and SMI: the kernel widths follow the data's scale.
	base := func(scale float64) string {
		var b strings.Builder
		b.WriteString("g,x,y\n")
		rnd := rand.New(rand.NewPCG(5, 5))
		for i := range 600 {
			g, shift := "A", 0.0
			if i%2 == 1 {
				g, shift = "B", 0.7
			}
			x := rnd.NormFloat64() + shift
			fmt.Fprintf(&b, "%s,%.17g,%.17g\n", g, x*scale, (x*x+0.3*rnd.NormFloat64())*scale)
		}
		return b.String()
	}
	get := func(in string, args ...string) float64 {
		code, out, errs := runStdin(t, in, append(args, "--format", "json", "-")...)
		if code != 0 {
			t.Fatalf("%v: code %d: %s", args, code, errs)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		if x, ok := v["pe"].(float64); ok {
			return x
		}
		return v["smi"].(float64)
	}
	for _, cmd := range [][]string{{"pe", "--group", "g"}, {"mi", "--x", "x", "--y", "y"}} {
		want := get(base(1), cmd...)
		for _, scale := range []float64{1e-6, 1e6} {
			if got := get(base(scale), cmd...); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
				t.Errorf("%v at scale %g: %v, unscaled %v", cmd[0], scale, got, want)
			}
		}
	}
}
