// GatherND picks slices of data that tuples of indices address: indices of
// shape [..., k] hold tuples of k coordinates into data's dims b..b+k-1
// (after b = batch_dims leading dims that data and indices share), each
// selecting the slice data[batch, tuple, ...]. The output has shape
// indices.shape[:-1] + data.shape[b+k:].
//
// Versions: 11; 12 adds batch_dims; 13 adds bfloat16. Any element type.
//
// Rules: [rank] data and indices have rank >= 1; [indices-type] int64;
// [batch_dims] below both ranks, and the first batch_dims dims agree;
// [indices-shape] k in [1, rank(data) - batch_dims]; [indices] every
// coordinate in [-d, d-1] of its dim (negative ones count from the end);
// [size] the output fits the size limit.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("GatherND", []int{11, 12, 13}, [2]int{2, 2}, [2]int{1, 1}, gatherNDNode)
	declareAttrs("GatherND", AttrSpec{Name: "batch_dims", Type: AttrInt, From: 12})
}

// GatherND returns the slices of data that the index tuples of indices
// address, after batchDims shared leading dims (ONNX GatherND, version 13).
func GatherND(data, indices *tensor.Tensor, batchDims int, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"GatherND", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return gatherND(opt, op, data, indices, batchDims)
}

func gatherNDNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	data, err := n.requiredInput(in, 0, "data")
	if err != nil {
		return nil, err
	}
	indices, err := n.requiredInput(in, 1, "indices")
	if err != nil {
		return nil, err
	}
	b := 0
	if n.Version >= 12 {
		if b, err = n.intAttr("batch_dims", 0, "batch_dims"); err != nil {
			return nil, err
		}
	}
	y, err := gatherND(opt, n.op(), data, indices, b)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func gatherND(opt *Options, op opRef, data, indices *tensor.Tensor, b int) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	at, block, err := tupleTargets(opt, op, data.Shape(), indices, b)
	if err != nil {
		return nil, err
	}
	is := indices.Shape()
	k := is[len(is)-1]
	shape := append(append([]int{}, is[:len(is)-1]...), data.Shape()[b+k:]...)
	y, err := opt.newOverwritten(op, data.DataType(), shape)
	if err != nil {
		return nil, err
	}
	if block == 0 || len(at) == 0 {
		return y, nil
	}
	err = parallelRange(opt, len(at), y.ByteLen()/4, func(lo, hi int) error {
		gatherBlocks(y, data, block, lo, hi, func(r int) int { return int(at[r]) / block })
		return nil
	})
	return y, err
}
