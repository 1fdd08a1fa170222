package reference

// ScatterND (versions 11, 13, 16, 18), after the ONNX specification:
//
//	output = np.copy(data)
//	update_indices = indices.shape[:-1]
//	for idx in np.ndindex(update_indices):
//	    output[indices[idx]] = updates[idx]           (reduction none)
//	    output[indices[idx]] += / *= / max / min updates[idx]
//	"updates is treated as a (q-1)-dimensional tensor of replacement-slice-
//	values. Thus, the first (q-1) dimensions of updates.shape must match the
//	first (q-1) dimensions of indices.shape. The remaining dimensions of
//	updates correspond to the dimensions of the replacement-slice-values.
//	Each replacement-slice-value is a (r-k) dimensional tensor"

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("ScatterND", []int{11, 13, 16, 18}, scatterND) }

func scatterND(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	var args [3]*tensor.Tensor
	var err error
	for i, name := range []string{"data", "indices", "updates"} {
		if args[i], err = requiredInput(opOf(n), in, i, name); err != nil {
			return nil, err
		}
	}
	data, indices, updates := args[0], args[1], args[2]
	red, err := readReduction(n)
	if err != nil {
		return nil, err
	}
	if err := chargeIndices(opt, opOf(n), indices); err != nil {
		return nil, err
	}
	k, idx, err := checkTuples(n, data, indices, 0)
	if err != nil {
		return nil, err
	}
	q := indices.Rank()
	want := append(append([]int{}, indices.Shape()[:q-1]...), data.Shape()[k:]...)
	if !tensor.SameShape(updates.Shape(), want) || updates.DataType() != data.DataType() {
		return nil, opOf(n).errorf("updates", "updates must be %v of shape %v", data.DataType(), want)
	}
	if err := checkReducible(n, data.DataType(), red); err != nil {
		return nil, err
	}
	out, err := newTensor(opt, opOf(n), data.DataType(), data.Shape())
	if err != nil {
		return nil, err
	}
	for i := range data.Len() {
		copyElement(out, i, data, i)
	}
	dataStrides := stridesOf(data.Shape())
	for u := range updates.Len() {
		pos := unravel(u, updates.Shape())
		tupleAt := ravel(pos[:q-1], stridesOf(indices.Shape()[:q-1])) * k
		di := make([]int, 0, data.Rank())
		for t := range k {
			di = append(di, int(idx[tupleAt+t]))
		}
		di = append(di, pos[q-1:]...)
		if err := scatterOne(n, out, ravel(di, dataStrides), updates, u, red); err != nil {
			return nil, err
		}
	}
	return []tensor.Value{out}, nil
}
