// CastMap (ai.onnx.ml, version 1) turns a map of int64 keys to strings or
// floats into a tensor Y of shape [1, K], the values in ascending order of
// their keys, converted as cast_to says: TO_FLOAT (the default), TO_STRING
// or TO_INT64. With map_form DENSE (the default) K is the number of
// entries; with SPARSE, K is max_map and the value of key k goes to column
// k, the columns no key names holding the pad (0, or "0.f" for strings, as
// onnxruntime pads; the specification names none).
//
// The conversions are onnxruntime's: a string to a float or an int64 is
// read as a decimal number (a string that is not one is refused, where
// onnxruntime's stof/stoll read a leading number and drop the rest), a
// float to an int64 is truncated toward zero (NaN or out of range is
// refused), a float to a string is printed with six decimals ("1.500000",
// C's %f; "inf", "-inf", "nan").
//
// Rules: [type] X is map(int64, string) or map(int64, float); [cast_to]
// one of the three; [map_form] DENSE or SPARSE; [max_map] not negative,
// positive with SPARSE; [keys] a key appears once, and with SPARSE lies
// in [0, max_map) ("the key cannot exceed the max_map-1 value": onnxruntime
// drops a key past it); [cast] a value the conversion cannot represent.

package ops

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainML, "CastMap", []int{1}, [2]int{1, 1}, [2]int{1, 1}, castMapNode)
	declareAttrsIn(domainML, "CastMap",
		AttrSpec{Name: "cast_to", Type: AttrString}, AttrSpec{Name: "map_form", Type: AttrString},
		AttrSpec{Name: "max_map", Type: AttrInt})
}

func castMapNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.mapInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	if x.KeyType() != tensor.Int64 || (x.ValueType() != tensor.String && x.ValueType() != tensor.Float) {
		return nil, op.errorf("type", "X must be map(int64, string) or map(int64, float), got %s", x.Describe())
	}
	castTo, err := n.Str("cast_to", "TO_FLOAT")
	if err != nil {
		return nil, err
	}
	to, ok := map[string]tensor.DataType{"TO_FLOAT": tensor.Float, "TO_STRING": tensor.String, "TO_INT64": tensor.Int64}[castTo]
	if !ok {
		return nil, op.errorf("cast_to", "cast_to must be TO_FLOAT, TO_STRING or TO_INT64, got %q", castTo)
	}
	form, err := n.Str("map_form", "DENSE")
	if err != nil {
		return nil, err
	}
	if form != "DENSE" && form != "SPARSE" {
		return nil, op.errorf("map_form", "map_form must be DENSE or SPARSE, got %q", form)
	}
	maxMap, err := n.Int("max_map", 1)
	if err != nil {
		return nil, err
	}
	if maxMap < 0 || (form == "SPARSE" && maxMap == 0) {
		return nil, op.errorf("max_map", "max_map is %d: it must be positive (with SPARSE) or 0", maxMap)
	}
	width := x.Len()
	if form == "SPARSE" {
		if maxMap > math.MaxInt32 && int64(int(maxMap)) != maxMap {
			return nil, op.errorf("max_map", "max_map %d is more columns than an int can count", maxMap)
		}
		width = int(maxMap)
	}
	// The entries in ascending key order: a permutation, charged.
	if err := opt.charge(op, "key order", int64(x.Len())*8); err != nil {
		return nil, err
	}
	keys := x.Int64Keys()
	order := make([]int, x.Len())
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(keys[a], keys[b]) })
	for i := 1; i < len(order); i++ {
		if keys[order[i]] == keys[order[i-1]] {
			return nil, op.errorf("keys", "key %d appears twice", keys[order[i]])
		}
	}
	if form == "SPARSE" && len(order) > 0 {
		if lo, hi := keys[order[0]], keys[order[len(order)-1]]; lo < 0 || hi >= maxMap {
			return nil, op.errorf("keys", "keys %d..%d outside [0, max_map %d)", lo, hi, maxMap)
		}
	}
	if err := opt.checkSize(op, to, []int{1, width}); err != nil {
		return nil, err
	}
	y, err := opt.newTensor(op, to, []int{1, width})
	if err != nil {
		return nil, err
	}
	column := func(i int) int { return i } // DENSE: entry i of the order
	if form == "SPARSE" {
		column = func(i int) int { return int(keys[order[i]]) }
		if to == tensor.String {
			strs := y.Strings()
			for j := range strs {
				strs[j] = "0.f"
			}
		}
	}
	c := opt.canceller()
	for i, e := range order {
		if c.Stop(1) {
			return nil, op.stopped(c.Err)
		}
		if err := castMapEntry(op, x.Values, e, y, column(i), keys[e]); err != nil {
			return nil, err
		}
	}
	return values(y), nil
}

// castMapEntry converts value e of vals (string or float) into element j of
// y (float, string or int64).
func castMapEntry(op opRef, vals *tensor.Tensor, e int, y *tensor.Tensor, j int, key int64) error {
	if vals.DataType() == tensor.String {
		s := vals.Strings()[e]
		switch y.DataType() {
		case tensor.String:
			y.Strings()[j] = s
		case tensor.Float:
			f, err := strconv.ParseFloat(strings.TrimSpace(s), 32)
			if err != nil {
				return op.errorf("cast", "the value %q of key %d is not a float", s, key)
			}
			asElems[float32](y.Bytes())[j] = float32(f)
		case tensor.Int64:
			v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil {
				return op.errorf("cast", "the value %q of key %d is not an int64", s, key)
			}
			asElems[int64](y.Bytes())[j] = v
		}
		return nil
	}
	f := asElems[float32](vals.Bytes())[e]
	switch y.DataType() {
	case tensor.Float:
		asElems[float32](y.Bytes())[j] = f
	case tensor.Int64:
		t := math.Trunc(float64(f))
		if t != t || t < math.MinInt64 || t >= math.MaxInt64 {
			return op.errorf("cast", "the value %v of key %d is not an int64", f, key)
		}
		asElems[int64](y.Bytes())[j] = int64(t)
	case tensor.String:
		y.Strings()[j] = formatCFloat(f)
	}
	return nil
}

// formatCFloat writes f as C's printf("%f") does (std::to_string).
func formatCFloat(f float32) string {
	switch {
	case math.IsNaN(float64(f)):
		return "nan"
	case math.IsInf(float64(f), 1):
		return "inf"
	case math.IsInf(float64(f), -1):
		return "-inf"
	}
	return strconv.FormatFloat(float64(f), 'f', 6, 64)
}
