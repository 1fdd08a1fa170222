package reference

// GatherND (versions 11, 12, 13), after the ONNX specification:
//
//	"Given data tensor of rank r >= 1, indices tensor of rank q >= 1, and
//	batch_dims integer b, this operator gathers slices of data into an
//	output tensor of rank q + r - indices_shape[-1] - 1 - b."
//	"indices_shape[-1] should have a value between 1 (inclusive) and rank
//	r-b (inclusive)"; "All values in indices are expected to be within
//	bounds [-s, s-1] along axis of size s (i.e.) -data_shape[i] <=
//	indices[...,i] <= data_shape[i] - 1. It is an error if any of the index
//	values are out of bounds."
//	"The first b dimensions of the shape of indices tensor and data tensor
//	must be equal."
//	output shape = indices_shape[0:q-1] ++ data_shape[b+k:]

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("GatherND", []int{11, 12, 13}, gatherND) }

func gatherND(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	data, err := requiredInput(opOf(n), in, 0, "data")
	if err != nil {
		return nil, err
	}
	indices, err := requiredInput(opOf(n), in, 1, "indices")
	if err != nil {
		return nil, err
	}
	b := int64(0)
	if n.Version >= 12 {
		if b, err = n.Int("batch_dims", 0); err != nil {
			return nil, err
		}
	}
	if err := chargeIndices(opt, opOf(n), indices); err != nil {
		return nil, err
	}
	k, idx, err := checkTuples(n, data, indices, int(b))
	if err != nil {
		return nil, err
	}
	q := indices.Rank()
	shape := append(append([]int{}, indices.Shape()[:q-1]...), data.Shape()[int(b)+k:]...)
	out, err := newTensor(opt, opOf(n), data.DataType(), shape)
	if err != nil {
		return nil, err
	}
	dataStrides, indexStrides := stridesOf(data.Shape()), stridesOf(indices.Shape())
	for o := range out.Len() {
		pos := unravel(o, shape) // (batch, tuple position, slice position)
		tuple := append(append([]int{}, pos[:q-1]...), 0)
		di := append([]int{}, pos[:b]...)
		for t := range k {
			tuple[q-1] = t
			di = append(di, int(idx[ravel(tuple, indexStrides)]))
		}
		di = append(di, pos[q-1:]...)
		copyElement(out, o, data, ravel(di, dataStrides))
	}
	return []tensor.Value{out}, nil
}

// checkTuples checks the inputs of GatherND and ScatterND (rule names as
// package ops) and returns k and the indices, negative ones counted from
// the end of their dims.
func checkTuples(n *ops.Node, data, indices *tensor.Tensor, b int) (int, []int64, error) {
	r, q := data.Rank(), indices.Rank()
	if r < 1 || q < 1 {
		return 0, nil, opOf(n).errorf("rank", "data and indices must have rank >= 1")
	}
	if indices.DataType() != tensor.Int64 {
		return 0, nil, opOf(n).errorf("indices-type", "indices must be int64")
	}
	if b < 0 || b >= q || b >= r {
		return 0, nil, opOf(n).errorf("batch_dims", "batch_dims %d", b)
	}
	for d := range b {
		if indices.Shape()[d] != data.Shape()[d] {
			return 0, nil, opOf(n).errorf("batch_dims", "the first %d dims differ", b)
		}
	}
	k := indices.Shape()[q-1]
	if k < 1 || k > r-b {
		return 0, nil, opOf(n).errorf("indices-shape", "indices_shape[-1] = %d", k)
	}
	idx, _ := int64sOf(indices)
	for i, v := range idx {
		s := int64(data.Shape()[b+i%k])
		if v < -s || v > s-1 {
			return 0, nil, opOf(n).errorf("indices", "index %d outside [%d, %d]", v, -s, s-1)
		}
		if v < 0 {
			idx[i] = v + s
		}
	}
	return k, idx, nil
}
