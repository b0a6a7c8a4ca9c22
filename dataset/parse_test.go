// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// checkDecimal fails t when parseDecimal takes s and disagrees, bit for
// bit, with strconv.ParseFloat, or when parseNumber's value or error
// differs from strconv's path.
func checkDecimal(t *testing.T, s string) (fast bool) {
	t.Helper()
	v, ok := parseDecimal(s)
	if ok {
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(v) != math.Float64bits(want) {
			t.Fatalf("parseDecimal(%q) = %v (%#x), strconv: %v (%#x), %v", s, v, math.Float64bits(v), want, math.Float64bits(want), err)
		}
	}
	got, gerr := parseNumber(s)
	want, werr := parseFloat(strings.TrimSpace(s)) // strconv alone
	if gerr != werr || math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("parseNumber(%q) = %v, %v; strconv's path: %v, %v", s, got, gerr, want, werr)
	}
	return ok
}

// TestParseDecimal checks the fast path of parseNumber against strconv
// on edge cases (signs, zeros, the bounds of 2⁵³, 19 digits and the
// exponents 22 and 37, halfway cases, other syntax) and on random decimals
// of the shapes tables hold: every value taken must be strconv's, bit for
// bit, and a sample of them must take it.
func TestParseDecimal(t *testing.T) {
	edges := []string{
		"0", "-0", "+0", "0.0", "-0.0", "00", "0e0", "-0e-5", "0e99", "1", "-1", "+1.5", ".5", "5.", "-.5", ".",
		"", "-", "+", "e5", "1e", "1e+", "1e-", "1.e5", "1..2", "1.2.3", "1e5.5", " 1", "1 ", "1_000", "0x10", "0x1p3",
		"Inf", "-inf", "NaN", "nan", "1e400", "-1e400", "1e-400", "4.9e-324", "2.2250738585072014e-308",
		"9007199254740991", "9007199254740992", "9007199254740993", "18014398509481985",
		"1234567890123456789", "12345678901234567890", "0.1234567890123456789", "0.12345678901234567890",
		"1e22", "1e23", "1e-22", "1e-23", "123e35", "123e36", "1e37", "1e38", "999999999999999e22", "1000000000000000e22",
		"1000000000000001e22", "0.000000000000000000001", "1.7976931348623157e308", "1e0010", "1e00005",
		"0.30000000000000004", "0.1", "0.2", "0.3", "2.5", "3.14159", "-1.6003", "123456.789e-3",
		"8.98846567431158e307", "1.00000000000000011102230246251565404236316680908203125",
		"9007199254740993e-22", "1E5", "1E+05", "1e-05", "١", "1,5", "1e5e5", "--1", "+-1",
	}
	for _, s := range edges {
		checkDecimal(t, s)
	}
	rng := rand.New(rand.NewPCG(3, 5))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		return string(b)
	}
	fast := 0
	const n = 200000
	for i := range n {
		var s string
		switch i % 5 {
		case 0: // a table's short decimals
			s = fmt.Sprintf("%.*f", rng.IntN(8), rng.NormFloat64()*math.Pow(10, float64(rng.IntN(7)-3)))
		case 1: // digits around the 19-digit and 2⁵³ bounds
			s = digits(1+rng.IntN(10)) + "." + digits(rng.IntN(14))
		case 2: // exponents around ±22 and 37
			s = digits(1+rng.IntN(17)) + "e" + strconv.Itoa(rng.IntN(90)-45)
		case 3: // shortest round trips of random doubles
			s = strconv.FormatFloat(math.Float64frombits(rng.Uint64()), 'g', -1, 64)
		default: // %g of values of any scale
			s = strconv.FormatFloat(rng.NormFloat64()*math.Pow(10, float64(rng.IntN(60)-30)), byte("eEfg"[rng.IntN(4)]), rng.IntN(20)-1, 64)
		}
		if rng.IntN(2) == 0 && !strings.HasPrefix(s, "-") {
			s = "-" + s
		}
		if checkDecimal(t, s) {
			fast++
		}
	}
	if fast < n/2 {
		t.Errorf("the fast path took %d of %d random decimals; want at least half", fast, n)
	}
}

// FuzzParseDecimal checks that parseNumber, fast path included, gives
// strconv's value and error for any cell.
func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"0", "-0", "1.5", "-1.6003", "9007199254740993", "1e22", "123e36", "0.1234567890123456789", "1e-400", " 2 ", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkDecimal(t, s) })
}
