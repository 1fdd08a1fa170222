// GroupNormalization divides the C channels of X (N x C x D1 ... Dn) into
// num_groups groups of C/num_groups channels and normalizes each group of
// each sample over its channels and spatial axes: y = (x - mean) /
// sqrt(var + epsilon) * scale + bias.
//
// Versions: 18 (scale and bias of shape [num_groups], one value per group)
// and 21 (scale and bias of shape [C], one value per channel, as every
// framework has it; adds stash_type, the precision of the statistics).
// Types: float16, float, double, bfloat16, one type for X, scale and bias.
// Attributes: epsilon (1e-5), num_groups (required), stash_type (21, 1).
// The rules, in order: [type] the inputs' type; [rank] X of rank 2 or more;
// [num_groups] present, positive and dividing C; [stash_type] a float type;
// [scale] scale and bias of the version's shape. Every element is computed
// in float64 (ops/internal/norm) and rounded once to the type.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/norm"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("GroupNormalization", []int{18, 21}, [2]int{3, 3}, [2]int{1, 1}, groupNormalizationNode)
	declareAttrs("GroupNormalization", AttrSpec{Name: "epsilon", Type: AttrFloat}, AttrSpec{Name: "num_groups", Type: AttrInt},
		AttrSpec{Name: "stash_type", Type: AttrInt, From: 21})
}

func groupNormalizationNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	var t [3]*tensor.Tensor
	for i, name := range []string{"X", "scale", "bias"} {
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
	if err := normCheckType(op, "X", x.DataType(), floatBFTypes); err != nil {
		return nil, err
	}
	if err := normSameType(op, "scale", scale, x.DataType()); err != nil {
		return nil, err
	}
	if err := normSameType(op, "bias", b, x.DataType()); err != nil {
		return nil, err
	}
	if x.Rank() < 2 {
		return nil, op.errorf("rank", "X has shape %v: N x C x D1 ... Dn, rank 2 or more", x.Shape())
	}
	c := x.Shape()[1]
	if !n.Has("num_groups") {
		return nil, op.errorf("num_groups", "attribute num_groups is required")
	}
	gi, err := n.intAttr("num_groups", 0, "num_groups")
	if err != nil {
		return nil, err
	}
	g64 := int64(gi)
	if g64 <= 0 || g64 > int64(max(c, 1)) || int64(c)%g64 != 0 {
		return nil, op.errorf("num_groups", "num_groups %d does not divide the %d channels into groups", g64, c)
	}
	g := int(g64)
	stash, err := n.Int("stash_type", int64(tensor.Float))
	if err != nil {
		return nil, err
	}
	switch tensor.DataType(stash) {
	case tensor.Float, tensor.Float16, tensor.Double, tensor.BFloat16:
	default:
		return nil, op.errorf("stash_type", "stash_type is %d, not a float type (1, 10, 11 or 16)", stash)
	}
	want := g
	if op.version >= 21 {
		want = c
	}
	for _, p := range []struct {
		name string
		t    *tensor.Tensor
	}{{"scale", scale}, {"bias", b}} {
		if p.t.Rank() != 1 || p.t.Shape()[0] != want {
			return nil, op.errorf("scale", "%s has shape %v, expected [%d] (%s)", p.name, p.t.Shape(), want, map[bool]string{true: "C", false: "num_groups"}[op.version >= 21])
		}
	}
	sv, err := normParam64s(opt, op, n, 1, "scale", scale)
	if err != nil {
		return nil, err
	}
	bv, err := normParam64s(opt, op, n, 2, "bias", b)
	if err != nil {
		return nil, err
	}
	spatial := 1
	for _, d := range x.Shape()[2:] {
		spatial *= d
	}
	// Slices: the groups of every sample, each C/g channels of spatial
	// elements, contiguous.
	l := norm.Layout{Slices: x.Shape()[0] * g, N: c / g * spatial}
	sp := norm.Param{V: sv, Mod: g, Div: max(l.N, 1)}
	bp := norm.Param{V: bv, Mod: g, Div: max(l.N, 1)}
	if op.version >= 21 {
		sp = norm.Param{V: sv, Mod: g, Stride: c / g, Div: max(spatial, 1)}
		bp = norm.Param{V: bv, Mod: g, Stride: c / g, Div: max(spatial, 1)}
	}
	y, err := normalizeInto(opt, op, norm.StdDev, float64(eps), l, x, x.DataType(), sp, bp, norm.Stats{})
	if err != nil {
		return nil, err
	}
	return values(y), nil
}
