package reference

// OneHot (versions 9, 11), after the ONNX specification:
//
//	"Produces a one-hot tensor based on inputs. The locations represented by
//	the index values in the 'indices' input tensor will have 'on_value' and
//	the other locations will have 'off_value' in the output tensor, where
//	'on_value' and 'off_value' are specified as part of required input
//	argument 'values', which is a two-element tensor of format [off_value,
//	on_value]. The rank of the output tensor will be one greater than the
//	rank of the input tensor. The additional dimension is for one-hot
//	representation. The additional dimension will be inserted at the
//	position specified by 'axis'. If 'axis' is not specified then then
//	additional dimension will be inserted as the innermost dimension, i.e.
//	axis=-1. The size of the additional dimension is specified by required
//	scalar input 'depth'. The type of the output tensor is the same as the
//	type of the 'values' input. Any entries in the 'indices' input tensor
//	with values outside the range [-depth, depth-1] will result in one-hot
//	representation with all 'off_value' values in the output tensor."
//	"depth: ... In case 'depth' is of non-integer type, it will be casted to
//	int64 before use."

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("OneHot", []int{9, 11}, oneHot) }

func oneHot(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	var args [3]*tensor.Tensor
	var err error
	for i, name := range []string{"indices", "depth", "values"} {
		if args[i], err = requiredInput(op, in, i, name); err != nil {
			return nil, err
		}
	}
	indices, depthT, vals := args[0], args[1], args[2]
	axis, err := n.Int("axis", -1)
	if err != nil {
		return nil, err
	}
	r := int64(indices.Rank())
	if axis < -r-1 || axis > r {
		return nil, op.errorf("axis", "axis %d", axis)
	}
	if axis < 0 {
		axis += r + 1
	}
	numeric := func(dt tensor.DataType) bool { return dt.IsFloat() || dt.IsInteger() }
	if !numeric(depthT.DataType()) || depthT.Len() != 1 {
		return nil, op.errorf("depth", "depth must be one number")
	}
	d := exactValue(depthT, 0)
	depthF := d.f
	if d.kind == 'i' {
		depthF = float64(d.i)
	} else if d.kind == 'u' {
		depthF = float64(d.u)
	}
	if !(depthF >= 1) || depthF > math.MaxInt32 {
		return nil, op.errorf("depth", "depth %v", depthF)
	}
	depth := int(depthF)
	if vals.Rank() != 1 || vals.Len() != 2 {
		return nil, op.errorf("values", "values must be [off_value, on_value]")
	}
	if !numeric(indices.DataType()) {
		return nil, op.errorf("indices", "indices must be numeric")
	}
	shape := append(append(append([]int{}, indices.Shape()[:axis]...), depth), indices.Shape()[axis:]...)
	y, err := newTensor(opt, op, vals.DataType(), shape)
	if err != nil {
		return nil, err
	}
	istrides := stridesOf(indices.Shape())
	for o := range y.Len() {
		pos := unravel(o, shape)
		at := append(append([]int{}, pos[:axis]...), pos[axis+1:]...)
		v := exactValue(indices, ravel(at, istrides))
		idx := math.Trunc(v.f)
		if v.kind == 'i' {
			idx = float64(v.i)
		} else if v.kind == 'u' {
			idx = float64(v.u)
		}
		if idx < 0 {
			idx += float64(depth)
		}
		if idx == float64(pos[axis]) {
			copyElement(y, o, vals, 1)
		} else {
			copyElement(y, o, vals, 0)
		}
	}
	return values(y), nil
}
