package csvtable_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sublinear/pearson/cmd/pearson/internal/csvtable"
)

func Example() {
	const data = `arm,dose,response,note
ctl,0,1.5,baseline
A,0.5,2.25,
ctl,0,1.75,"late, retested"
A,1,3.5,
`
	tab, err := csvtable.Read(strings.NewReader(data), "trial.csv", csvtable.Options{Group: "arm"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("columns:", tab.Columns)
	for _, g := range tab.Groups {
		fmt.Printf("group %s: %d rows\n", g.Key, g.Rows)
		for i := 0; i < g.Len(); i++ {
			fmt.Printf("  line %d: %v\n", g.Lines[i], g.Row(i))
		}
	}

	_, err = csvtable.Read(strings.NewReader(data), "trial.csv", csvtable.Options{Columns: []string{"dose", "note"}})
	fmt.Println(err)
	fmt.Println(errors.Is(err, csvtable.ErrNotNumber))
	// Output:
	// columns: [dose response]
	// group ctl: 2 rows
	//   line 2: [0 1.5]
	//   line 4: [0 1.75]
	// group A: 2 rows
	//   line 3: [0.5 2.25]
	//   line 5: [1 3.5]
	// csvtable: trial.csv: line 2, column "note" (field 4): cannot parse "baseline" as a number
	// true
}

func ExampleReadVector() {
	v, err := csvtable.ReadVector(strings.NewReader("1.5 2 -3\n"), "b.txt", ' ')
	fmt.Println(v, err)
	// Output: [1.5 2 -3] <nil>
}
