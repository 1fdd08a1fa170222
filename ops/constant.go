// Constant produces the tensor its attributes hold. Exactly one of them is
// set: value (any tensor), value_float, value_int, value_string (a rank-0
// float, int64 or string tensor) or value_floats, value_ints, value_strings
// (a 1-D one), or sparse_value.
//
// Versions: 1 and 9 take value only (9 widens the element types); 11 adds
// sparse_value; 12 adds the value_* forms; 13, 19, 21, 23, 24 and 25 add
// element types (bfloat16, float8, int4/uint4, float4e2m1, float8e8m0,
// int2/uint2).
//
// Rules: [value] exactly one value attribute is set; [attribute] only those
// the version defines (as the ONNX checker); [size] the output fits the size
// limit. sparse_value is
// not supported: onnxshape has no sparse tensors (its error wraps
// ErrUnsupported).

package ops

import (
	"fmt"
	"strings"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Constant", []int{1, 9, 11, 12, 13, 19, 21, 23, 24, 25}, [2]int{0, 0}, [2]int{1, 1}, constantNode)
}

// ConstantOptions are the parameters of Constant: set exactly one field. A
// nil pointer or slice is unset; an empty, non-nil slice is an empty 1-D
// tensor.
type ConstantOptions struct {
	Value        *tensor.Tensor // returned as it is
	ValueFloat   *float32       // a rank-0 float tensor
	ValueFloats  []float32      // a 1-D float tensor
	ValueInt     *int64         // a rank-0 int64 tensor
	ValueInts    []int64        // a 1-D int64 tensor
	ValueString  *string        // a rank-0 string tensor
	ValueStrings []string       // a 1-D string tensor
}

// Constant returns the tensor o holds (ONNX Constant, version 25).
func Constant(o ConstantOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Constant", 25}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return constant(opt, op, o)
}

// constantAttrs are the value attributes, in the specification's order.
var constantAttrs = []string{"sparse_value", "value", "value_float", "value_floats", "value_int", "value_ints", "value_string", "value_strings"}

func constantNode(opt *Options, n *Node, _ []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	var set []string
	for _, name := range constantAttrs {
		if n.Has(name) {
			set = append(set, name)
		}
	}
	if len(set) != 1 {
		return nil, op.errorf("value", "exactly one of %s must be set, got %s", strings.Join(constantAttrs, ", "), describeSet(set))
	}
	name := set[0]
	switch {
	case name == "sparse_value":
		if n.Version < 11 {
			return nil, op.errorf("attribute", "attribute sparse_value exists from version 11 on")
		}
		return nil, op.wrap("sparse_value", ErrUnsupported, "sparse_value")
	case name != "value" && n.Version < 12:
		return nil, op.errorf("attribute", "attribute %s exists from version 12 on", name)
	}
	var o ConstantOptions
	var err error
	switch name {
	case "value":
		if o.Value, err = n.TensorAttr(name); err == nil && o.Value == nil {
			err = op.errorf("value", "attribute value holds no tensor")
		}
	case "value_float":
		var v float32
		v, err = n.Float(name, 0)
		o.ValueFloat = &v
	case "value_int":
		var v int64
		v, err = n.Int(name, 0)
		o.ValueInt = &v
	case "value_string":
		var v string
		v, err = n.Str(name, "")
		o.ValueString = &v
	case "value_floats":
		o.ValueFloats, _, err = n.Floats(name)
		if o.ValueFloats == nil {
			o.ValueFloats = []float32{}
		}
	case "value_ints":
		o.ValueInts, _, err = n.Ints(name)
		if o.ValueInts == nil {
			o.ValueInts = []int64{}
		}
	case "value_strings":
		var a Attribute
		if a, _, err = n.attr(name, AttrStrings); err == nil {
			o.ValueStrings = a.Strings
			if o.ValueStrings == nil {
				o.ValueStrings = []string{}
			}
		}
	}
	if err != nil {
		return nil, err
	}
	y, err := constant(opt, op, o)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func describeSet(set []string) string {
	if len(set) == 0 {
		return "none"
	}
	return strings.Join(set, " and ")
}

// constantShape checks that o sets exactly one value and returns the type
// and shape of the output.
func constantShape(op opRef, o ConstantOptions) (tensor.DataType, []int, error) {
	var set []string
	var dt tensor.DataType
	var shape []int
	add := func(given bool, name string, t tensor.DataType, s []int) {
		if given {
			set = append(set, name)
			dt, shape = t, s
		}
	}
	if o.Value != nil {
		add(true, "value", o.Value.DataType(), o.Value.Shape())
	}
	add(o.ValueFloat != nil, "value_float", tensor.Float, []int{})
	add(o.ValueFloats != nil, "value_floats", tensor.Float, []int{len(o.ValueFloats)})
	add(o.ValueInt != nil, "value_int", tensor.Int64, []int{})
	add(o.ValueInts != nil, "value_ints", tensor.Int64, []int{len(o.ValueInts)})
	add(o.ValueString != nil, "value_string", tensor.String, []int{})
	add(o.ValueStrings != nil, "value_strings", tensor.String, []int{len(o.ValueStrings)})
	if len(set) != 1 {
		return 0, nil, op.errorf("value", "exactly one value must be set, got %s", describeSet(set))
	}
	return dt, shape, nil
}

func constant(opt *Options, op opRef, o ConstantOptions) (*tensor.Tensor, error) {
	if o.Value != nil {
		if err := checkInput(op, "value", o.Value); err != nil {
			return nil, err
		}
	}
	dt, shape, err := constantShape(op, o)
	if err != nil {
		return nil, err
	}
	if err := opt.orDefault().checkSize(op, dt, shape); err != nil {
		return nil, err
	}
	var y *tensor.Tensor
	switch {
	case o.Value != nil:
		return o.Value, nil
	case o.ValueFloat != nil:
		y, err = tensor.FromSlice([]float32{*o.ValueFloat}, shape...)
	case o.ValueFloats != nil:
		y, err = tensor.FromSlice(o.ValueFloats, shape...)
	case o.ValueInt != nil:
		y, err = tensor.FromSlice([]int64{*o.ValueInt}, shape...)
	case o.ValueInts != nil:
		y, err = tensor.FromSlice(o.ValueInts, shape...)
	case o.ValueString != nil:
		y, err = tensor.FromSlice([]string{*o.ValueString}, shape...)
	default:
		y, err = tensor.FromSlice(o.ValueStrings, shape...)
	}
	if err != nil {
		return nil, op.wrap("value", err, "%s", fmt.Sprint(shape))
	}
	return y, nil
}
