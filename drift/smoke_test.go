package drift

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

func TestSmoke(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	ref := normalTable(2000, 5, nil, rnd)
	cur := normalTable(2000, 5, map[int]float64{1: 0.5}, rnd)
	ref = append(ref, categoricalColumn("c", 2000, []float64{.5, .3, .2}, rnd))
	cur = append(cur, categoricalColumn("c", 2000, []float64{.4, .3, .3}, rnd))
	for _, s := range []*Settings{fastSettings(1), nil} {
		st := time.Now()
		res, err := Compare(context.Background(), ref, cur, s)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v drift=%v share=%v", time.Since(st), res.Drift, res.Share)
		for _, c := range append(res.Columns, *res.Joint) {
			t.Logf("%s %v pe=%.4g±%.2g p=%.3g q=%.3g B=%d drifted=%v %s", c.Name, c.Kind, c.Divergence, c.StdErr, c.PValue, c.QValue, c.Permutations, c.Drifted, c.Note)
		}
	}
}
