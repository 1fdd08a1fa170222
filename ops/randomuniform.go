// RandomUniform (versions 1 and 22) fills a tensor of the shape attribute
// and dtype (float by default; float16, float, double, and bfloat16 from
// 22) with values drawn uniformly from [low, high) (0 and 1 by default).
// The generator is random.go's: deterministic given seed; refused under
// SONNX. Rules: [profile], [dtype], [attribute] shape is given, [shape]
// non-negative dimensions, [size].

package ops

import (
	"math/rand/v2"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("RandomUniform", []int{1, 22}, [2]int{0, 0}, [2]int{1, 1}, randomUniformNode)
	randomAttrs("RandomUniform", AttrSpec{Name: "high", Type: AttrFloat}, AttrSpec{Name: "low", Type: AttrFloat}, AttrSpec{Name: "shape", Type: AttrInts})
}

func randomUniformNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	low, high, err := uniformBounds(n)
	if err != nil {
		return nil, err
	}
	return randomShapeOp(opt, n, func(r *rand.Rand) float64 { return low + (high-low)*r.Float64() })
}

// uniformBounds reads low (default 0) and high (default 1).
func uniformBounds(n *Node) (low, high float64, err error) {
	l, err := n.Float("low", 0)
	if err != nil {
		return 0, 0, err
	}
	h, err := n.Float("high", 1)
	return float64(l), float64(h), err
}
