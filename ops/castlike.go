// CastLike converts its input to the element type of its second input,
// target_type, whose values are not read: Cast with to taken from a tensor.
//
// Versions: 15, 19 (float 8 types, saturate), 21 (int4, uint4), 23
// (float4e2m1), 24 (float8e8m0, round_mode), 25 (int2, uint2), with the
// types of Cast at the same version.
//
// Rules: those of Cast ([to] for target_type's type).

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("CastLike", []int{15, 19, 21, 23, 24, 25}, [2]int{2, 2}, [2]int{1, 1}, castLikeNode)
	declareAttrs("CastLike",
		AttrSpec{Name: "saturate", Type: AttrInt, From: 19},
		AttrSpec{Name: "round_mode", Type: AttrString, From: 24})
}

func castLikeNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	like, err := n.requiredInput(in, 1, "target_type")
	if err != nil {
		return nil, err
	}
	co, err := castAttrs(n)
	if err != nil {
		return nil, err
	}
	y, err := cast(opt, n.op(), x, like.DataType(), co)
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
}
