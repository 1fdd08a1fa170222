package reference

// ReverseSequence (version 10), after the ONNX specification:
//
//	"Reverse batch of sequences having different lengths specified by
//	sequence_lens. For each slice i iterating on batch axis, the operator
//	reverses the first sequence_lens[i] elements on time axis, and copies
//	elements whose index's beyond sequence_lens[i] to the output. So the
//	output slice i contains reversed sequences on the first sequence_lens[i]
//	elements, then have original values copied for the other elements."
//	"batch_axis: (Optional) Specify which axis is batch axis. Must be one of
//	1 (default), or 0." "time_axis: ... Must be one of 0 (default), or 1."

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("ReverseSequence", []int{10}, reverseSequence) }

func reverseSequence(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input")
	if err != nil {
		return nil, err
	}
	lens, err := requiredInput(op, in, 1, "sequence_lens")
	if err != nil {
		return nil, err
	}
	batchAxis, err := intAttr(n, "batch_axis", 1, "axes")
	if err != nil {
		return nil, err
	}
	timeAxis, err := intAttr(n, "time_axis", 0, "axes")
	if err != nil {
		return nil, err
	}
	if x.Rank() < 2 {
		return nil, op.errorf("rank", "input must have rank >= 2")
	}
	if !(batchAxis == 0 && timeAxis == 1 || batchAxis == 1 && timeAxis == 0) {
		return nil, op.errorf("axes", "batch_axis %d, time_axis %d", batchAxis, timeAxis)
	}
	if lens.DataType() != tensor.Int64 || lens.Rank() != 1 || lens.Len() != x.Shape()[batchAxis] {
		return nil, op.errorf("sequence_lens", "sequence_lens must be 1-D int64, one per batch entry")
	}
	seq, _ := int64sOf(lens)
	for _, l := range seq {
		if l < 0 || l > int64(x.Shape()[timeAxis]) {
			return nil, op.errorf("sequence_lens", "sequence length %d", l)
		}
	}
	y, err := newTensor(opt, op, x.DataType(), x.Shape())
	if err != nil {
		return nil, err
	}
	strides := stridesOf(x.Shape())
	for o := range y.Len() {
		pos := unravel(o, x.Shape())
		if l := int(seq[pos[batchAxis]]); pos[timeAxis] < l {
			pos[timeAxis] = l - 1 - pos[timeAxis]
		}
		copyElement(y, o, x, ravel(pos, strides))
	}
	return values(y), nil
}
