package plots_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/sublinear/pearson/internal/plots"
)

func ExampleWriteNull() {
	dir, err := os.MkdirTemp("", "plots-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	path := filepath.Join(dir, "null.svg")
	if err := plots.CheckPath(path); err != nil {
		log.Fatal(err)
	}
	err = plots.WriteNull(path, plots.Null{
		Title:     "two-sample test: p = 0.2",
		Statistic: "PE statistic",
		Null:      []float64{0.01, 0.02, 0.02, 0.03, 0.05, 0.08},
		Observed:  0.04,
	})
	if err != nil {
		log.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.HasPrefix(data, []byte("<?xml")), bytes.Contains(data, []byte("<svg")))
	fmt.Println(plots.CheckPath("null.jpg"))
	// Output:
	// true true
	// plots: "null.jpg": the picture format is chosen by the extension: use .png or .svg
}
