// ConstantOfShape creates a tensor of the shape its input lists, every
// element the one value of its attribute value (a one-element tensor;
// float32 0 when absent). An empty shape gives a scalar.
//
// Versions: 9; 20 adds bfloat16 and the float 8 types; 21 int4 and uint4;
// 23 float4e2m1; 24 float8e8m0; 25 int2 and uint2. Strings never.
//
// Rules: [input] the shape is a 1-D int64 tensor; [shape] its values are
// non-negative; [value] the attribute holds exactly one element of a type
// the version allows; [size] the output fits the size limit.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("ConstantOfShape", []int{9, 20, 21, 23, 24, 25}, [2]int{1, 1}, [2]int{1, 1}, constantOfShapeNode)
	declareAttrs("ConstantOfShape", AttrSpec{Name: "value", Type: AttrTensor})
}

// ConstantOfShapeOptions are the attributes of ConstantOfShape.
type ConstantOfShapeOptions struct {
	// Value is the one-element tensor that fills the output (attribute
	// value); nil means a float32 zero.
	Value *tensor.Tensor
}

// ConstantOfShape returns a tensor of the given shape filled with the one
// element of o.Value (a float32 zero when it is nil), as ONNX
// ConstantOfShape version 25.
func ConstantOfShape(shape []int, o ConstantOfShapeOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"ConstantOfShape", 25}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return constantOfShape(opt, op, shape, o.Value)
}

func constantOfShapeNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	shape, _, err := n.int64ListInput(opt, in, 0, "input", "input", true)
	if err != nil {
		return nil, err
	}
	value, err := n.TensorAttr("value")
	if err != nil {
		return nil, err
	}
	y, err := constantOfShape(opt, n.op(), shape, value)
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

// constantOfShapeTypeSince is the first version whose value may have type dt.
func constantOfShapeTypeSince(dt tensor.DataType) int {
	switch dt {
	case tensor.BFloat16, tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ:
		return 20
	case tensor.String, tensor.Complex64, tensor.Complex128:
		return 1 << 30
	}
	return max(castTypeSince(dt), 9)
}

func constantOfShape(opt *Options, op opRef, shape []int, value *tensor.Tensor) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	for i, d := range shape {
		if d < 0 {
			return nil, op.errorf("shape", "dimension %d is %d, must be >= 0", i, d)
		}
	}
	if value == nil {
		value = tensor.Scalar(float32(0))
	}
	if value.Len() != 1 {
		return nil, op.errorf("value", "value must hold one element, got shape %v", value.Shape())
	}
	if dt := value.DataType(); constantOfShapeTypeSince(dt) > op.version {
		return nil, op.errorf("value", "%s-%d cannot hold %v", op.name, op.version, dt)
	}
	y, err := opt.newOverwritten(op, value.DataType(), shape)
	if err != nil {
		return nil, err
	}
	fillWith(opt, y, value)
	return y, nil
}

// fillWith sets every element of y to the one element of value (of y's
// type, not a string): the element written once, then doubled by copies.
func fillWith(opt *Options, y, value *tensor.Tensor) {
	b := y.Bytes()
	size := y.DataType().Size()
	if len(b) == 0 {
		return
	}
	_ = parallelRange(opt, len(b)/size, len(b)/4, func(lo, hi int) error {
		part := b[lo*size : hi*size]
		copy(part, value.Bytes())
		for done := size; done < len(part); done *= 2 {
			copy(part[done:], part[:done])
		}
		return nil
	})
}
