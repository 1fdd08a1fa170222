// DynamicQuantizeLinear quantizes a float tensor to uint8 with a scale and
// zero point computed from its own range: the range [min(0, min x), max(0,
// max x)] spread over [0, 255]; y = clamp(round(x / scale) + zero_point),
// rounding half to even. It returns y, the scale and the zero point.
//
// Versions: 11. Computed in float32 as the reference evaluator: scale =
// (max - min) / 255 (1 when the range is empty, all x zero), zero_point =
// round(clamp(-min / scale, 0, 255)).
//
// Rules: [type] x is float; [input] its elements are finite (NaN or an
// infinity leaves the range undefined; onnxshape refuses it); [size] the
// output fits the size limit. An empty x quantizes with scale 1 and zero
// point 0.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("DynamicQuantizeLinear", []int{11}, [2]int{1, 1}, [2]int{3, 3}, dynamicQuantizeLinearNode)
	declareAttrs("DynamicQuantizeLinear")
}

func dynamicQuantizeLinearNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "x")
	if err != nil {
		return nil, err
	}
	if x.DataType() != tensor.Float {
		return nil, op.errorf("type", "x must be float, got %v", x.DataType())
	}
	v := asElems[float32](x.Bytes())
	lo, hi := float32(0), float32(0)
	for i, f := range v {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return nil, op.errorf("input", "x[%d] is %v: the range of x must be finite", i, f)
		}
		lo, hi = min(lo, f), max(hi, f)
	}
	scale := float32(1)
	if hi != lo {
		scale = (hi - lo) / 255
	}
	zero := float32(math.RoundToEven(float64(min(max(0-lo/scale, 0), 255))))
	y, err := opt.newOverwritten(op, tensor.Uint8, x.Shape())
	if err != nil {
		return nil, err
	}
	b := y.Bytes()
	for i, f := range v {
		q := float32(math.RoundToEven(float64(f/scale))) + zero
		b[i] = byte(min(max(q, 0), 255))
	}
	return values(y, tensor.Scalar(scale), tensor.Scalar(uint8(zero))), nil
}
