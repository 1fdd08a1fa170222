// RandomUniformLike (versions 1 and 22) is RandomUniform with the shape of
// its input and, unless dtype says otherwise, its type (float16, float,
// double, and bfloat16 from 22). Rules: [profile], [dtype], [size].

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("RandomUniformLike", []int{1, 22}, [2]int{1, 1}, [2]int{1, 1}, randomUniformLikeNode)
	randomAttrs("RandomUniformLike", AttrSpec{Name: "high", Type: AttrFloat}, AttrSpec{Name: "low", Type: AttrFloat})
}

func randomUniformLikeNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	low, high, err := uniformBounds(n)
	if err != nil {
		return nil, err
	}
	return randomLikeOp(opt, n, in, uniformDraw(low, high))
}
