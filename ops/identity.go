// Identity returns its input unchanged: a tensor, a sequence or an optional
// value passes through as the same value (values are immutable, so sharing
// is safe: the output is a view of the input, at no cost).
//
// Versions: 1 and 13 take tensors (13 adds bfloat16); 14 also sequences;
// 16 also optionals; 19, 21, 23, 24 and 25 add element types (float8,
// int4/uint4, float4e2m1, float8e8m0, int2/uint2). A value of a kind the
// version does not take is an error [type].

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Identity", []int{1, 13, 14, 16, 19, 21, 23, 24, 25}, [2]int{1, 1}, [2]int{1, 1}, identityNode)
}

// Identity returns v itself (ONNX Identity, version 25). Tensors are
// immutable, so the result shares v's storage.
func Identity(v tensor.Value, opts ...Option) (tensor.Value, error) {
	op := opRef{"Identity", 25}
	if _, err := callOptions(op, opts); err != nil {
		return nil, err
	}
	return identity(op, v)
}

func identityNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	var v tensor.Value
	if len(in) > 0 {
		v = in[0]
	}
	y, err := identity(n.op(), v)
	if err != nil {
		return nil, err
	}
	return []tensor.Value{y}, nil
}

func identity(op opRef, v tensor.Value) (tensor.Value, error) {
	switch v := v.(type) {
	case *tensor.Tensor:
		if v == nil {
			break
		}
		if err := checkInput(op, "input", v); err != nil {
			return nil, err
		}
		return v, nil
	case *tensor.Sequence:
		if v == nil {
			break
		}
		if op.version < 14 {
			return nil, op.errorf("type", "input is %s: sequences pass through Identity from version 14", v.Describe())
		}
		return v, nil
	case *tensor.Optional:
		if v == nil {
			break
		}
		if op.version < 16 {
			return nil, op.errorf("type", "input is %s: optional values pass through Identity from version 16", v.Describe())
		}
		return v, nil
	case nil:
	default:
		return nil, op.errorf("type", "input is %s, which Identity does not take", v.Describe())
	}
	return nil, op.errorf("input", "required input input (#0) is missing")
}
