// CastMap (ai.onnx.ml, version 1), after the ONNX-ML specification:
// "Converts a map to a tensor. The map key must be an int64 and the values
// will be ordered in ascending order based on this key. The operator
// supports dense packing or sparse packing. If using sparse packing, the
// key cannot exceed the max_map-1 value." cast_to: "A string indicating
// the desired element type of the output tensor, one of 'TO_FLOAT',
// 'TO_STRING', 'TO_INT64'" (default TO_FLOAT); map_form: "Indicates
// whether to only output as many values as are in the input (dense), or
// position the input based on using the key of the map as the index of
// the output (sparse). One of 'DENSE', 'SPARSE'" (default DENSE);
// max_map: "If the value of map_form is 'SPARSE,' this attribute
// indicates the total length of the output tensor" (default 1). Y is
// [1, K]. What the specification leaves open follows onnxruntime
// (ops/castmap.go says it): the pad of SPARSE (0, "0.f"), decimal numbers
// from strings, truncation to int64, six decimals to strings.

package reference

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "CastMap", []int{1}, castMap) }

func castMap(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, ok := mapInput(in)
	if !ok {
		return nil, op.errorf("input", "X must be a map")
	}
	if x.KeyType() != tensor.Int64 || (x.ValueType() != tensor.String && x.ValueType() != tensor.Float) {
		return nil, op.errorf("type", "X must be map(int64, string) or map(int64, float)")
	}
	castTo, err := n.Str("cast_to", "TO_FLOAT")
	if err != nil {
		return nil, err
	}
	var to tensor.DataType
	switch castTo {
	case "TO_FLOAT":
		to = tensor.Float
	case "TO_STRING":
		to = tensor.String
	case "TO_INT64":
		to = tensor.Int64
	default:
		return nil, op.errorf("cast_to", "one of TO_FLOAT, TO_STRING, TO_INT64")
	}
	form, err := n.Str("map_form", "DENSE")
	if err != nil {
		return nil, err
	}
	if form != "DENSE" && form != "SPARSE" {
		return nil, op.errorf("map_form", "one of DENSE, SPARSE")
	}
	maxMap, err := n.Int("max_map", 1)
	if err != nil {
		return nil, err
	}
	if maxMap < 0 || (form == "SPARSE" && maxMap < 1) {
		return nil, op.errorf("max_map", "max_map must be positive")
	}
	if err := chargeScratch(opt, op, "the sorted entries", x.Len(), 16); err != nil {
		return nil, err
	}
	keys := x.Int64Keys()
	byKey := make([]int, x.Len())
	for i := range byKey {
		byKey[i] = i
	}
	sort.Slice(byKey, func(a, b int) bool { return keys[byKey[a]] < keys[byKey[b]] })
	for i := 1; i < len(byKey); i++ {
		if keys[byKey[i]] == keys[byKey[i-1]] {
			return nil, op.errorf("keys", "a key appears twice")
		}
	}
	width := int64(x.Len())
	if form == "SPARSE" {
		width = maxMap
		for _, k := range keys {
			if k < 0 || k > maxMap-1 {
				return nil, op.errorf("keys", "the key cannot exceed the max_map-1 value")
			}
		}
	}
	w, err := toInt(width)
	if err != nil {
		return nil, op.errorf("max_map", "too many columns")
	}
	y, err := newTensor(opt, op, to, []int{1, w})
	if err != nil {
		return nil, err
	}
	stop := newPoll(opt, op)
	if form == "SPARSE" {
		for j := range w {
			if err := setCastPad(y, j); err != nil {
				return nil, err
			}
			if stop.stop(1) {
				return nil, stop.err
			}
		}
	}
	for i, e := range byKey {
		j := i
		if form == "SPARSE" {
			j = int(keys[e])
		}
		if err := castMapValue(x, e, y, j); err != nil {
			return nil, op.errorf("cast", "%v", err)
		}
		if stop.stop(1) {
			return nil, stop.err
		}
	}
	return values(y), nil
}

// mapInput returns input 0 as a well-formed map.
func mapInput(in []tensor.Value) (*tensor.Map, bool) {
	if len(in) == 0 {
		return nil, false
	}
	m, ok := in[0].(*tensor.Map)
	return m, ok && m.Check() == nil
}

// setCastPad writes onnxruntime's pad into y[j]: 0, or "0.f".
func setCastPad(y *tensor.Tensor, j int) error {
	switch y.DataType() {
	case tensor.String:
		y.Strings()[j] = "0.f"
	case tensor.Float:
		ys, _ := tensor.Data[float32](y)
		ys[j] = 0
	case tensor.Int64:
		ys, _ := tensor.Data[int64](y)
		ys[j] = 0
	}
	return nil
}

// castMapValue converts the value of entry e of x into y[j].
func castMapValue(x *tensor.Map, e int, y *tensor.Tensor, j int) error {
	if x.ValueType() == tensor.String {
		s := strings.TrimSpace(x.Values.Strings()[e])
		switch y.DataType() {
		case tensor.String:
			y.Strings()[j] = x.Values.Strings()[e]
		case tensor.Float:
			f, err := strconv.ParseFloat(s, 32)
			if err != nil {
				return fmt.Errorf("%q is not a float", s)
			}
			ys, _ := tensor.Data[float32](y)
			ys[j] = float32(f)
		case tensor.Int64:
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return fmt.Errorf("%q is not an int64", s)
			}
			ys, _ := tensor.Data[int64](y)
			ys[j] = v
		}
		return nil
	}
	vs, _ := tensor.Data[float32](x.Values)
	f := float64(vs[e])
	switch y.DataType() {
	case tensor.Float:
		ys, _ := tensor.Data[float32](y)
		ys[j] = vs[e]
	case tensor.Int64:
		if math.IsNaN(f) || f <= -9223372036854777856 || f >= 9223372036854775808 {
			return fmt.Errorf("%v is not an int64", f)
		}
		ys, _ := tensor.Data[int64](y)
		ys[j] = int64(f) // Go's conversion truncates toward zero
	case tensor.String:
		s := fmt.Sprintf("%f", f)
		switch {
		case math.IsNaN(f):
			s = "nan"
		case math.IsInf(f, 1):
			s = "inf"
		case math.IsInf(f, -1):
			s = "-inf"
		}
		y.Strings()[j] = s
	}
	return nil
}
