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
//
// The range scan and the quantization are ops/internal/dynquant (AVX2 on
// amd64), bit for bit the float32 arithmetic above.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/dynquant"
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
	v := asElems[float32](x.Bytes())[:x.Len()]
	lo, hi, bad := dynquant.Range(v)
	if bad >= 0 {
		return nil, op.errorf("input", "x[%d] is %v: the range of x must be finite", bad, v[bad])
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
	// Blocks of 16K elements between looks at the run's context.
	const block = 1 << 14
	blocks := (len(v) + block - 1) / block
	err = parallelRange(opt, blocks, 4*len(v), func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			s, e := i*block, min((i+1)*block, len(v))
			dynquant.Quantize(b[s:e], v[s:e], scale, zero)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return values(y, tensor.Scalar(scale), tensor.Scalar(uint8(zero))), nil
}
