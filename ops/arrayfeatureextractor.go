// ArrayFeatureExtractor (ai.onnx.ml, version 1) selects elements of X's
// last axis: Z[..., j] = X[..., Y[j]] for the indices Y (int64, read
// flattened, in order, repeats allowed). Z's shape is X's with the last
// axis replaced by the number of indices; a 1-D X gives [1, len(Y)], as
// onnxruntime and the ONNX reference evaluator do.
//
// Rules: [type] X is float, double, int64, int32 or string; [Y] Y is
// int64; [rank] X has rank >= 1; [index] every index in [0, C), C the last
// axis of X (onnxruntime refuses negative ones as well).

package ops

import "github.com/onnxshape/onnxshape/tensor"

func init() {
	registerIn(domainML, "ArrayFeatureExtractor", []int{1}, [2]int{2, 2}, [2]int{1, 1}, arrayFeatureExtractorNode)
	declareAttrsIn(domainML, "ArrayFeatureExtractor")
}

// ArrayFeatureExtractorShape is Z's shape for X of shape x and count
// indices.
func ArrayFeatureExtractorShape(x []int, count int) []int {
	if len(x) == 1 {
		return []int{1, count}
	}
	return append(append([]int{}, x[:len(x)-1]...), count)
}

func arrayFeatureExtractorNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	y, err := n.requiredInput(in, 1, "Y")
	if err != nil {
		return nil, err
	}
	switch x.DataType() {
	case tensor.Float, tensor.Double, tensor.Int64, tensor.Int32, tensor.String:
	default:
		return nil, op.errorf("type", "X must be float, double, int64, int32 or string, got %v", x.DataType())
	}
	if y.DataType() != tensor.Int64 {
		return nil, op.errorf("Y", "Y must be int64, got %v", y.DataType())
	}
	if x.Rank() < 1 {
		return nil, op.errorf("rank", "X must have rank 1 or more, got a scalar")
	}
	c := x.Shape()[x.Rank()-1]
	idx := asElems[int64](y.Bytes())[:y.Len()]
	for j, v := range idx {
		if v < 0 || v >= int64(c) {
			return nil, op.errorf("index", "Y[%d] = %d is out of range for the last axis of X, of size %d", j, v, c)
		}
	}
	z, err := opt.newOverwritten(op, x.DataType(), ArrayFeatureExtractorShape(x.Shape(), len(idx)))
	if err != nil {
		return nil, err
	}
	rows := 0
	if c > 0 {
		rows = x.Len() / c
	}
	k := len(idx)
	if x.DataType() == tensor.String {
		src, dst := x.Strings(), z.Strings()
		err = parallelRange(opt, rows, rows*k, func(lo, hi int) error {
			for r := lo; r < hi; r++ {
				for j, v := range idx {
					dst[r*k+j] = src[r*c+int(v)]
				}
			}
			return nil
		})
	} else {
		size := x.DataType().Size()
		src, dst := x.Bytes(), z.Bytes()
		err = parallelRange(opt, rows, rows*k, func(lo, hi int) error {
			for r := lo; r < hi; r++ {
				for j, v := range idx {
					copy(dst[(r*k+j)*size:(r*k+j+1)*size], src[(r*c+int(v))*size:])
				}
			}
			return nil
		})
	}
	if err != nil {
		return nil, op.stopped(err)
	}
	return values(z), nil
}
