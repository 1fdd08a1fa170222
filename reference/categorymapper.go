// CategoryMapper (ai.onnx.ml, version 1), after the ONNX-ML
// specification: "Converts strings to integers and vice versa. Two
// sequences of equal length are used to map between integers and strings,
// with strings and integers at the same index detailing the mapping. Each
// operator converts either integers to strings or strings to integers,
// depending on which default value attribute is provided. Only one default
// value attribute should be defined. If the string default value is set,
// it will convert integers to strings. If the int default value is set, it
// will convert strings to integers." The direction follows X's type
// (string or int64), as onnxruntime does; default_int64 -1,
// default_string "_Unused"; of two equal keys the first counts.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "CategoryMapper", []int{1}, categoryMapper) }

func categoryMapper(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	if x.DataType() != tensor.String && x.DataType() != tensor.Int64 {
		return nil, op.errorf("type", "X must be string or int64")
	}
	ints, _, err := n.Ints("cats_int64s")
	if err != nil {
		return nil, err
	}
	var strs []string
	if a, ok := n.Attrs["cats_strings"]; ok {
		if a.Type != ops.AttrStrings {
			return nil, op.errorf("attribute", "cats_strings must be strings")
		}
		strs = a.Strings
	}
	if len(ints) != len(strs) {
		return nil, op.errorf("length", "sequences of equal length")
	}
	defInt, err := n.Int("default_int64", -1)
	if err != nil {
		return nil, err
	}
	defStr, err := n.Str("default_string", "_Unused")
	if err != nil {
		return nil, err
	}
	if x.DataType() == tensor.String {
		y, err := newTensor(opt, op, tensor.Int64, x.Shape())
		if err != nil {
			return nil, err
		}
		for k, s := range x.Strings() {
			data[int64](y)[k] = defInt
			for i := range strs {
				if strs[i] == s {
					data[int64](y)[k] = ints[i]
					break
				}
			}
		}
		return values(y), nil
	}
	y, err := newTensor(opt, op, tensor.String, x.Shape())
	if err != nil {
		return nil, err
	}
	for k, v := range data[int64](x) {
		y.Strings()[k] = defStr
		for i := range ints {
			if ints[i] == v {
				y.Strings()[k] = strs[i]
				break
			}
		}
	}
	return values(y), nil
}
