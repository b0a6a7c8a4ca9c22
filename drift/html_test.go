// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"bytes"
	"context"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sublinear/pearson/internal/testtier"
)

// reportResult compares a small mixed table with one shifted numeric column,
// one changed categorical column and one whose missing share grew.
func reportResult(t *testing.T) *Result {
	t.Helper()
	rnd := rand.New(rand.NewPCG(3, 4))
	ref := normalTable(1500, 4, nil, rnd)
	cur := normalTable(1500, 4, map[int]float64{2: 1}, rnd)
	ref = append(ref, categoricalColumn("colour", 1500, []float64{.5, .3, .2}, rnd))
	cur = append(cur, categoricalColumn("colour", 1500, []float64{.2, .3, .5}, rnd))
	for i := range 600 {
		cur[0].Values[i] = math.NaN()
	}
	cur[0].Rows, cur[0].Missing = 1500, 600
	res, err := Compare(context.Background(), ref, cur, fastSettings(5))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestWriteHTMLSelfContained(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteHTML(&b, reportResult(t), "drift <report>"); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<script", "<link", "src=", "url(", "@import", "<img"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q: it must load nothing", bad)
		}
	}
	if !strings.Contains(page, "drift &lt;report&gt;") {
		t.Error("the title is not escaped")
	}
	if n := strings.Count(page, "<svg"); n != 5 {
		t.Errorf("%d charts, want 5", n)
	}
	if want := "Joint row: each column scaled by (x − median)/(1.4826·MAD) over both tables."; !strings.Contains(page, want) {
		t.Errorf("the page does not say how the joint row scaled its columns (%q)", want)
	}
}

// TestWriteHTMLInBrowser renders the report in headless Chromium and checks
// what the page shows: the verdict, the rows in sorted order, the charts,
// and a screenshot that is not blank.
func TestWriteHTMLInBrowser(t *testing.T) {
	t.Parallel()
	testtier.SkipUnderRace(t) // the page is checked by the run without the detector; the browser is not instrumented
	const chromium = "/usr/bin/chromium"
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: .ci/run installs it (apt-get install chromium)", chromium)
		}
		t.Skipf("%s is missing: install Debian's chromium to run this test (apt-get install chromium)", chromium)
	}
	res := reportResult(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	var b bytes.Buffer
	if err := WriteHTML(&b, res, "Drift report"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(extra ...string) []byte {
		args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--user-data-dir=" + t.TempDir(), "--window-size=1200,1600"}, extra...)
		args = append(args, "file://"+path)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, chromium, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("chromium %v: %v\n%s", extra, err, stderr.String())
		}
		return stdout.Bytes()
	}

	dom := string(run("--dump-dom"))
	verdict := regexp.MustCompile(`<p id="verdict"[^>]*>([^<]*)</p>`).FindStringSubmatch(dom)
	if verdict == nil {
		t.Fatalf("no verdict in the rendered page:\n%s", dom)
	}
	want := "No drift: 3 of 5 columns drifted"
	if res.Drift {
		want = "Drift: 3 of 5 columns drifted"
	}
	if !strings.HasPrefix(verdict[1], want) {
		t.Errorf("verdict %q, want it to start with %q", verdict[1], want)
	}
	names := regexp.MustCompile(`<td class="name">([^<]*)</td>`).FindAllStringSubmatch(dom, -1)
	sorted := res.Sorted()
	if len(names) != len(sorted)+1 {
		t.Fatalf("%d rows in the rendered table, want %d and the joint row", len(names), len(sorted))
	}
	for i, c := range sorted {
		if names[i][1] != c.Name {
			t.Errorf("row %d is %q, want %q", i, names[i][1], c.Name)
		}
	}
	if names[len(sorted)][1] != "(joint)" {
		t.Errorf("last row %q, want the joint row", names[len(sorted)][1])
	}
	for _, c := range sorted[:3] {
		if !c.Drifted {
			t.Errorf("column %q sorted among the first three but not drifted", c.Name)
		}
	}
	if n := strings.Count(dom, "<svg"); n != len(sorted) {
		t.Errorf("%d charts in the rendered page, want %d", n, len(sorted))
	}

	shot := filepath.Join(dir, "shot.png")
	run("--screenshot=" + shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	// The page is mostly white; text, table and charts must make the
	// grey levels vary.
	var sum, sq, n float64
	colours := map[[3]uint32]bool{}
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y += 2 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			v := float64(r+g+b) / 3 / 65535
			sum, sq, n = sum+v, sq+v*v, n+1
			colours[[3]uint32{r >> 12, g >> 12, b >> 12}] = true
		}
	}
	mean := sum / n
	if variance := sq/n - mean*mean; variance < 1e-3 || len(colours) < 8 {
		t.Errorf("the screenshot looks blank: grey variance %.3g, %d colours", variance, len(colours))
	}
}
