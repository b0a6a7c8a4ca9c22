package plots

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sublinear/pearson/internal/testtier"
)

var (
	nan  = math.NaN()
	pinf = math.Inf(1)
	ninf = math.Inf(-1)
)

// normals returns n draws of N(mu, sigma²) from a fixed seed.
func normals(seed uint64, n int, mu, sigma float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = mu + sigma*r.NormFloat64()
	}
	return xs
}

func normalPDF(x, mu, sigma float64) float64 {
	z := (x - mu) / sigma
	return math.Exp(-z*z/2) / (sigma * math.Sqrt(2*math.Pi))
}

// realisticSamples is a one-dimensional two-sample picture with the true
// α-relative ratio on a grid.
func realisticSamples() Samples {
	const alpha = 0.1
	s := Samples{
		Title:      "PE_α(P‖Q) = 0.102 ± 0.001",
		Column:     "x",
		P:          normals(1, 2000, 0, 1),
		Q:          normals(2, 5000, 0.6, 1.3),
		NameP:      "P (a.csv)",
		NameQ:      "Q (b.csv)",
		RatioCurve: true,
		RatioLabel: "r̂_α(x)",
	}
	for i := range 200 {
		x := -4.5 + 10*float64(i)/199
		p, q := normalPDF(x, 0, 1), normalPDF(x, 0.6, 1.3)
		s.RatioX = append(s.RatioX, x)
		s.RatioY = append(s.RatioY, p/(alpha*p+(1-alpha)*q))
	}
	return s
}

// scatterSamples is a picture of data of several dimensions: the ratio at the
// sample rows.
func scatterSamples() Samples {
	s := realisticSamples()
	s.RatioCurve = false
	s.RatioX, s.RatioY = nil, nil
	r := rand.New(rand.NewPCG(3, 1))
	for _, x := range append(append([]float64(nil), s.P...), s.Q...) {
		p, q := normalPDF(x, 0, 1), normalPDF(x, 0.6, 1.3)
		s.RatioX = append(s.RatioX, x)
		s.RatioY = append(s.RatioY, p/(0.1*p+0.9*q)*math.Exp(0.3*r.NormFloat64()))
	}
	return s
}

func realisticNull() Null {
	r := rand.New(rand.NewPCG(4, 1))
	n := Null{Title: "two-sample test: p = 0.001", Statistic: "PE statistic", Observed: 0.102}
	for range 999 {
		s := 0.0
		for range 3 {
			z := r.NormFloat64()
			s += z * z
		}
		n.Null = append(n.Null, 0.004*s-0.002)
	}
	return n
}

func realisticBars(k int) Bars {
	r := rand.New(rand.NewPCG(5, 1))
	b := Bars{Title: "squared-loss mutual information with y", Value: "SMI"}
	for i := range k {
		b.Labels = append(b.Labels, fmt.Sprintf("feature_%02d", i+1))
		v := 0.4*math.Exp(-float64(i)/3) + 0.01*r.NormFloat64()
		b.Values = append(b.Values, v)
		b.Errors = append(b.Errors, 0.01+0.01*r.Float64())
	}
	b.Labels[0] = "income (log dollars per year)"
	return b
}

// writers returns one realistic picture of each kind.
func writers() map[string]func(path string) error {
	return map[string]func(string) error{
		"samples": func(path string) error { return WriteSamples(path, realisticSamples()) },
		"scatter": func(path string) error { return WriteSamples(path, scatterSamples()) },
		"null":    func(path string) error { return WriteNull(path, realisticNull()) },
		"bars":    func(path string) error { return WriteBars(path, realisticBars(12)) },
		"bars100": func(path string) error { return WriteBars(path, realisticBars(100)) },
	}
}

// checkPNG checks that data is a PNG image of plausible size.
func checkPNG(t *testing.T, data []byte, minW, minH int) {
	t.Helper()
	if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("no PNG signature: % x", data[:min(8, len(data))])
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decoding PNG: %v", err)
	}
	b := img.Bounds()
	if b.Dx() < minW || b.Dy() < minH || b.Dx() > 2000 || b.Dy() > 4000 {
		t.Fatalf("PNG is %d×%d, want at least %d×%d", b.Dx(), b.Dy(), minW, minH)
	}
}

// checkSVG checks that data is well-formed XML with an svg element.
func checkSVG(t *testing.T, data []byte) {
	t.Helper()
	if !bytes.Contains(data, []byte("<svg")) {
		t.Fatal("no <svg element")
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		_, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not valid XML: %v", err)
		}
	}
}

func TestWritersFormats(t *testing.T) {
	dir := t.TempDir()
	for name, w := range writers() {
		for _, ext := range []string{".png", ".svg", ".PNG", ".Svg"} {
			t.Run(name+ext, func(t *testing.T) {
				path := filepath.Join(dir, name+ext)
				if err := w(path); err != nil {
					t.Fatal(err)
				}
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if len(data) == 0 {
					t.Fatal("empty file")
				}
				if strings.EqualFold(ext, ".png") {
					checkPNG(t, data, 500, 250)
				} else {
					checkSVG(t, data)
				}
			})
		}
	}
}

func TestSizes(t *testing.T) {
	skipUnderRace(t)
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		w    func(string) error
		h    int // expected height in pixels at 96 dpi
	}{
		{"samples", writers()["samples"], 576},
		{"null", writers()["null"], 384},
		{"bars1", func(p string) error { return WriteBars(p, realisticBars(1)) }, 288},
		{"bars100", writers()["bars100"], 2496},
	} {
		path := filepath.Join(dir, c.name+".png")
		if err := c.w(path); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Width != 576 || cfg.Height != c.h {
			t.Errorf("%s: %d×%d, want 576×%d", c.name, cfg.Width, cfg.Height, c.h)
		}
	}
}

func TestReproducible(t *testing.T) {
	skipUnderRace(t)
	dir := t.TempDir()
	for name, w := range writers() {
		for _, ext := range []string{".png", ".svg"} {
			a, b := filepath.Join(dir, name+"a"+ext), filepath.Join(dir, name+"b"+ext)
			if err := w(a); err != nil {
				t.Fatal(err)
			}
			if err := w(b); err != nil {
				t.Fatal(err)
			}
			da, _ := os.ReadFile(a)
			db, _ := os.ReadFile(b)
			if !bytes.Equal(da, db) {
				t.Errorf("%s%s: two runs give different bytes", name, ext)
			}
		}
	}
}

// TestDegenerate draws pictures of non-finite, empty, constant and
// single-value inputs: none may panic or fail.
func TestDegenerate(t *testing.T) {
	skipUnderRace(t)
	bad := []float64{nan, pinf, ninf}
	samples := map[string]Samples{
		"zero":          {},
		"nonfinite":     {P: bad, Q: bad, RatioX: bad, RatioY: []float64{1, 2, 3}, Title: "t"},
		"mixed":         {P: []float64{1, nan, 2, pinf, 3}, Q: []float64{ninf, 2.5}, RatioX: []float64{1, nan, 2}, RatioY: []float64{1, 2, pinf}, RatioCurve: true},
		"onlyP":         {P: []float64{1, 2, 3}},
		"onlyQ":         {Q: []float64{1, 2, 3}},
		"onlyRatio":     {RatioX: []float64{3, 1, 2}, RatioY: []float64{1, 2, 0.5}, RatioCurve: true},
		"constant":      {P: []float64{5, 5, 5}, Q: []float64{5}, RatioX: []float64{5}, RatioY: []float64{5}},
		"constantNear":  {P: []float64{5, 5, 5}, Q: []float64{5}, RatioX: []float64{5.1}, RatioY: []float64{5}},
		"single":        {P: []float64{0}, Q: []float64{1e300}},
		"tiny":          {P: []float64{1, 1 + 1e-15}, Q: []float64{1}},
		"huge":          {P: []float64{-1e308, 1e308}, Q: []float64{math.MaxFloat64}, RatioX: []float64{-1e308, 1e308}, RatioY: []float64{1e308, -1e308}, RatioCurve: true},
		"negativeRatio": {P: []float64{-1, 0, 1}, Q: []float64{0, 1, 2}, RatioX: []float64{-1, 0, 1}, RatioY: []float64{-0.5, -2, 0}},
	}
	nulls := map[string]Null{
		"zero":         {},
		"nonfinite":    {Null: bad, Observed: nan},
		"onlyObserved": {Observed: 3},
		"infObserved":  {Null: []float64{1, 2, 3}, Observed: pinf},
		"noObserved":   {Null: []float64{1, 2, 3}, Observed: nan},
		"left":         {Null: []float64{1, 2, 3}, Observed: -10},
		"constant":     {Null: []float64{2, 2, 2}, Observed: 2},
		"inside":       {Null: []float64{1, 2, nan, 3}, Observed: 2},
		"huge":         {Null: []float64{-1e308, 1e308}, Observed: math.MaxFloat64},
	}
	bars := map[string]Bars{
		"zero":      {},
		"empty":     {Labels: []string{}, Values: []float64{}, Errors: []float64{}},
		"nonfinite": {Labels: []string{"a", "b", "c"}, Values: bad, Errors: []float64{1, 2, 3}},
		"badErrors": {Labels: []string{"a", "b", "c"}, Values: []float64{1, 2, 3}, Errors: bad},
		"negative":  {Labels: []string{"a", "b", "c"}, Values: []float64{-1, 0.5, -0.2}, Errors: []float64{-0.1, 0.2, 0}},
		"zeros":     {Labels: []string{"a", "", "c"}, Values: []float64{0, 0, 0}},
		"long":      {Labels: []string{strings.Repeat("long label ", 20)}, Values: []float64{1}},
		"huge":      {Labels: []string{"a", "b"}, Values: []float64{-1e308, 1e308}, Errors: []float64{1e308, 1e308}},
	}
	dir := t.TempDir()
	for _, ext := range []string{".png", ".svg"} {
		for name, s := range samples {
			if err := WriteSamples(filepath.Join(dir, "s"+name+ext), s); err != nil {
				t.Errorf("samples %s%s: %v", name, ext, err)
			}
		}
		for name, n := range nulls {
			if err := WriteNull(filepath.Join(dir, "n"+name+ext), n); err != nil {
				t.Errorf("null %s%s: %v", name, ext, err)
			}
		}
		for name, b := range bars {
			if err := WriteBars(filepath.Join(dir, "b"+name+ext), b); err != nil {
				t.Errorf("bars %s%s: %v", name, ext, err)
			}
		}
	}
	// The inputs are not modified.
	s := samples["onlyRatio"]
	if s.RatioX[0] != 3 || s.RatioY[0] != 1 {
		t.Errorf("ratio points were reordered in place: %v %v", s.RatioX, s.RatioY)
	}
}

func TestMismatchedLengths(t *testing.T) {
	dir := t.TempDir()
	for name, err := range map[string]error{
		"ratio":  WriteSamples(filepath.Join(dir, "s.png"), Samples{RatioX: []float64{1}, RatioY: []float64{1, 2}}),
		"values": WriteBars(filepath.Join(dir, "b.png"), Bars{Labels: []string{"a"}, Values: []float64{1, 2}}),
		"errors": WriteBars(filepath.Join(dir, "b.svg"), Bars{Labels: []string{"a"}, Values: []float64{1}, Errors: []float64{}}),
	} {
		if err == nil || !strings.HasPrefix(err.Error(), "plots: ") {
			t.Errorf("%s: got %v, want an error starting with plots: ", name, err)
		}
	}
}

func TestUnwritable(t *testing.T) {
	skipUnderRace(t)
	dir := filepath.Join(t.TempDir(), "missing")
	for name, w := range writers() {
		for _, ext := range []string{".png", ".svg"} {
			err := w(filepath.Join(dir, name+ext))
			if err == nil {
				t.Fatalf("%s%s: no error writing into a missing directory", name, ext)
			}
			if !strings.HasPrefix(err.Error(), "plots: ") || !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s%s: got %v, want a wrapped os.ErrNotExist starting with plots: ", name, ext, err)
			}
		}
	}
}

func TestBadExtension(t *testing.T) {
	dir := t.TempDir()
	for name, w := range writers() {
		path := filepath.Join(dir, name+".jpg")
		if err := w(path); err == nil || !strings.HasPrefix(err.Error(), "plots: ") {
			t.Errorf("%s: got %v, want an error", name, err)
		}
		if _, err := os.Stat(path); err == nil {
			t.Errorf("%s: wrote %s", name, path)
		}
	}
}

func TestCheckPath(t *testing.T) {
	for _, ok := range []string{"a.png", "a.PNG", "a.svg", "dir/x.Svg", ".png", "a.b.png"} {
		if err := CheckPath(ok); err != nil {
			t.Errorf("CheckPath(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"x.jpg", "x", "", "png", "x.png.txt", "x.pdf", "x.png/"} {
		if err := CheckPath(bad); err == nil {
			t.Errorf("CheckPath(%q) = nil, want an error", bad)
		}
	}
	want := `plots: "x.jpg": the picture format is chosen by the extension: use .png or .svg`
	if err := CheckPath("x.jpg"); err == nil || err.Error() != want {
		t.Errorf("CheckPath(x.jpg) = %v, want %s", err, want)
	}
}

func TestNumBins(t *testing.T) {
	xs := normals(6, 5000, 0, 1)
	lo, hi := span(xs)
	if k := numBins(xs, len(xs), hi-lo); k < 30 || k > maxBins {
		t.Errorf("numBins(5000 normals) = %d", k)
	}
	if k := numBins(xs[:20], 20, hi-lo); k != minBins {
		t.Errorf("numBins(20 normals) = %d, want %d", k, minBins)
	}
	if k := numBins([]float64{1, 1, 1, 1}, 4, 1); k != minBins {
		t.Errorf("numBins(constant) = %d, want %d", k, minBins)
	}
	// Densities integrate to 1, and values at the edges are counted.
	bins := histogram(binEdges(lo, hi, 17), xs, true)
	sum := 0.0
	for _, b := range bins {
		sum += b.Weight * (b.Max - b.Min)
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("density integrates to %v", sum)
	}
}

// TestWriteExamples writes a realistic picture of each kind into the directory
// named by $PLOTS_EXAMPLES, for looking at them:
//
//	PLOTS_EXAMPLES=/tmp/plots go test -run WriteExamples ./internal/plots/
func TestWriteExamples(t *testing.T) {
	dir := os.Getenv("PLOTS_EXAMPLES")
	if dir == "" {
		t.Skip("PLOTS_EXAMPLES not set")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, w := range writers() {
		for _, ext := range []string{".png", ".svg"} {
			if err := w(filepath.Join(dir, name+ext)); err != nil {
				t.Error(err)
			}
		}
	}
}

// TestExtremeValues draws pictures of random mixtures of extreme values
// (tiny, huge, subnormal, non-finite); none may fail, panic or hang.
func TestExtremeValues(t *testing.T) {
	skipUnderRace(t)
	r := rand.New(rand.NewPCG(11, 7))
	special := []float64{0, 0.1, 1, 1 + 1e-16, 5e-324, -5e-324, 1e-300, 1e154, 1e300, -1e300,
		1.5e308, -1.5e308, math.MaxFloat64, -math.MaxFloat64, nan, pinf, ninf}
	gen := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = special[r.IntN(len(special))]
		}
		return xs
	}
	dir := t.TempDir()
	iters := testtier.Pick(10, 60)
	for it := range iters {
		path := filepath.Join(dir, fmt.Sprintf("x%d.png", it))
		if it%2 == 1 {
			path = filepath.Join(dir, fmt.Sprintf("x%d.svg", it))
		}
		k := r.IntN(5)
		s := Samples{P: gen(r.IntN(5)), Q: gen(r.IntN(5)), RatioX: gen(k), RatioY: gen(k), RatioCurve: it%3 == 0}
		if err := WriteSamples(path, s); err != nil {
			t.Fatalf("%#v: %v", s, err)
		}
		n := Null{Null: gen(r.IntN(5)), Observed: gen(1)[0]}
		if err := WriteNull(path, n); err != nil {
			t.Fatalf("%#v: %v", n, err)
		}
		k = r.IntN(5)
		b := Bars{Labels: make([]string, k), Values: gen(k), Errors: gen(k)}
		if err := WriteBars(path, b); err != nil {
			t.Fatalf("%#v: %v", b, err)
		}
	}
}

// skipUnderRace skips a rendering test under the race detector: drawing is
// single-threaded, and rasterising instrumented code takes seconds a
// picture. TestWritersFormats still draws every picture there; .ci/run runs
// the rest without the detector.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if testtier.Race {
		t.Skip("single-threaded rendering, slow under the race detector; .ci/run runs it without -race")
	}
}

func TestWriteLines(t *testing.T) {
	dir := t.TempDir()
	l := Lines{Title: "error against k", X: "k", Y: "error", LogX: true, LogY: true, Series: []Series{
		{Name: "n = 200", X: []float64{10, 20, 40}, Y: []float64{0.01, 0.006, 0.004}, Err: []float64{0.005, 0.009, 0.001}},
		{Name: "n = 500", X: []float64{10, 20, 40}, Y: []float64{0.012, nan, 0}},
	}}
	for _, name := range []string{"l.png", "l.svg"} {
		path := filepath.Join(dir, name)
		if err := WriteLines(path, l); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(path); err != nil || len(b) < 500 {
			t.Errorf("%s: %v, %d bytes", name, err, len(b))
		}
	}
	bad := Lines{Series: []Series{{X: []float64{1, 2}, Y: []float64{1}}}}
	if err := WriteLines(filepath.Join(dir, "b.png"), bad); err == nil {
		t.Error("mismatched series: no error")
	}
}
