// InstanceNormalization, versions 1, 6, 22. ONNX Operators.md: "Carries
// out instance normalization as described in the paper
// https://arxiv.org/abs/1607.08022. y = scale * (x - mean) / sqrt(variance
// + epsilon) + B, where mean and variance are computed per instance per
// channel." X is N x C x D1 ... Dn; scale and B have shape [C]; epsilon
// defaults to 1e-5. Computed in float64 in LayerNormalization's order,
// (x - mean) * (1/sqrt(variance + epsilon)) * scale + B, rounded once.
// Version 1's consumed_inputs changes nothing; 22 adds bfloat16.
//
// Rules: [type] input float16, float, double (bfloat16 from 22), scale and
// B of its type; [rank] rank 2 or more; [scale] scale and B of shape [C].

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("InstanceNormalization", []int{1, 6, 22}, instanceNormalization) }

func instanceNormalization(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	var t [3]*tensor.Tensor
	for i, name := range []string{"input", "scale", "B"} {
		var err error
		if t[i], err = requiredInput(op, in, i, name); err != nil {
			return nil, err
		}
	}
	x, scale, b := t[0], t[1], t[2]
	eps32, _ := n.Float("epsilon", 1e-5)
	if !normFloatType(x.DataType(), n.Version >= 22) {
		return nil, op.errorf("type", "input is %v", x.DataType())
	}
	if scale.DataType() != x.DataType() || b.DataType() != x.DataType() {
		return nil, op.errorf("type", "scale and B must be of the input's type %v", x.DataType())
	}
	if x.Rank() < 2 {
		return nil, op.errorf("rank", "input has rank %d", x.Rank())
	}
	c := x.Shape()[1]
	for _, p := range []*tensor.Tensor{scale, b} {
		if !tensor.SameShape(p.Shape(), []int{c}) {
			return nil, op.errorf("scale", "shape %v, expected [%d]", p.Shape(), c)
		}
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
	sv, bv := computeElements[float64](scale), computeElements[float64](b)
	spatial := numElements(x.Shape()[2:])
	y := make([]float64, len(xv))
	stop := newPoll(opt, opOf(n))
	for nn := range x.Shape()[0] {
		for ch := range c {
			start := (nn*c + ch) * spatial
			v := xv[start : start+spatial]
			if stop.stop(len(v)) {
				return nil, stop.err
			}
			mean, variance := normMoments(v)
			inv := 1 / math.Sqrt(variance+float64(eps32))
			for j, e := range v {
				d := e - mean
				y[start+j] = float64(float64(d*inv)*sv[ch]) + bv[ch]
			}
		}
	}
	return []tensor.Value{computeTensor(x.DataType(), x.Shape(), y)}, nil
}
