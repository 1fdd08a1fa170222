package reference

// SplitToSequence (version 11), after the ONNX specification:
//
//	"Split a tensor into a sequence of tensors, along the specified 'axis'.
//	Lengths of the parts can be specified using the optional argument
//	'split'. If the argument 'split' is not specified, a default scalar
//	value of 1 is used as the value of 'split'. 'split' must contain only
//	positive numbers. 'split' is either a scalar (tensor of empty shape), or
//	a 1-D tensor. If 'split' is a scalar, then 'input' will be split into
//	chunks all of size 'split' if possible. The last chunk alone may be
//	smaller than 'split' if the 'input' size along the given axis 'axis' is
//	not divisible by 'split'. If 'split' is a 1-dimensional tensor, the
//	input tensor is split into 'size(split)' chunks, with lengths of the
//	parts on 'axis' specified in 'split'. In this scenario, the sum of
//	entries in 'split' must be equal to the dimension size of input tensor
//	on 'axis'."
//	"keepdims: Keep the split dimension or not. Default 1, which means we
//	keep split dimension. If input 'split' is specified, this attribute is
//	ignored."
//
// A 1-D split may hold zeros (empty parts), as Split allows.

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("SplitToSequence", []int{11}, splitToSequence) }

func splitToSequence(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input")
	if err != nil {
		return nil, err
	}
	st, err := optionalInput(op, in, 1)
	if err != nil {
		return nil, err
	}
	axis, err := intAttr(n, "axis", 0, "axis")
	if err != nil {
		return nil, err
	}
	keepdims, err := n.Int("keepdims", 1)
	if err != nil {
		return nil, err
	}
	r := x.Rank()
	if axis < -r || axis >= r {
		return nil, op.errorf("axis", "axis %d", axis)
	}
	if axis < 0 {
		axis += r
	}
	d := x.Shape()[axis]
	var lengths []int
	switch {
	case st == nil:
		if int64(d) > opt.TensorLimit()/64 { // each piece a 64-byte tensor header at least
			return nil, op.errorf("size", "%d pieces", d)
		}
		for range d {
			lengths = append(lengths, 1)
		}
	case (st.DataType() != tensor.Int32 && st.DataType() != tensor.Int64) || st.Rank() > 1:
		return nil, op.errorf("split", "split must be an int32 or int64 scalar or 1-D tensor")
	case st.Rank() == 0:
		size := exactValue(st, 0).i
		if size <= 0 {
			return nil, op.errorf("split", "split %d", size)
		}
		if (int64(d)+size-1)/size > opt.TensorLimit()/64 {
			return nil, op.errorf("size", "%d pieces", (int64(d)+size-1)/size)
		}
		for start := 0; start < d; start += int(size) {
			lengths = append(lengths, min(int(size), d-start))
		}
	default:
		sum := 0
		for i := range st.Len() {
			l := exactValue(st, i).i
			if l < 0 || l > int64(d-sum) {
				return nil, op.errorf("split", "split %v", l)
			}
			lengths = append(lengths, int(l))
			sum += int(l)
		}
		if sum != d {
			return nil, op.errorf("split", "the lengths add up to %d, not %d", sum, d)
		}
	}
	if err := positiveDims(opt, op, "input", x.Shape()); err != nil { // [DIMS]
		return nil, err
	}
	for i, l := range lengths { // [DIMS]
		if l == 0 && sonnx(opt) {
			return nil, op.errorf("DIMS", "output %d would have length 0 on axis %d, and the profile's tensors have positive dimensions", i, axis)
		}
	}
	seq := &tensor.Sequence{ElemType: x.DataType(), Items: []*tensor.Tensor{}}
	strides := stridesOf(x.Shape())
	start := 0
	for _, l := range lengths {
		shape := append([]int{}, x.Shape()...)
		shape[axis] = l
		part, err := newTensor(opt, op, x.DataType(), shape)
		if err != nil {
			return nil, err
		}
		for o := range part.Len() {
			pos := unravel(o, shape)
			pos[axis] += start
			copyElement(part, o, x, ravel(pos, strides))
		}
		if st == nil && keepdims == 0 {
			squeezed := append(append([]int{}, shape[:axis]...), shape[axis+1:]...)
			if part, err = copyAs(opt, op, part, squeezed); err != nil {
				return nil, err
			}
		}
		seq.Items = append(seq.Items, part)
		start += l
	}
	return []tensor.Value{seq}, nil
}
