// InstanceNormalization normalizes each channel of each sample of X over
// its spatial axes: y = scale[c] * (x - mean) / sqrt(var + epsilon) + B[c],
// mean and var those of the sample's channel c, X being N x C x D1 ... Dn.
//
// Versions: 1 (consumed_inputs, which changes nothing), 6 and 22 (adds
// bfloat16). Types: float16, float, double (and bfloat16 from 22), one
// type for input, scale and B. Attribute: epsilon (1e-5). The rules, in
// order: [type] the inputs' type; [rank] X of rank 2 or more; [scale]
// scale and B of shape [C]. Every element is computed in float64
// (ops/internal/norm) as (x - mean) * (1/sqrt(var + epsilon)) * scale + B
// and rounded once to the type.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/norm"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("InstanceNormalization", []int{1, 6, 22}, [2]int{3, 3}, [2]int{1, 1}, instanceNormalizationNode)
	declareAttrs("InstanceNormalization", AttrSpec{Name: "epsilon", Type: AttrFloat}, consumedInputs)
}

func instanceNormalizationNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	var t [3]*tensor.Tensor
	for i, name := range []string{"input", "scale", "B"} {
		var err error
		if t[i], err = n.requiredInput(in, i, name); err != nil {
			return nil, err
		}
	}
	eps, err := n.Float("epsilon", 1e-5)
	if err != nil {
		return nil, err
	}
	x, scale, b := t[0], t[1], t[2]
	types := floatTypes
	if op.version >= 22 {
		types = floatBFTypes
	}
	if err := normCheckType(op, "input", x.DataType(), types); err != nil {
		return nil, err
	}
	if err := normSameType(op, "scale", scale, x.DataType()); err != nil {
		return nil, err
	}
	if err := normSameType(op, "B", b, x.DataType()); err != nil {
		return nil, err
	}
	if x.Rank() < 2 {
		return nil, op.errorf("rank", "input has shape %v: N x C x D1 ... Dn, rank 2 or more", x.Shape())
	}
	c := x.Shape()[1]
	for _, p := range []struct {
		name string
		t    *tensor.Tensor
	}{{"scale", scale}, {"B", b}} {
		if p.t.Rank() != 1 || p.t.Shape()[0] != c {
			return nil, op.errorf("scale", "%s has shape %v, expected [%d] (C)", p.name, p.t.Shape(), c)
		}
	}
	sv, err := normParam64s(opt, op, n, 1, "scale", scale)
	if err != nil {
		return nil, err
	}
	bv, err := normParam64s(opt, op, n, 2, "B", b)
	if err != nil {
		return nil, err
	}
	l := normLastAxes(x.Shape(), 2)
	y, err := normalizeInto(opt, op, norm.StdDev, float64(eps), l, x, x.DataType(),
		norm.Param{V: sv, Mod: c, Div: max(l.N, 1)}, norm.Param{V: bv, Mod: c, Div: max(l.N, 1)}, norm.Stats{})
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
}
