// Binarizer (ai.onnx.ml, version 1), after the ONNX-ML specification:
// "Maps the values of the input tensor to either 0 or 1, element-wise,
// based on the outcome of a comparison against a threshold value": 1 where
// X > threshold (default 0.0), else 0 (NaN too), in X's type. T: float,
// double, int64, int32.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "Binarizer", []int{1}, binarizer) }

func binarizer(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	threshold, err := n.Float("threshold", 0)
	if err != nil {
		return nil, err
	}
	switch x.DataType() {
	case tensor.Float, tensor.Double, tensor.Int64, tensor.Int32:
	default:
		return nil, op.errorf("type", "X must be float, double, int64 or int32")
	}
	y, err := newTensor(opt, op, x.DataType(), x.Shape())
	if err != nil {
		return nil, err
	}
	for k := range x.Len() {
		if realOf(elementAt(x, k)) > float64(threshold) {
			setScalar(y, k, floatOf(1))
		} else {
			setScalar(y, k, floatOf(0))
		}
	}
	return values(y), nil
}
