package changepoint_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/sublinear/pearson/changepoint"
)

func TestDebugFamily(t *testing.T) {
	name := os.Getenv("DBG_FAM")
	if name == "" {
		t.Skip()
	}
	for fi, fam := range families {
		if fam.name != name {
			continue
		}
		for seed := uint64(0); seed < 10; seed++ {
			a := fam.series(fi, seed)
			x, _ := observed(a.x)
			res, err := changepoint.Segment(context.Background(), x, changepoint.DefaultAlpha, nil)
			if err != nil {
				t.Log(err)
				continue
			}
			var got []string
			var cps []int
			for _, c := range res.Changes {
				got = append(got, fmt.Sprintf("%d%s", c.Time, c.Rule[:2]))
				cps = append(cps, c.Time)
			}
			T, _ := x.Dims()
			fmt.Printf("seed %d T %d f1 %.2f true %v got %v\n", seed, T, f1(a.cps, cps, 5), a.cps[1:], got)
		}
	}
}
