// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"
)

// pqField is a top-level field of a Parquet schema.
type pqField struct {
	name  string
	index int // 1-based position among the top-level fields
	leaf  int // index of its column chunk in a row group; -1 for a nested field
	elem  format.SchemaElement
}

// topFields returns the top-level fields of a schema, as the footer lists
// it: depth first, the root first.
func topFields(schema []format.SchemaElement) ([]pqField, int, error) {
	if len(schema) == 0 {
		return nil, 0, fmt.Errorf("empty schema")
	}
	leaves := 0
	// skip returns the index after the subtree at i, counting its leaves.
	var skip func(i, depth int) (int, error)
	skip = func(i, depth int) (int, error) {
		if i >= len(schema) {
			return 0, fmt.Errorf("schema cut short")
		}
		if depth > 64 {
			return 0, fmt.Errorf("schema nested too deep")
		}
		n, group := schema[i].NumChildren.Get()
		if !group || n == 0 {
			if schema[i].Type.Valid {
				leaves++
			}
			return i + 1, nil
		}
		if n < 0 || int(n) > len(schema)-i-1 {
			return 0, fmt.Errorf("schema element %q claims %d children", schema[i].Name, n)
		}
		j := i + 1
		for range n {
			var err error
			if j, err = skip(j, depth+1); err != nil {
				return 0, err
			}
		}
		return j, nil
	}
	root, _ := schema[0].NumChildren.Get()
	if root < 0 || int(root) > len(schema)-1 {
		return nil, 0, fmt.Errorf("schema root claims %d children", root)
	}
	fields := make([]pqField, 0, root)
	i := 1
	for k := range int(root) {
		e := schema[i]
		f := pqField{name: e.Name, index: k + 1, leaf: -1, elem: e}
		first := leaves
		next, err := skip(i, 1)
		if err != nil {
			return nil, 0, err
		}
		if next == i+1 && leaves == first+1 {
			f.leaf = first
		}
		fields = append(fields, f)
		i = next
	}
	return fields, leaves, nil
}

// optional reports whether the values of f may be null.
func (f *pqField) optional() bool {
	rep, _ := f.elem.RepetitionType.Get()
	return rep == format.Optional
}

// pqKind is how the values of a column are read.
type pqKind int

const (
	pqOther   pqKind = iota // not numeric, not a group key
	pqInt                   // INT32, INT64 (signed)
	pqUint                  // INT32, INT64 (unsigned)
	pqFloat                 // FLOAT
	pqDouble                // DOUBLE
	pqDecimal               // DECIMAL in INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY
	pqBytes                 // BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY, not a decimal: a string
	pqTime                  // INT32 DATE or INT64 TIMESTAMP: read as ISO 8601 text (a column of Query.Cells)
	pqBool                  // BOOLEAN
)

// pqType is the type of a leaf column, as the reader sees it.
type pqType struct {
	kind  pqKind
	phys  format.Type // the physical type
	scale int         // of a decimal
	width int64       // bytes of a value of a fixed-width physical type; 0 for BYTE_ARRAY
	name  string
	unit  time.Duration // of a TIMESTAMP (pqTime); 0 for a DATE, in days
	utc   bool          // a TIMESTAMP adjusted to UTC: its text ends in Z
}

// fieldType returns the type of the field f.
func fieldType(f *pqField) pqType {
	e := &f.elem
	phys, ok := e.Type.Get()
	if !ok || f.leaf < 0 {
		return pqType{name: "a nested field"}
	}
	t := pqType{name: phys.String(), phys: phys}
	if rep, _ := e.RepetitionType.Get(); rep == format.Repeated {
		t.name = "a repeated " + t.name
		return t
	}
	var lv format.LogicalTypeValue
	if e.LogicalType.Value != nil {
		lv = e.LogicalType.Value
		t.name += " (" + e.LogicalType.String() + ")"
	}
	ct, hasCT := e.ConvertedType.Get()
	if lv == nil && hasCT {
		t.name += " (" + convertedName(ct) + ")"
	}
	decimal := false
	switch l := lv.(type) {
	case *format.DecimalType:
		decimal, t.scale = true, int(l.Scale)
	case nil:
		if hasCT && ct == deprecated.Decimal {
			s, _ := e.Scale.Get()
			decimal, t.scale = true, int(s)
		}
	}
	if decimal && (t.scale < 0 || t.scale > 1000) {
		return t
	}
	switch phys {
	case format.Boolean:
		t.kind, t.width = pqBool, 1
	case format.Int32, format.Int64:
		t.width = 4
		if phys == format.Int64 {
			t.width = 8
		}
		switch l := lv.(type) {
		case nil:
			switch {
			case decimal:
				t.kind = pqDecimal
			case hasCT && ct == deprecated.Date && phys == format.Int32:
				t.kind = pqTime
			case hasCT && (ct == deprecated.TimestampMillis || ct == deprecated.TimestampMicros) && phys == format.Int64:
				// The converted types are instants, adjusted to UTC.
				t.kind, t.unit, t.utc = pqTime, time.Millisecond, true
				if ct == deprecated.TimestampMicros {
					t.unit = time.Microsecond
				}
			case !hasCT || ct >= deprecated.Int8 && ct <= deprecated.Int64:
				t.kind = pqInt
			case ct >= deprecated.Uint8 && ct <= deprecated.Uint64:
				t.kind = pqUint
			}
		case *format.DecimalType:
			t.kind = pqDecimal
		case *format.IntType:
			t.kind = pqInt
			if !l.IsSigned {
				t.kind = pqUint
			}
		case *format.DateType:
			if phys == format.Int32 {
				t.kind = pqTime
			}
		case *format.TimestampType:
			if l.Unit.Value != nil && phys == format.Int64 {
				t.kind, t.unit, t.utc = pqTime, l.Unit.Value.Duration(), l.IsAdjustedToUTC
			}
		}
	case format.Float:
		t.kind, t.width = pqFloat, 4
	case format.Double:
		t.kind, t.width = pqDouble, 8
	case format.Int96:
		t.width = 12
	case format.FixedLenByteArray, format.ByteArray:
		if phys == format.FixedLenByteArray {
			n, _ := e.TypeLength.Get()
			t.width = max(int64(n), 1)
		}
		switch {
		case decimal:
			t.kind = pqDecimal
		case lv == nil && !hasCT, ct == deprecated.UTF8 || ct == deprecated.Enum:
			t.kind = pqBytes
		default:
			switch lv.(type) {
			case *format.StringType, *format.EnumType:
				t.kind = pqBytes
			}
		}
	}
	return t
}

// numeric reports whether the values of t are numbers.
func (t *pqType) numeric() bool {
	switch t.kind {
	case pqInt, pqUint, pqFloat, pqDouble, pqDecimal:
		return true
	}
	return false
}

// groupable reports whether the values of t can be group keys.
func (t *pqType) groupable() bool {
	switch t.kind {
	case pqInt, pqUint, pqBytes, pqBool:
		return true
	}
	return false
}

// floatAt returns the i-th value of v, an array of values of a numeric
// column of type t. A FLOAT becomes the float64 nearest to its shortest
// decimal representation, the number a CSV writer prints for it; a
// DECIMAL, the float64 nearest to its exact value.
func (t *pqType) floatAt(v *encoding.Values, i int) float64 {
	switch t.phys {
	case format.Double:
		return v.Double()[i]
	case format.Float:
		f := float64(v.Float()[i])
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return f
		}
		x, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', -1, 32), 64)
		return x
	case format.Int32:
		x := v.Int32()[i]
		switch t.kind {
		case pqUint:
			return float64(uint32(x))
		case pqDecimal:
			return decimalInt(int64(x), t.scale)
		}
		return float64(x)
	case format.Int64:
		x := v.Int64()[i]
		switch t.kind {
		case pqUint:
			return float64(uint64(x))
		case pqDecimal:
			return decimalInt(x, t.scale)
		}
		return float64(x)
	}
	return decimalBytes(t.bytesAt(v, i), t.scale)
}

// bytesAt returns the i-th value of v, an array of BYTE_ARRAY or
// FIXED_LEN_BYTE_ARRAY values.
func (t *pqType) bytesAt(v *encoding.Values, i int) []byte {
	if t.phys == format.FixedLenByteArray {
		b, size := v.FixedLenByteArray()
		return b[i*size : (i+1)*size]
	}
	b, off := v.ByteArray()
	return b[off[i]:off[i+1]]
}

// decimalInt returns the decimal whose unscaled value is u.
func decimalInt(u int64, scale int) float64 {
	if scale <= 22 && u < 1<<53 && u > -1<<53 {
		// Both exact: the quotient is correctly rounded, as parsing the
		// decimal text is.
		return float64(u) / math.Pow10(scale)
	}
	return decimalText(strconv.FormatInt(u, 10), scale)
}

// decimalBytes returns the decimal whose unscaled value is the big-endian
// two's complement integer b.
func decimalBytes(b []byte, scale int) float64 {
	x := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	if x.IsInt64() {
		return decimalInt(x.Int64(), scale)
	}
	return decimalText(x.String(), scale)
}

// decimalText returns the float64 nearest to the integer written in digits
// divided by 10^scale.
func decimalText(digits string, scale int) float64 {
	x, _ := strconv.ParseFloat(digits+"e-"+strconv.Itoa(scale), 64)
	return x
}

// keyAt returns the i-th value of v, an array of values of a column of
// type t (not BOOLEAN), as text: a string as it is, an integer in decimal,
// a date or timestamp in ISO 8601 (timeText), any other number as
// strconv.FormatFloat formats it ('g', shortest).
func (t *pqType) keyAt(v *encoding.Values, i int) string {
	switch t.kind {
	case pqBytes:
		return string(t.bytesAt(v, i))
	case pqTime:
		if t.phys == format.Int32 {
			return t.timeText(int64(v.Int32()[i]))
		}
		return t.timeText(v.Int64()[i])
	case pqInt:
		if t.phys == format.Int32 {
			return strconv.FormatInt(int64(v.Int32()[i]), 10)
		}
		return strconv.FormatInt(v.Int64()[i], 10)
	case pqUint:
		if t.phys == format.Int32 {
			return strconv.FormatUint(uint64(uint32(v.Int32()[i])), 10)
		}
		return strconv.FormatUint(uint64(v.Int64()[i]), 10)
	}
	return strconv.FormatFloat(t.floatAt(v, i), 'g', -1, 64)
}

// timeText returns the value x of a DATE or TIMESTAMP column of type t in
// ISO 8601, as a CSV writer would write it: a date as 2024-01-31 (x days
// from 1970-01-01), a timestamp as 2024-01-31T12:00:00 (x units from
// 1970-01-01T00:00:00) with the fraction of a second its value needs
// (none when whole), followed by Z when adjusted to UTC; a timestamp not
// adjusted to UTC is a wall-clock time without an offset, and is printed
// without one.
func (t *pqType) timeText(x int64) string {
	if t.unit == 0 {
		return time.Unix(x*86400, 0).UTC().Format(time.DateOnly)
	}
	per := int64(time.Second / t.unit)
	sec, frac := x/per, x%per
	if frac < 0 {
		sec, frac = sec-1, frac+per
	}
	at := time.Unix(sec, frac*int64(t.unit)).UTC()
	if t.utc {
		return at.Format("2006-01-02T15:04:05.999999999Z07:00")
	}
	return at.Format("2006-01-02T15:04:05.999999999")
}

// convertedName returns the name of a converted type, as the format
// spells it.
func convertedName(ct deprecated.ConvertedType) string {
	names := [...]string{"UTF8", "MAP", "MAP_KEY_VALUE", "LIST", "ENUM", "DECIMAL", "DATE", "TIME_MILLIS", "TIME_MICROS",
		"TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8", "UINT_16", "UINT_32", "UINT_64", "INT_8", "INT_16", "INT_32",
		"INT_64", "JSON", "BSON", "INTERVAL"}
	if ct >= 0 && int(ct) < len(names) {
		return names[ct]
	}
	return "converted type " + strconv.Itoa(int(ct))
}
