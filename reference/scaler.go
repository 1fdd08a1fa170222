// Scaler (ai.onnx.ml, version 1), after the ONNX-ML specification:
// "Rescale input data, for example to standardize features by removing
// the mean and scaling to unit variance": Y = (X - offset) * scale, float,
// offset "Subtracted from each input element", scale "multiplied by each
// input element after subtracting the offset", each one value or one per
// feature (X's last axis). T: float, double, int64, int32. Computed as
// onnxruntime does (the specification leaves it open): in float32 (an
// integer converted first) unless X is double; offset and scale both of
// one value or both of one per feature.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "Scaler", []int{1}, scaler) }

func scaler(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
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
	offset, hasOffset, err := n.Floats("offset")
	if err != nil {
		return nil, err
	}
	scale, hasScale, err := n.Floats("scale")
	if err != nil {
		return nil, err
	}
	if !hasOffset || !hasScale {
		return nil, op.errorf("attribute", "offset and scale are required")
	}
	c := x.Shape()[x.Rank()-1]
	if (len(offset) != 1 || len(scale) != 1) && (len(offset) != c || len(scale) != c) {
		return nil, op.errorf("length", "offset and scale: 1 value each or one per feature each")
	}
	y, err := newTensor(opt, op, tensor.Float, x.Shape())
	if err != nil {
		return nil, err
	}
	for k := range x.Len() {
		j := 0
		if len(offset) > 1 {
			j = k % c
		}
		if x.DataType() == tensor.Double {
			data[float32](y)[k] = float32((data[float64](x)[k] - float64(offset[j])) * float64(scale[j]))
			continue
		}
		d := float32Of(x, k) - offset[j]
		data[float32](y)[k] = d * scale[j]
	}
	return values(y), nil
}

// float32Of is element k of a float, double, int64 or int32 tensor
// converted to float32 (rounded once).
func float32Of(t *tensor.Tensor, k int) float32 {
	switch t.DataType() {
	case tensor.Double:
		return float32(data[float64](t)[k])
	case tensor.Int64:
		return float32(data[int64](t)[k])
	case tensor.Int32:
		return float32(data[int32](t)[k])
	}
	return data[float32](t)[k]
}
