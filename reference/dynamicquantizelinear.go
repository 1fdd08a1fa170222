package reference

// DynamicQuantizeLinear (version 11), after the ONNX specification:
//
//	"y_scale = (maximum(0, max(x)) - minimum(0, min(x))) / (qmax - qmin)"
//	"intermediate_zero_point = qmin - min(x)/y_scale"
//	"y_zero_point = cast(round(saturate(intermediate_zero_point)))"
//	"y = saturate (round (x / y_scale) + y_zero_point)"
//	"* where qmax and qmin are max and min values for quantization range
//	i.e. [0, 255] in case of uint8" ... "Rounding to nearest ties to even."
//
// In float32, as the reference evaluator; an all-zero (or empty) x has
// scale 1; NaN and infinities are refused (they leave the range undefined).

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("DynamicQuantizeLinear", []int{11}, dynamicQuantizeLinear) }

func dynamicQuantizeLinear(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "x")
	if err != nil {
		return nil, err
	}
	if x.DataType() != tensor.Float {
		return nil, op.errorf("type", "x must be float")
	}
	minX, maxX := float32(0), float32(0)
	for i := range x.Len() {
		f := float32(exactValue(x, i).f)
		if f != f || math.IsInf(float64(f), 0) {
			return nil, op.errorf("input", "x[%d] is %v", i, f)
		}
		if f < minX {
			minX = f
		}
		if f > maxX {
			maxX = f
		}
	}
	yScale := float32(1)
	if maxX != minX {
		yScale = (maxX - minX) / float32(255-0)
	}
	saturate := func(v float32) float32 { return float32(math.Min(255, math.Max(0, float64(v)))) }
	zeroPoint := float32(math.RoundToEven(float64(saturate(0 - minX/yScale))))
	y, err := newTensor(opt, op, tensor.Uint8, x.Shape())
	if err != nil {
		return nil, err
	}
	for i := range x.Len() {
		q := float32(math.RoundToEven(float64(float32(exactValue(x, i).f)/yScale))) + zeroPoint
		putInt(y, i, uint64(saturate(q)))
	}
	return values(y, tensor.Scalar(yScale), tensor.Scalar(uint8(zeroPoint))), nil
}
