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

// GatherNDOptions are GatherND's attributes; the zero value is ONNX's
// default.
type GatherNDOptions struct {
	// BatchDims is the number of leading dims data and indices share
	// (batch_dims).
	BatchDims int
}

// GatherND returns the slices of data that the index tuples of indices
// address, after o.BatchDims shared leading dims (ONNX GatherND, version
// 13).
func GatherND(data, indices *tensor.Tensor, o GatherNDOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"GatherND", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return gatherND(opt, op, data, indices, o.BatchDims)
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

// tupleTargets reads indices as tuples of k = indices.shape[-1] coordinates
// into the dims b..b+k of data (after b batch dims that data and indices
// share) and returns, per tuple, the flat element offset of the slice of
// data it addresses, and the slice's length (the product of data's dims
// after b+k). GatherND reads those slices, ScatterND writes them.
func tupleTargets(opt *Options, op opRef, dataShape []int, indices *tensor.Tensor, b int) ([]int64, int, error) {
	is := indices.Shape()
	if len(dataShape) < 1 || len(is) < 1 {
		return nil, 0, op.errorf("rank", "data and indices must have rank >= 1, got %v and %v", dataShape, is)
	}
	if dt := indices.DataType(); dt != tensor.Int64 {
		return nil, 0, op.errorf("indices-type", "indices must be int64, got %v", dt)
	}
	if b < 0 || b >= len(is) || b >= len(dataShape) {
		return nil, 0, op.errorf("batch_dims", "batch_dims %d must be below the ranks of data (%d) and indices (%d)", b, len(dataShape), len(is))
	}
	for d := range b {
		if is[d] != dataShape[d] {
			return nil, 0, op.errorf("batch_dims", "the first %d dims of indices %v and data %v must agree", b, is, dataShape)
		}
	}
	k := is[len(is)-1]
	if k < 1 || k > len(dataShape)-b {
		return nil, 0, op.errorf("indices-shape", "the last dim of indices (%d) must be in [1, %d]", k, len(dataShape)-b)
	}
	tuples := 1
	for _, d := range is[:len(is)-1] {
		tuples *= d
	}
	if err := opt.checkSize(op, tensor.Int64, []int{tuples, 2}); err != nil { // the tuple offsets and the indices read
		return nil, 0, err
	}
	if err := opt.charge(op, "index scratch", int64(indices.Len())*8+int64(tuples)*8); err != nil {
		return nil, 0, err
	}
	raw, err := int64sOf(indices)
	if err != nil {
		return nil, 0, op.wrap("indices-type", err, "indices")
	}
	block := product(dataShape[b+k:])
	strides := make([]int, k)
	s := block
	for t := k - 1; t >= 0; t-- {
		strides[t] = s
		s *= dataShape[b+t]
	}
	batchSize := s // elements of data per batch entry
	perBatch := 1
	if b > 0 {
		perBatch = tuples / max(product(is[:b]), 1)
	}
	at := make([]int64, tuples)
	for j := range at {
		off := j / max(perBatch, 1) * batchSize
		if b == 0 {
			off = 0
		}
		for t := range k {
			v, dim := raw[j*k+t], int64(dataShape[b+t])
			if v < -dim || v >= dim {
				return nil, 0, op.errorf("indices", "index %d at tuple %d, coordinate %d, outside [%d, %d)", v, j, t, -dim, dim)
			}
			if v < 0 {
				v += dim
			}
			off += int(v) * strides[t]
		}
		at[j] = int64(off)
	}
	return at, block, nil
}
