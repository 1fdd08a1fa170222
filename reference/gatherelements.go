package reference

// GatherElements (versions 11, 13), after the ONNX specification:
//
//	"It is an indexing operation that produces its output by indexing into
//	the input data tensor at index positions determined by elements of the
//	indices tensor. Its output shape is the same as the shape of indices and
//	consists of one value (gathered from the data) for each element in
//	indices."
//	out[i][j][k] = input[index[i][j][k]][j][k] if axis = 0,
//	out[i][j][k] = input[i][index[i][j][k]][k] if axis = 1, ...
//	"All index values are expected to be within bounds [-s, s-1] along axis
//	of size s. It is an error if any of the index values are out of bounds."

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("GatherElements", []int{11, 13}, gatherElements) }

func gatherElements(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	data, err := requiredInput(opOf(n), in, 0, "data")
	if err != nil {
		return nil, err
	}
	indices, err := requiredInput(opOf(n), in, 1, "indices")
	if err != nil {
		return nil, err
	}
	if err := chargeIndices(opt, opOf(n), indices); err != nil {
		return nil, err
	}
	axis, idx, err := alongAxis(n, data, indices)
	if err != nil {
		return nil, err
	}
	out, err := newTensor(opt, opOf(n), data.DataType(), indices.Shape())
	if err != nil {
		return nil, err
	}
	strides := stridesOf(data.Shape())
	pos := make([]int, indices.Rank())
	stop := newPoll(opt, opOf(n))
	forEachIndexWhile(indices.Shape(), func(o int, at []int) bool {
		copy(pos, at)
		pos[axis] = int(idx[o])
		copyElement(out, o, data, ravel(pos, strides))
		return !stop.stop(1)
	})
	if stop.err != nil {
		return nil, stop.err
	}
	return []tensor.Value{out}, nil
}

// alongAxis checks the inputs of GatherElements and ScatterElements (the
// same rules, the same rule names as package ops) and returns the axis and
// the indices, negative ones counted from the end of the axis.
func alongAxis(n *ops.Node, data, indices *tensor.Tensor) (int, []int64, error) {
	r := data.Rank()
	if r < 1 {
		return 0, nil, opOf(n).errorf("rank", "data must have rank >= 1")
	}
	axis, err := n.Int("axis", 0)
	if err != nil {
		return 0, nil, err
	}
	if axis < -int64(r) || axis > int64(r-1) {
		return 0, nil, opOf(n).errorf("axis", "axis %d outside [%d, %d]", axis, -r, r-1)
	}
	if axis < 0 {
		axis += int64(r)
	}
	if indices.Rank() != r {
		return 0, nil, opOf(n).errorf("indices-shape", "indices must have rank %d", r)
	}
	for d := range r {
		if d != int(axis) && indices.Shape()[d] > data.Shape()[d] {
			return 0, nil, opOf(n).errorf("indices-shape", "indices shape %v exceeds data shape %v", indices.Shape(), data.Shape())
		}
	}
	idx, err := int64sOf(indices)
	if err != nil {
		return 0, nil, opOf(n).errorf("indices-type", "indices must be int32 or int64")
	}
	s := int64(data.Shape()[axis])
	for i, v := range idx {
		if v < -s || v > s-1 {
			return 0, nil, opOf(n).errorf("indices", "index %d at %d outside [%d, %d]", v, i, -s, s-1)
		}
		if v < 0 {
			idx[i] = v + s
		}
	}
	return int(axis), idx, nil
}
