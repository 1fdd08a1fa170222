package reference

// Gather (versions 1, 11, 13), after the ONNX specification:
//
//	"Given data tensor of rank r >= 1, and indices tensor of rank q, gather
//	entries of the axis dimension of data (by default outer-most one as
//	axis=0) indexed by indices, and concatenates them in an output tensor of
//	rank q + (r - 1)."
//	"axis: Which axis to gather on. Negative value means counting dimensions
//	from the back. Accepted range is [-r, r-1] where r = rank(data)."
//	"indices: ... All index values are expected to be within bounds [-s,
//	s-1] along axis of size s. It is an error if any of the index values are
//	out of bounds."
//
// For axis = 0: output[i][j][k] = data[indices[i][j]][k]; in general the
// output index is (data prefix, indices index, data suffix).

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("Gather", []int{1, 11, 13}, gather) }

func gather(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	data, err := requiredInput(opOf(n), in, 0, "data")
	if err != nil {
		return nil, err
	}
	indices, err := requiredInput(opOf(n), in, 1, "indices")
	if err != nil {
		return nil, err
	}
	axis, err := n.Int("axis", 0)
	if err != nil {
		return nil, err
	}
	r := data.Rank()
	if r < 1 {
		return nil, opOf(n).errorf("rank", "data must have rank >= 1")
	}
	if axis < -int64(r) || axis > int64(r-1) {
		return nil, opOf(n).errorf("axis", "axis %d outside [%d, %d]", axis, -r, r-1)
	}
	if axis < 0 {
		axis += int64(r)
	}
	a := int(axis)
	if err := chargeIndices(opt, opOf(n), indices); err != nil {
		return nil, err
	}
	idx, err := int64sOf(indices)
	if err != nil {
		return nil, opOf(n).errorf("indices-type", "indices must be int32 or int64, got %v", indices.DataType())
	}
	s := int64(data.Shape()[a])
	for i, v := range idx {
		if v < -s || v > s-1 {
			return nil, opOf(n).errorf("indices", "index %d at position %d outside [%d, %d]", v, i, -s, s-1)
		}
	}
	q := indices.Rank()
	shape := append(append(append([]int{}, data.Shape()[:a]...), indices.Shape()...), data.Shape()[a+1:]...)
	out, err := newTensor(opt, opOf(n), data.DataType(), shape)
	if err != nil {
		return nil, err
	}
	dataStrides, indexStrides := stridesOf(data.Shape()), stridesOf(indices.Shape())
	di := make([]int, 0, data.Rank())
	stop := newPoll(opt, opOf(n))
	forEachIndexWhile(shape, func(o int, oi []int) bool {
		k := idx[ravel(oi[a:a+q], indexStrides)]
		if k < 0 {
			k += s
		}
		di = append(append(append(di[:0], oi[:a]...), int(k)), oi[a+q:]...)
		copyElement(out, o, data, ravel(di, dataStrides))
		return !stop.stop(1)
	})
	if stop.err != nil {
		return nil, stop.err
	}
	return []tensor.Value{out}, nil
}
