package reference

// ConstantOfShape (versions 9, 20, 21, 23, 24, 25), after the ONNX
// specification:
//
//	"Generate a tensor with given value and shape."
//	"value: (Optional) The value of the output elements. Should be a one-element
//	tensor. If not specified, it defaults to a tensor of value 0 and datatype
//	float32"
//	"input: 1D tensor. The shape of the expected output tensor. If empty
//	tensor is given, the output would be a scalar. All values must be >= 0."

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("ConstantOfShape", []int{9, 20, 21, 23, 24, 25}, constantOfShape) }

// constantOfShapeFirstVersion is the first version whose value may have type dt.
func constantOfShapeFirstVersion(dt tensor.DataType) int {
	switch dt {
	case tensor.String, tensor.Complex64, tensor.Complex128:
		return 1 << 30
	case tensor.BFloat16, tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ:
		return 20
	}
	return max(castFirstVersion(dt), 9)
}

func constantOfShape(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	input, err := requiredInput(opOf(n), in, 0, "input")
	if err != nil {
		return nil, err
	}
	if input.DataType() != tensor.Int64 || input.Rank() > 1 || (sonnx(opt) && input.Rank() != 1) {
		return nil, opOf(n).errorf("input", "input must be a 1-D int64 tensor, got %s", input.Describe())
	}
	value, err := n.TensorAttr("value")
	if err != nil {
		return nil, err
	}
	dims, _ := int64sOf(input)
	shape := make([]int, len(dims))
	for i, d := range dims {
		if d < 0 {
			return nil, opOf(n).errorf("shape", "dimension %d is %d", i, d)
		}
		shape[i] = int(d)
	}
	if value == nil {
		value = tensor.Scalar(float32(0))
	}
	if value.Len() != 1 {
		return nil, opOf(n).errorf("value", "value must be a one-element tensor")
	}
	if constantOfShapeFirstVersion(value.DataType()) > n.Version {
		return nil, opOf(n).errorf("value", "value of type %v", value.DataType())
	}
	out, err := newTensor(opt, opOf(n), value.DataType(), shape)
	if err != nil {
		return nil, err
	}
	for i := range out.Len() {
		copyElement(out, i, value, 0)
	}
	return []tensor.Value{out}, nil
}
