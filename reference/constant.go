// Constant (ONNX Constant 1, 9, 11, 12, 13, 19, 21, 23, 24, 25): the tensor
// its one value attribute holds. 1 and 9 take value; 11 adds sparse_value
// (which onnxshape does not support: no sparse tensors); 12 adds
// value_float(s), value_int(s) and value_string(s), a rank-0 or 1-D float,
// int64 or string tensor; the later versions widen the element types.
//
//	[value]     exactly one value attribute is set
//	[attribute] only one the version defines
//	[size]      the output fits the size limit
//
// The working group's informal specification: onnx/working-groups,
// safety-related-profile/sonnx/ops/spec/informal/constant/constant.md.

package reference

import (
	"strings"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Constant", []int{1, 9, 11, 12, 13, 19, 21, 23, 24, 25}, constant)
}

// constantValues are the value attributes, in the specification's order.
var constantValues = []string{"sparse_value", "value", "value_float", "value_floats", "value_int", "value_ints", "value_string", "value_strings"}

func constant(opt *ops.Options, n *ops.Node, _ []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	var set []string
	for _, name := range constantValues {
		if n.Has(name) {
			set = append(set, name)
		}
	}
	if len(set) != 1 {
		got := "none"
		if len(set) > 0 {
			got = strings.Join(set, " and ")
		}
		return nil, op.errorf("value", "exactly one of %s must be set, got %s", strings.Join(constantValues, ", "), got)
	}
	name := set[0]
	switch {
	case name == "sparse_value" && op.version < 11:
		return nil, op.errorf("attribute", "attribute sparse_value exists from version 11 on")
	case name == "sparse_value":
		return nil, op.wrap("sparse_value", ops.ErrUnsupported, "sparse_value")
	case name != "value" && op.version < 12:
		return nil, op.errorf("attribute", "attribute %s exists from version 12 on", name)
	}
	a := n.Attrs[name]
	want := map[string]ops.AttrType{
		"value": ops.AttrTensor, "value_float": ops.AttrFloat, "value_floats": ops.AttrFloats,
		"value_int": ops.AttrInt, "value_ints": ops.AttrInts, "value_string": ops.AttrString, "value_strings": ops.AttrStrings,
	}[name]
	if a.Type != want {
		return nil, op.errorf("attribute", "attribute %s is of type %v, expected %v", name, a.Type, want)
	}
	var src *tensor.Tensor
	var err error
	switch name {
	case "value":
		if a.Tensor == nil {
			return nil, op.errorf("value", "attribute value holds no tensor")
		}
		src = a.Tensor
	case "value_float":
		src = tensor.Scalar(a.Float)
	case "value_floats":
		src, err = tensor.FromSlice(append([]float32{}, a.Floats...), len(a.Floats))
	case "value_int":
		src = tensor.Scalar(a.Int)
	case "value_ints":
		src, err = tensor.FromSlice(append([]int64{}, a.Ints...), len(a.Ints))
	case "value_string":
		src = tensor.Scalar(a.String)
	case "value_strings":
		src, err = tensor.FromSlice(append([]string{}, a.Strings...), len(a.Strings))
	}
	if err != nil {
		return nil, op.wrap("value", err, "%s", name)
	}
	y, err := copyAs(opt, op, src, src.Shape())
	if err != nil {
		return nil, err
	}
	return values(y), nil
}
