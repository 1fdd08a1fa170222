// RandomNormalLike (versions 1 and 22) is RandomNormal with the shape of
// its input and, unless dtype says otherwise, its type (float16, float,
// double, and bfloat16 from 22). Rules: [profile], [dtype], [size].

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("RandomNormalLike", []int{1, 22}, [2]int{1, 1}, [2]int{1, 1}, randomNormalLikeNode)
	randomAttrs("RandomNormalLike", AttrSpec{Name: "mean", Type: AttrFloat}, AttrSpec{Name: "scale", Type: AttrFloat})
}

func randomNormalLikeNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	mean, scale, err := normalParams(n)
	if err != nil {
		return nil, err
	}
	return randomLikeOp(opt, n, in, normalDraw(mean, scale))
}
