// LabelEncoder (ai.onnx.ml, versions 1, 2 and 4), after the ONNX-ML
// specification.
//
// Version 1: "Converts strings to integers and vice versa. [...] When
// converting from integers to strings, the string is fetched from the
// 'classes_strings' list, by simple indexing. When converting from strings
// to integers, the string is looked up in the list and the index at which
// it is found is used as the converted value"; default_int64 (-1) and
// default_string ("_Unused") for what is not found.
//
// Versions 2 and 4: "Maps each element in the input tensor to another
// value. The mapping is determined by the two parallel attributes, 'keys_*'
// and 'values_*' attribute. [...] input's element type and the element
// type of the specified 'keys_*' should be identical while the output type
// is identical to the specified 'values_*' attribute. If an input element
// can not be found in the specified 'keys_*' attribute, the 'default_*'
// that matches the specified 'values_*' attribute may be used as its
// output value. [...] only one of 'keys_*'/'values_*' can be set. For key
// look-up, bit-wise comparison is used so even a float NaN can be mapped".
// Version 4 adds keys_tensor, values_tensor and default_tensor ("{"_Unused"}
// if values_* has string type, {-1} if values_* has integral type, and
// {-0.f} if values_* has float type") and the types int32, int16, double.
// Every NaN is one key; of repeated keys the first is used.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "LabelEncoder", []int{1, 2, 4}, labelEncoder) }

func labelEncoder(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	keys, vals, def, err := labelEncoderMapping(n, x.DataType())
	if err != nil {
		return nil, err
	}
	y, err := newTensor(opt, op, vals.DataType(), x.Shape())
	if err != nil {
		return nil, err
	}
	for e := range x.Len() {
		found := -1
		for i := range keys.Len() {
			if sameKey(elementAt(x, e), elementAt(keys, i)) {
				found = i
				break
			}
		}
		if found >= 0 {
			copyElement(y, e, vals, found)
		} else {
			copyElement(y, e, def, 0)
		}
	}
	return values(y), nil
}

// sameKey compares two keys bit for bit, every NaN equal to every NaN.
func sameKey(a, b scalar) bool {
	if a.kind == floatKind {
		if math.IsNaN(a.f) || math.IsNaN(b.f) {
			return math.IsNaN(a.f) && math.IsNaN(b.f)
		}
		return math.Float64bits(a.f) == math.Float64bits(b.f)
	}
	return a == b
}

// labelEncoderMapping returns the keys, the values and the default of a
// node whose input is of type xt.
func labelEncoderMapping(n *ops.Node, xt tensor.DataType) (keys, vals, def *tensor.Tensor, err error) {
	op := opOf(n)
	defInt, err := n.Int("default_int64", -1)
	if err != nil {
		return nil, nil, nil, err
	}
	defStr, err := n.Str("default_string", "_Unused")
	if err != nil {
		return nil, nil, nil, err
	}
	if n.Version == 1 {
		var classes []string
		if a, ok := n.Attrs["classes_strings"]; ok {
			if a.Type != ops.AttrStrings {
				return nil, nil, nil, op.errorf("attribute", "attribute classes_strings is of type %v, expected %v", a.Type, ops.AttrStrings)
			}
			classes = a.Strings
		}
		index := make([]int64, len(classes))
		for i := range index {
			index[i] = int64(i)
		}
		strs := tensor.MustFromSlice(append([]string{}, classes...), len(classes))
		ints := tensor.MustFromSlice(index, len(index))
		switch xt {
		case tensor.String:
			return strs, ints, tensor.MustFromSlice([]int64{defInt}, 1), nil
		case tensor.Int64:
			return ints, strs, tensor.MustFromSlice([]string{defStr}, 1), nil
		}
		return nil, nil, nil, op.errorf("type", "X must be string or int64")
	}
	defFloat, err := n.Float("default_float", float32(math.Copysign(0, -1)))
	if err != nil {
		return nil, nil, nil, err
	}
	attrList := func(prefix string) (*tensor.Tensor, int, error) {
		var t *tensor.Tensor
		count := 0
		for _, suffix := range []string{"_floats", "_int64s", "_strings", "_tensor"} {
			if suffix == "_tensor" && n.Version < 4 {
				continue
			}
			a, ok := n.Attrs[prefix+suffix]
			if !ok {
				continue
			}
			want := map[string]ops.AttrType{"_floats": ops.AttrFloats, "_int64s": ops.AttrInts, "_strings": ops.AttrStrings, "_tensor": ops.AttrTensor}[suffix]
			if a.Type != want {
				return nil, 0, op.errorf("attribute", "attribute %s is of type %v, expected %v", prefix+suffix, a.Type, want)
			}
			switch suffix {
			case "_floats":
				t = tensor.MustFromSlice(append([]float32{}, a.Floats...), len(a.Floats))
			case "_int64s":
				t = tensor.MustFromSlice(append([]int64{}, a.Ints...), len(a.Ints))
			case "_strings":
				t = tensor.MustFromSlice(append([]string{}, a.Strings...), len(a.Strings))
			default:
				if a.Tensor == nil {
					continue
				}
				t = a.Tensor
			}
			count++
		}
		return t, count, nil
	}
	keys, count, err := attrList("keys")
	if err != nil {
		return nil, nil, nil, err
	}
	if count != 1 {
		return nil, nil, nil, op.errorf("keys", "exactly one keys_* attribute must be set")
	}
	vals, count, err = attrList("values")
	if err != nil {
		return nil, nil, nil, err
	}
	if count != 1 {
		return nil, nil, nil, op.errorf("values", "exactly one values_* attribute must be set")
	}
	if keys.Len() != vals.Len() {
		return nil, nil, nil, op.errorf("length", "keys and values differ in length")
	}
	allowed := map[tensor.DataType]bool{tensor.String: true, tensor.Int64: true, tensor.Float: true}
	if n.Version >= 4 {
		allowed[tensor.Int32], allowed[tensor.Int16], allowed[tensor.Double] = true, true, true
	}
	if !allowed[keys.DataType()] || !allowed[vals.DataType()] {
		return nil, nil, nil, op.errorf("type", "keys or values of a type version %d does not map", n.Version)
	}
	if xt != keys.DataType() {
		return nil, nil, nil, op.errorf("type", "X and the keys differ in type")
	}
	if n.Version >= 4 {
		if a, ok := n.Attrs["default_tensor"]; ok {
			if a.Type != ops.AttrTensor {
				return nil, nil, nil, op.errorf("attribute", "attribute default_tensor is of type %v, expected %v", a.Type, ops.AttrTensor)
			}
			def = a.Tensor
		}
		if def != nil && (def.Len() != 1 || def.DataType() != vals.DataType()) {
			return nil, nil, nil, op.errorf("default", "default_tensor must hold one value of the values' type")
		}
	}
	if def == nil {
		def, _ = tensor.New(vals.DataType(), 1)
		switch vals.DataType() {
		case tensor.String:
			setScalar(def, 0, scalar{kind: stringKind, s: defStr})
		case tensor.Float, tensor.Double:
			setScalar(def, 0, floatOf(float64(defFloat)))
		default:
			setScalar(def, 0, signedOf(defInt))
		}
	}
	return keys, vals, def, nil
}
