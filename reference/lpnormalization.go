// LpNormalization, versions 1 and 22. ONNX Operators.md: "Given a matrix,
// apply Lp-normalization along the provided axis." axis defaults to -1, p
// ("The order of the normalization, only 1 or 2 are supported") to 2: each
// slice along axis is divided by the sum of |x| (p 1) or the square root
// of the sum of x*x (p 2). A slice whose norm is 0 gives 0, as the node
// tests of version 22 expect. Computed in float64, rounded once; 22 adds
// bfloat16.
//
// Rules: [type] input float16, float, double (bfloat16 from 22); [axis] in
// [-r, r-1]; [p] 1 or 2.

package reference

import (
	"math"
	"slices"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("LpNormalization", []int{1, 22}, lpNormalization) }

func lpNormalization(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input")
	if err != nil {
		return nil, err
	}
	a64, _ := n.Int("axis", -1)
	p, _ := n.Int("p", 2)
	if !normFloatType(x.DataType(), n.Version >= 22) {
		return nil, op.errorf("type", "input is %v", x.DataType())
	}
	axis, err := checkAxis(n, a64, x.Rank())
	if err != nil {
		return nil, err
	}
	if p != 1 && p != 2 {
		return nil, op.errorf("p", "p is %d", p)
	}
	if err := checkSize(opt, op, x.DataType(), x.Shape()); err != nil {
		return nil, err
	}
	if err := cancelled(opt, op); err != nil {
		return nil, err
	}
	if err := chargeScratch(opt, op, "float64 copies of the inputs, the results and the output", inputElements(in)+2*x.Len(), 8); err != nil {
		return nil, err
	}
	xv := computeElements[float64](x)
	y := make([]float64, len(xv))
	stop := newPoll(opt, opOf(n))
	for _, slice := range axisSlices(x.Shape(), axis) {
		v := normGather(xv, slice)
		if stop.stop(len(v)) {
			return nil, stop.err
		}
		var norm float64
		if p == 1 {
			norm = sumLanesOf(slices.Values(v), math.Abs)
		} else {
			norm = math.Sqrt(sumLanesOf(slices.Values(v), func(x float64) float64 { return float64(x * x) }))
		}
		for j, i := range slice {
			if norm != 0 {
				y[i] = v[j] / norm
			}
		}
	}
	return []tensor.Value{computeTensor(x.DataType(), x.Shape(), y)}, nil
}
