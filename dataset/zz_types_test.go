package dataset

import (
	"context"
	"testing"
	"time"
)

type zzInner struct {
	A float64 `parquet:"a"`
}

type zzRow struct {
	X    float64   `parquet:"x"`
	L    []float64 `parquet:"l,list"`
	S    zzInner   `parquet:"s"`
	T    time.Time `parquet:"t,timestamp"`
	Name string    `parquet:"name"`
	R    []float64 `parquet:"r"`
}

func TestZZTypes(t *testing.T) {
	var rows []zzRow
	for i := range 50 {
		rows = append(rows, zzRow{X: float64(i), L: []float64{1, 2}, S: zzInner{A: 1}, T: time.Unix(int64(i), 0), Name: "n", R: []float64{3}})
	}
	path := writePQ(t, "t.parquet", [][]zzRow{rows})
	p, err := OpenParquet(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"l", "s", "t", "name", "r"} {
		_, err := p.Sample(context.Background(), Query{Columns: []string{c}}, Sampling{})
		t.Log(c, err)
	}
	_, err = p.Sample(context.Background(), Query{}, Sampling{})
	t.Log("all", err)
}
