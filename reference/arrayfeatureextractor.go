// ArrayFeatureExtractor (ai.onnx.ml, version 1), after the ONNX-ML
// specification: "Select elements of the input tensor based on the
// indices passed. The indices are applied to the last axes of the
// tensor." As the ONNX reference evaluator (op_array_feature_extractor.py)
// reads it: Y is flattened; Z = X[..., Y] of shape X.shape[:-1] + [len(Y)],
// or [1, len(Y)] for a 1-D X. An index outside [0, C) is refused. T:
// float, double, int64, int32, string; Y int64.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn("ai.onnx.ml", "ArrayFeatureExtractor", []int{1}, arrayFeatureExtractor)
}

func arrayFeatureExtractor(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	y, err := requiredInput(op, in, 1, "Y")
	if err != nil {
		return nil, err
	}
	switch x.DataType() {
	case tensor.Float, tensor.Double, tensor.Int64, tensor.Int32, tensor.String:
	default:
		return nil, op.errorf("type", "X must be float, double, int64, int32 or string")
	}
	if y.DataType() != tensor.Int64 {
		return nil, op.errorf("Y", "Y must be int64")
	}
	if x.Rank() < 1 {
		return nil, op.errorf("rank", "X must have rank 1 or more")
	}
	c := x.Shape()[x.Rank()-1]
	index := data[int64](y)
	for j := range index {
		if index[j] < 0 || index[j] >= int64(c) {
			return nil, op.errorf("index", "Y[%d] = %d is out of range", j, index[j])
		}
	}
	shape := append(append([]int{}, x.Shape()[:x.Rank()-1]...), len(index))
	if x.Rank() == 1 {
		shape = []int{1, len(index)}
	}
	z, err := newTensor(opt, op, x.DataType(), shape)
	if err != nil {
		return nil, err
	}
	forEachIndex(z.Shape(), func(flat int, idx []int) {
		row := flat / len(index) // the flat index of X's row
		copyElement(z, flat, x, row*c+int(index[idx[len(idx)-1]]))
	})
	return values(z), nil
}
