// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sublinear/pearson/internal/testtier"
)

// TestRemoteSecretsNeverShown runs every command, in every output format,
// with a plot, drift's HTML report and a saved reference, on inputs behind
// an HTTP server on 127.0.0.1 that wants a password, named by URLs that
// carry it (user:secretpw@) and a presigned query string
// (X-Amz-Credential, X-Amz-Signature), and checks that no output, file
// written or message holds a secret, nor does the error of a wrong
// password.
//
// The default tier runs every command in text, and pe, test, mi and rank
// in JSON and CSV too; the long tier every command in every format.
func TestRemoteSecretsNeverShown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i, name := range []string{"p.csv", "q.csv"} {
		var b strings.Builder
		b.WriteString("t,x,y\n")
		r := rand.New(rand.NewPCG(uint64(i), 3))
		for k := range 600 {
			x := r.NormFloat64() + 0.5*float64(i)
			if k >= 300 {
				x += 2
			}
			fmt.Fprintf(&b, "%d,%.5f,%.5f\n", k, x, x*x+r.NormFloat64())
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := http.FileServer(http.Dir(dir))
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, pw, ok := r.BasicAuth(); !ok || u != "user" || pw != "secretpw" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		files.ServeHTTP(w, r)
	}))
	defer hs.Close()
	secrets := []string{"secretpw", "SECRETSIG", "AKIDSECRET", "user:", "user@", "X-Amz"}
	url := func(name, pw string) string {
		return strings.Replace(hs.URL, "http://", "http://user:"+pw+"@", 1) + "/" + name +
			"?X-Amz-Credential=AKIDSECRET%2F20261127&X-Amz-Signature=SECRETSIG"
	}
	P, Q := url("p.csv", "secretpw"), url("q.csv", "secretpw")
	out := t.TempDir()
	ref := filepath.Join(out, "ref.json")
	// --save-reference first: the runs of --reference read it.
	// Small estimates (--k 10 --m 200 --draws 2 --sigma 1 --lambda 0.1:
	// no cross-validation) keep the 22 runs cheap; the names printed do
	// not depend on them.
	cheap := []string{"--k", "10", "--m", "200", "--draws", "2", "--permutations", "5"}
	fixed := []string{"--sigma", "1", "--lambda", "0.1"}
	cases := [][]string{{"drift", "--save-reference", ref, P}}
	for _, f := range []string{"text", "json", "csv"} {
		ff := []string{"--format", f}
		cheapOnly := f != "text" && !testtier.Enabled()
		cases = append(cases,
			slices.Concat([]string{"pe"}, ff, cheap[:6], fixed, []string{"--columns", "x,y", "--plot", filepath.Join(out, "pe.svg"), P, Q}),
			slices.Concat([]string{"test"}, ff, cheap, fixed, []string{"--columns", "x,y", P, Q}),
			slices.Concat([]string{"mi"}, ff, cheap, []string{"--x", "x", "--y", "y", "--plot", filepath.Join(out, "mi.svg"), P}),
			slices.Concat([]string{"rank"}, ff, cheap, []string{"--target", "y", "--features", "x,t", P}),
		)
		if cheapOnly {
			continue
		}
		cases = append(cases,
			slices.Concat([]string{"changepoint"}, ff, []string{"--columns", "x", "--plot", filepath.Join(out, "cp.svg"), P}),
			slices.Concat([]string{"drift"}, ff, cheap, []string{"--html", filepath.Join(out, "drift.html"), P, Q}),
			slices.Concat([]string{"drift"}, ff, cheap, []string{"--reference", ref, Q}),
		)
	}
	check := func(what, s string) {
		t.Helper()
		for _, sec := range secrets {
			if strings.Contains(s, sec) {
				t.Errorf("%s shows %q:\n%s", what, sec, s)
			}
		}
	}
	for _, c := range cases {
		start := time.Now()
		code, stdout, stderr := run(t, c...)
		t.Logf("%v: %v", c[:3], time.Since(start))
		if code != 0 {
			t.Errorf("%v: exit %d: %s", c[:3], code, stderr)
		}
		check(fmt.Sprintf("%v stdout", c[:3]), stdout)
		check(fmt.Sprintf("%v stderr", c[:3]), stderr)
		if !strings.Contains(stdout+stderr, hs.URL+"/") {
			t.Errorf("%v does not name its input %s/…:\n%s%s", c[:3], hs.URL, stdout, stderr)
		}
	}
	written, _ := filepath.Glob(filepath.Join(out, "*"))
	if len(written) != 5 {
		t.Errorf("files written: %v; want 5", written)
	}
	for _, f := range written {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		check(filepath.Base(f), string(b))
	}
	// A wrong password: the error names the input without its secrets.
	secrets = append(secrets, "wrongsecretpw")
	code, stdout, stderr := run(t, "pe", url("p.csv", "wrongsecretpw"), Q)
	if code != 1 || !strings.Contains(stderr, hs.URL+"/p.csv: reading its size: access denied: HTTP 401") {
		t.Errorf("a wrong password: exit %d, %s", code, stderr)
	}
	check("the error of a wrong password", stdout+stderr)
}
