// RandomNormal (versions 1 and 22) fills a tensor of the shape attribute
// and dtype (float by default; float16, float, double, and bfloat16 from
// 22) with values drawn from a normal distribution of mean (default 0)
// and scale (standard deviation, default 1). The generator is randomuniform.go's:
// deterministic given seed; refused under SONNX. Rules: [profile],
// [dtype], [attribute] shape is given, [shape], [size].

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("RandomNormal", []int{1, 22}, [2]int{0, 0}, [2]int{1, 1}, randomNormalNode)
	randomAttrs("RandomNormal", AttrSpec{Name: "mean", Type: AttrFloat}, AttrSpec{Name: "scale", Type: AttrFloat}, AttrSpec{Name: "shape", Type: AttrInts})
}

func randomNormalNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	mean, scale, err := normalParams(n)
	if err != nil {
		return nil, err
	}
	return randomShapeOp(opt, n, normalDraw(mean, scale))
}

// normalParams reads mean (default 0) and scale (default 1).
func normalParams(n *Node) (mean, scale float64, err error) {
	m, err := n.Float("mean", 0)
	if err != nil {
		return 0, 0, err
	}
	s, err := n.Float("scale", 1)
	return float64(m), float64(s), err
}
