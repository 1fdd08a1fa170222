// LabelEncoder (ai.onnx.ml) maps each element of X to a value, keeping
// X's shape.
//
// Versions: 1 converts between strings and integers through one list,
// classes_strings: an int64 input i gives classes_strings[i] (default_string,
// "_Unused", when out of range), a string input gives the index of its
// first occurrence in the list (default_int64, -1, when absent). 2 maps
// keys_* to the values_* at the same position (float, int64 or string
// keys and values), default_float (-0.0), default_int64 (-1) or
// default_string ("_Unused") for a missing key, by the values' type. 4 adds
// keys_tensor, values_tensor and default_tensor (one element), and the
// types int32, int16 and double. Keys are compared bit for bit, except
// that every NaN is one key (the specification lets NaN be mapped); of
// two equal keys the first counts, as in onnxruntime.
//
// Rules: [keys] exactly one keys_* attribute, [values] exactly one
// values_* attribute, [length] of the same length, [type] X of the keys'
// type, one the version allows, [default] default_tensor has one element
// of the values' type.

package ops

import (
	"encoding/binary"
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainML, "LabelEncoder", []int{1, 2, 4}, [2]int{1, 1}, [2]int{1, 1}, labelEncoderNode)
	declareAttrsIn(domainML, "LabelEncoder",
		AttrSpec{Name: "classes_strings", Type: AttrStrings, Before: 2},
		AttrSpec{Name: "default_int64", Type: AttrInt}, AttrSpec{Name: "default_string", Type: AttrString},
		AttrSpec{Name: "default_float", Type: AttrFloat, From: 2},
		AttrSpec{Name: "keys_floats", Type: AttrFloats, From: 2}, AttrSpec{Name: "keys_int64s", Type: AttrInts, From: 2},
		AttrSpec{Name: "keys_strings", Type: AttrStrings, From: 2},
		AttrSpec{Name: "values_floats", Type: AttrFloats, From: 2}, AttrSpec{Name: "values_int64s", Type: AttrInts, From: 2},
		AttrSpec{Name: "values_strings", Type: AttrStrings, From: 2},
		AttrSpec{Name: "keys_tensor", Type: AttrTensor, From: 4}, AttrSpec{Name: "values_tensor", Type: AttrTensor, From: 4},
		AttrSpec{Name: "default_tensor", Type: AttrTensor, From: 4})
}

// labelEncoderTypes are the key and value types of each version.
var labelEncoderTypes = map[int][]tensor.DataType{
	1: {tensor.String, tensor.Int64},
	2: {tensor.String, tensor.Int64, tensor.Float},
	4: {tensor.String, tensor.Int64, tensor.Int32, tensor.Int16, tensor.Double, tensor.Float},
}

// labelEncoderMapping is a node's mapping: keys and values as tensors of
// one axis, and the default as a tensor of one element.
type labelEncoderMapping struct {
	keys, values, def *tensor.Tensor
}

func labelEncoderNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	m, err := labelEncoderAttrs(n, x.DataType())
	if err != nil {
		return nil, err
	}
	// The lookup table: one entry per key, as large as the attribute.
	if err := opt.scratch(op, "key table", m.keys.Len(), 48); err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, m.values.DataType(), x.Shape())
	if err != nil {
		return nil, err
	}
	if x.DataType() == tensor.String {
		table := make(map[string]int, m.keys.Len())
		for i, k := range m.keys.Strings() {
			if _, dup := table[k]; !dup {
				table[k] = i
			}
		}
		src := x.Strings()
		err = labelEncode(opt, m, y, len(src), func(e int) (int, bool) {
			i, ok := table[src[e]]
			return i, ok
		})
	} else {
		table := make(map[uint64]int, m.keys.Len())
		for i := m.keys.Len() - 1; i >= 0; i-- {
			table[labelKey(m.keys, i)] = i
		}
		err = labelEncode(opt, m, y, x.Len(), func(e int) (int, bool) {
			i, ok := table[labelKey(x, e)]
			return i, ok
		})
	}
	if err != nil {
		return nil, op.stopped(err)
	}
	return values(y), nil
}

// labelEncode writes y[e] = values[i] for the key index i that look finds
// for element e, the default when it finds none.
func labelEncode(opt *Options, m labelEncoderMapping, y *tensor.Tensor, count int, look func(e int) (int, bool)) error {
	if y.DataType() == tensor.String {
		dst, vals, def := y.Strings(), m.values.Strings(), m.def.Strings()[0]
		return parallelRange(opt, count, count*8, func(lo, hi int) error {
			for e := lo; e < hi; e++ {
				if i, ok := look(e); ok {
					dst[e] = vals[i]
				} else {
					dst[e] = def
				}
			}
			return nil
		})
	}
	size := y.DataType().Size()
	dst, vals, def := y.Bytes(), m.values.Bytes(), m.def.Bytes()[:size]
	return parallelRange(opt, count, count*8, func(lo, hi int) error {
		for e := lo; e < hi; e++ {
			if i, ok := look(e); ok {
				copy(dst[e*size:(e+1)*size], vals[i*size:])
			} else {
				copy(dst[e*size:(e+1)*size], def)
			}
		}
		return nil
	})
}

// labelKey is element i of a numeric tensor as a map key: its bits, every
// NaN as one.
func labelKey(t *tensor.Tensor, i int) uint64 {
	b := t.Bytes()
	switch t.DataType() {
	case tensor.Float:
		if math.IsNaN(float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))) {
			return 0x7fc00000
		}
		return uint64(binary.LittleEndian.Uint32(b[4*i:]))
	case tensor.Double:
		v := binary.LittleEndian.Uint64(b[8*i:])
		if math.IsNaN(math.Float64frombits(v)) {
			return 0x7ff8000000000000
		}
		return v
	case tensor.Int16:
		return uint64(binary.LittleEndian.Uint16(b[2*i:]))
	case tensor.Int32:
		return uint64(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return binary.LittleEndian.Uint64(b[8*i:])
}

// labelEncoderAttrs reads the mapping of a node whose input is of type
// xt, checking the rules in order.
func labelEncoderAttrs(n *Node, xt tensor.DataType) (labelEncoderMapping, error) {
	op := n.op()
	var m labelEncoderMapping
	allowed := labelEncoderTypes[n.Version]
	okType := func(dt tensor.DataType) bool {
		for _, a := range allowed {
			if a == dt {
				return true
			}
		}
		return false
	}
	defInt, err := n.Int("default_int64", -1)
	if err != nil {
		return m, err
	}
	defStr, err := n.Str("default_string", "_Unused")
	if err != nil {
		return m, err
	}
	if n.Version == 1 {
		classes, _, err := n.attr("classes_strings", AttrStrings)
		if err != nil {
			return m, err
		}
		strs := tensor.MustFromSlice(append([]string{}, classes.Strings...), len(classes.Strings))
		idx := make([]int64, len(classes.Strings))
		for i := range idx {
			idx[i] = int64(i)
		}
		ints := tensor.MustFromSlice(idx, len(idx))
		switch xt {
		case tensor.String:
			return labelEncoderMapping{keys: strs, values: ints, def: tensor.MustFromSlice([]int64{defInt}, 1)}, nil
		case tensor.Int64:
			return labelEncoderMapping{keys: ints, values: strs, def: tensor.MustFromSlice([]string{defStr}, 1)}, nil
		}
		return m, op.errorf("type", "X must be string or int64, got %v", xt)
	}
	defFloat, err := n.Float("default_float", float32(math.Copysign(0, -1)))
	if err != nil {
		return m, err
	}
	list := func(prefix string) (*tensor.Tensor, int, error) {
		var t *tensor.Tensor
		count := 0
		if a, ok, err := n.attr(prefix+"_floats", AttrFloats); err != nil {
			return nil, 0, err
		} else if ok {
			t, count = tensor.MustFromSlice(append([]float32{}, a.Floats...), len(a.Floats)), count+1
		}
		if a, ok, err := n.attr(prefix+"_int64s", AttrInts); err != nil {
			return nil, 0, err
		} else if ok {
			t, count = tensor.MustFromSlice(append([]int64{}, a.Ints...), len(a.Ints)), count+1
		}
		if a, ok, err := n.attr(prefix+"_strings", AttrStrings); err != nil {
			return nil, 0, err
		} else if ok {
			t, count = tensor.MustFromSlice(append([]string{}, a.Strings...), len(a.Strings)), count+1
		}
		if n.Version >= 4 {
			if a, ok, err := n.attr(prefix+"_tensor", AttrTensor); err != nil {
				return nil, 0, err
			} else if ok && a.Tensor != nil {
				t, count = a.Tensor, count+1
			}
		}
		return t, count, nil
	}
	keys, count, err := list("keys")
	if err != nil {
		return m, err
	}
	if count != 1 {
		return m, op.errorf("keys", "exactly one keys_* attribute must be set, %d are", count)
	}
	vals, count, err := list("values")
	if err != nil {
		return m, err
	}
	if count != 1 {
		return m, op.errorf("values", "exactly one values_* attribute must be set, %d are", count)
	}
	if keys.Len() != vals.Len() {
		return m, op.errorf("length", "%d keys and %d values", keys.Len(), vals.Len())
	}
	if !okType(keys.DataType()) || !okType(vals.DataType()) {
		return m, op.errorf("type", "keys of %v and values of %v: version %d maps %v", keys.DataType(), vals.DataType(), n.Version, allowed)
	}
	if xt != keys.DataType() {
		return m, op.errorf("type", "X is %v, the keys are %v", xt, keys.DataType())
	}
	var def *tensor.Tensor
	if n.Version >= 4 {
		if def, err = n.TensorAttr("default_tensor"); err != nil {
			return m, err
		}
		if def != nil && (def.Len() != 1 || def.DataType() != vals.DataType()) {
			return m, op.errorf("default", "default_tensor must hold one %v, got %v%v", vals.DataType(), def.DataType(), def.Shape())
		}
	}
	if def == nil {
		switch vals.DataType() {
		case tensor.String:
			def = tensor.MustFromSlice([]string{defStr}, 1)
		case tensor.Float:
			def = tensor.MustFromSlice([]float32{defFloat}, 1)
		case tensor.Double:
			def = tensor.MustFromSlice([]float64{float64(defFloat)}, 1)
		case tensor.Int64:
			def = tensor.MustFromSlice([]int64{defInt}, 1)
		case tensor.Int32:
			def = tensor.MustFromSlice([]int32{int32(defInt)}, 1)
		default:
			def = tensor.MustFromSlice([]int16{int16(defInt)}, 1)
		}
	}
	return labelEncoderMapping{keys: keys, values: vals, def: def}, nil
}
