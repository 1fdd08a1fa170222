// Identity (ONNX Identity 1, 13, 14, 16, 19, 21, 23, 24, 25): the output is
// the input. Versions before 14 take tensors only, 14 adds sequences, 16
// optional values; the later ones only widen the element types. A value of
// a kind the version does not take breaks [type].

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Identity", []int{1, 13, 14, 16, 19, 21, 23, 24, 25}, identity)
}

func identity(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	var v tensor.Value
	if len(in) > 0 {
		v = in[0]
	}
	switch v := v.(type) {
	case *tensor.Tensor:
		if v != nil {
			y, err := copyAs(opt, op, v, v.Shape())
			if err != nil {
				return nil, err
			}
			return values(y), nil
		}
	case *tensor.Sequence:
		if v != nil {
			if op.version < 14 {
				return nil, op.errorf("type", "input is %s: sequences pass through Identity from version 14", v.Describe())
			}
			y, err := copySequence(opt, op, v)
			if err != nil {
				return nil, err
			}
			return []tensor.Value{y}, nil
		}
	case *tensor.Optional:
		if v != nil {
			if op.version < 16 {
				return nil, op.errorf("type", "input is %s: optional values pass through Identity from version 16", v.Describe())
			}
			y, err := copyOptional(opt, op, v)
			if err != nil {
				return nil, err
			}
			return []tensor.Value{y}, nil
		}
	case nil:
	default:
		return nil, op.errorf("type", "input is %s, which Identity does not take", v.Describe())
	}
	return nil, op.errorf("input", "required input input (#0) is missing")
}

// copySequence returns a sequence of fresh copies of s's tensors.
func copySequence(opt *ops.Options, op opRef, s *tensor.Sequence) (*tensor.Sequence, error) {
	y := &tensor.Sequence{ElemType: s.ElemType, Items: make([]*tensor.Tensor, len(s.Items))}
	for i, t := range s.Items {
		c, err := copyAs(opt, op, t, t.Shape())
		if err != nil {
			return nil, err
		}
		y.Items[i] = c
	}
	return y, nil
}

// copyOptional returns an optional holding a fresh copy of o's value.
func copyOptional(opt *ops.Options, op opRef, o *tensor.Optional) (*tensor.Optional, error) {
	y := &tensor.Optional{ElemType: o.ElemType}
	switch v := o.Value.(type) {
	case *tensor.Tensor:
		c, err := copyAs(opt, op, v, v.Shape())
		if err != nil {
			return nil, err
		}
		y.Value = c
	case *tensor.Sequence:
		c, err := copySequence(opt, op, v)
		if err != nil {
			return nil, err
		}
		y.Value = c
	}
	return y, nil
}
