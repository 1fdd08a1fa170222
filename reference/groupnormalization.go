// GroupNormalization, versions 18 and 21. ONNX Operators.md: "A
// GroupNormalization function. Carries out group normalization as
// described in the paper https://arxiv.org/abs/1803.08494 This operator
// transforms input according to y = scale * (x - mean) / sqrt(variance +
// epsilon) + bias, where the mean and variance are computed per instance
// per group of channels, and scale and bias should be specified for each
// channel [21; for each group in 18]. The number of groups num_groups
// should be divisible by the number of channels so that there are an equal
// number of channels per group." X is N x C x D1 ... Dn; group g of a
// sample holds channels g*C/G to (g+1)*C/G - 1. Version 18 takes scale and
// bias of shape [num_groups], 21 of shape [C] and adds stash_type.
// Computed in float64 in LayerNormalization's order, rounded once.
//
// Rules: [type] X float16, float, double or bfloat16, scale and bias of
// its type; [rank] rank 2 or more; [num_groups] present, positive,
// dividing C; [stash_type] a float type; [scale] scale and bias of the
// version's shape.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("GroupNormalization", []int{18, 21}, groupNormalization) }

func groupNormalization(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	var t [3]*tensor.Tensor
	for i, name := range []string{"X", "scale", "bias"} {
		var err error
		if t[i], err = requiredInput(op, in, i, name); err != nil {
			return nil, err
		}
	}
	x, scale, b := t[0], t[1], t[2]
	eps32, _ := n.Float("epsilon", 1e-5)
	if !normFloatType(x.DataType(), true) {
		return nil, op.errorf("type", "X is %v", x.DataType())
	}
	if scale.DataType() != x.DataType() || b.DataType() != x.DataType() {
		return nil, op.errorf("type", "scale and bias must be of X's type %v", x.DataType())
	}
	if x.Rank() < 2 {
		return nil, op.errorf("rank", "X has rank %d", x.Rank())
	}
	c := x.Shape()[1]
	g, err := n.Int("num_groups", 0)
	if err != nil || !n.Has("num_groups") || g <= 0 || g > int64(max(c, 1)) || int64(c)%g != 0 {
		return nil, op.errorf("num_groups", "num_groups %d does not divide C = %d", g, c)
	}
	stash, _ := n.Int("stash_type", 1)
	if !normFloatType(tensor.DataType(stash), true) {
		return nil, op.errorf("stash_type", "stash_type %d is not a float type", stash)
	}
	want := int(g)
	if n.Version >= 21 {
		want = c
	}
	for _, p := range []*tensor.Tensor{scale, b} {
		if !tensor.SameShape(p.Shape(), []int{want}) {
			return nil, op.errorf("scale", "shape %v, expected [%d]", p.Shape(), want)
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
	per := c / int(g) // channels of a group
	y := make([]float64, len(xv))
	stop := newPoll(opt, opOf(n))
	for nn := range x.Shape()[0] {
		for gr := range int(g) {
			start := (nn*c + gr*per) * spatial
			v := xv[start : start+per*spatial]
			if stop.stop(len(v)) {
				return nil, stop.err
			}
			mean, variance := normMoments(v)
			inv := 1 / math.Sqrt(variance+float64(eps32))
			for j, e := range v {
				k := gr // version 18: a value per group
				if n.Version >= 21 {
					k = gr*per + j/spatial // the element's channel
				}
				d := e - mean
				y[start+j] = float64(float64(d*inv)*sv[k]) + bv[k]
			}
		}
	}
	return []tensor.Value{computeTensor(x.DataType(), x.Shape(), y)}, nil
}
