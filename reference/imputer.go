// Imputer (ai.onnx.ml, version 1), after the ONNX-ML specification:
// "Replaces inputs that equal one value with another, leaving all other
// elements alone. This operator is typically used to replace missing
// values in situations where they have a canonical representation, such
// as -1, 0, NaN, or some extreme value. One and only one of
// imputed_value_floats or imputed_value_int64s should be defined -- floats
// if the input tensor holds floats, integers if the input tensor holds
// integers. The imputed values must all fit within the width of the tensor
// element type. One and only one of the replaced_value_float or
// replaced_value_int64 should be defined, which one depends on whether
// floats or integers are being processed. The imputed_value attribute
// length can be 1 element, or it can have one element per input feature.
// In other words, if the input tensor has the shape [*,F], then the length
// of the attribute array may be 1 or F. If it is 1, then it is broadcast
// along the last dimension and applied to each feature." T: float, double,
// int64, int32; a NaN replaced value replaces NaNs.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "Imputer", []int{1}, imputer) }

func imputer(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	switch x.DataType() {
	case tensor.Float, tensor.Double, tensor.Int64, tensor.Int32:
	default:
		return nil, op.errorf("type", "X must be float, double, int64 or int32")
	}
	if x.Rank() < 1 {
		return nil, op.errorf("rank", "X must have an axis")
	}
	fl, _, err := n.Floats("imputed_value_floats")
	if err != nil {
		return nil, err
	}
	it, _, err := n.Ints("imputed_value_int64s")
	if err != nil {
		return nil, err
	}
	if (len(fl) > 0) == (len(it) > 0) {
		return nil, op.errorf("imputed", "one and only one imputed list")
	}
	floats := x.DataType() == tensor.Float || x.DataType() == tensor.Double
	if floats != (len(fl) > 0) {
		return nil, op.errorf("imputed", "the imputed list of X's kind")
	}
	f := x.Shape()[x.Rank()-1]
	if len(fl)+len(it) != 1 && len(fl)+len(it) != f {
		return nil, op.errorf("length", "1 or F imputed values")
	}
	rf, err := n.Float("replaced_value_float", 0)
	if err != nil {
		return nil, err
	}
	ri, err := n.Int("replaced_value_int64", 0)
	if err != nil {
		return nil, err
	}
	y, err := newTensor(opt, op, x.DataType(), x.Shape())
	if err != nil {
		return nil, err
	}
	for k := range x.Len() {
		j := k % f
		if len(fl)+len(it) == 1 {
			j = 0
		}
		copyElement(y, k, x, k)
		if floats {
			v := realOf(elementAt(x, k))
			if v == float64(rf) || math.IsNaN(float64(rf)) && math.IsNaN(v) {
				setScalar(y, k, floatOf(float64(fl[j])))
			}
			continue
		}
		if v := elementAt(x, k); v.i == ri {
			if x.DataType() == tensor.Int32 {
				data[int32](y)[k] = int32(it[j])
			} else {
				data[int64](y)[k] = it[j]
			}
		}
	}
	return values(y), nil
}
