package changepoint_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/sublinear/pearson/changepoint"
)

func TestZZDebug(t *testing.T) {
	name := os.Getenv("DBG_FAM")
	n, _ := strconv.Atoi(os.Getenv("DBG_N"))
	all := append(append([]family{}, families...), columnFamilies...)
	for fi, fam := range all {
		if fam.name != name {
			continue
		}
		base := fi
		if fi >= len(families) {
			base = fi - len(families) + columnFamilyBase
		}
		for seed := range uint64(n) {
			a := fam.series(base, seed)
			x, _ := observed(a.x)
			res, err := changepoint.Segment(context.Background(), x, changepoint.DefaultAlpha, nil)
			if err != nil {
				t.Log(err)
				continue
			}
			T, _ := x.Dims()
			s := ""
			for _, c := range res.Changes {
				s += " " + strconv.Itoa(c.Time) + ":" + c.Rule[:3]
			}
			t.Logf("seed %d T %d truth %v found%s | PELT %v BinSeg %v", seed, T, a.cps[1:], s, pelt(x), binSeg(x))
		}
	}
}
