// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fuzzFiles writes small fixtures into dir and returns the names the fuzzed
// command lines may use for them.
func fuzzFiles(t testing.TB, dir string) map[string]string {
	rnd := rand.New(rand.NewPCG(1, 1))
	files := map[string]string{}
	write := func(name, content string) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		files[strings.TrimSuffix(name, ".csv")] = p
	}
	var p, q, g, r strings.Builder
	p.WriteString("x,z\n")
	q.WriteString("x,z\n")
	g.WriteString("grp,x,z\n")
	r.WriteString("a,b,c,y\n")
	for i := range 40 {
		fmt.Fprintf(&p, "%.3f,%d\n", rnd.NormFloat64(), i%3)
		fmt.Fprintf(&q, "%.3f,%d\n", 0.5+rnd.NormFloat64(), i%4)
		fmt.Fprintf(&g, "%s,%.3f,%.3f\n", []string{"A", "B", "C"}[i%3], rnd.NormFloat64(), rnd.NormFloat64())
		a, b := rnd.Float64(), rnd.Float64()
		fmt.Fprintf(&r, "%.3f,%.3f,%.3f,%.3f\n", a, b, rnd.Float64(), a*a+b+0.1*rnd.NormFloat64())
	}
	write("P.csv", p.String())
	write("Q.csv", q.String())
	write("G.csv", g.String())
	write("R.csv", r.String())
	write("A.csv", "2,1,0\n1,3,1\n0,1,2\n")
	write("d.csv", "1\n1\n1\n")
	write("b.csv", "1,-1,0.5\n")
	return files
}

// sanitize turns fuzzed words into a command line that is safe and quick:
// names of fixtures become their paths, other paths a missing file, no flag
// writes a file, and numbers are capped at 200.
func sanitize(words []string, files map[string]string, missing string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		name, value, hasValue := strings.Cut(w, "=")
		if strings.HasPrefix(name, "-") && (strings.Contains(name, "plot") || strings.Contains(name, "ratio-out") || strings.Contains(name, "out")) {
			if !hasValue {
				i++ // and its value
			}
			continue
		}
		if hasValue && strings.HasPrefix(name, "-") {
			w = name + "=" + capNumber(value)
		} else {
			w = capNumber(w)
		}
		if p, ok := files[w]; ok {
			w = p
		} else if strings.ContainsAny(w, "/\\") || strings.HasPrefix(w, ".") && len(w) > 1 {
			w = missing
		}
		out = append(out, w)
	}
	return out
}

func capNumber(s string) string {
	if v, err := strconv.ParseFloat(s, 64); err == nil && (v > 200 || v < -200) {
		if v < 0 {
			return "-200"
		}
		return "200"
	}
	return s
}

// FuzzRun runs the command line on fuzzed argument lists. Whatever the
// arguments: an exit code of 0, 1 or 2, no panic trace, nothing on standard
// output after an error, and never NaN or an infinity in the output.
func FuzzRun(f *testing.F) {
	for _, seed := range []string{
		"divergence P Q", "pe --group grp G --numerator A --denominator C", "test --permutations 5 P Q",
		"mi --x a,b --y y R", "smi --x a --y y --permutations 4 R", "rank --target y --top 2 R",
		"qmin --a A --d d --b b --exact", "qmin --a A --d d --b b --box 0.1 --k 2",
		"divergence --k 0 P Q", "divergence --alpha 1 P Q", "rank --target nope R", "pe --columns z,x P Q --exact",
		"divergence - Q", "test --sigma -1 P Q", "mi --x a --y a R", "--version", "frobnicate", "pe P P --standardize",
		"divergence --format json --draws 2 --m 10 --k 3 P Q", "rank --features a,b --target y --standardize --format csv R",
	} {
		f.Add(seed, "x\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n")
	}
	// Text class labels, read as a target by mi and rank.
	f.Add("mi --x x --y c -", "x,c\n1,cat\n2, dog\n3,\n4,cat\n5,dog\n6,cat\n")
	f.Add("rank --target grp G", "")
	f.Add("mi --x x --y grp --y-type categorical G", "")
	dir := f.TempDir()
	files := fuzzFiles(f, dir)
	missing := filepath.Join(dir, "missing.csv")
	f.Fuzz(func(t *testing.T, line, in string) {
		args := sanitize(strings.Fields(line), files, missing)
		var out, errb bytes.Buffer
		code := Run(context.Background(), append([]string{"pearson"}, args...), strings.NewReader(in), &out, &errb)
		o, e := out.String(), errb.String()
		switch {
		case code != exitOK && code != exitData && code != exitUsage:
			t.Fatalf("%q: exit code %d", args, code)
		case strings.Contains(e, "panic") || strings.Contains(e, "goroutine "):
			t.Fatalf("%q: panic: %s", args, e)
		case code != exitOK && o != "":
			t.Fatalf("%q: exit code %d with output %q", args, code, o)
		case strings.Contains(o, "NaN") || strings.Contains(o, "Inf"):
			t.Fatalf("%q: non-finite output %q", args, o)
		}
	})
}
