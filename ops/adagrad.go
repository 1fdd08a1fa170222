// Adagrad (ai.onnx.preview.training, version 1) updates n tensors X_i with
// their gradients G_i and accumulated squared gradients H_i; the outputs
// are X_1_new..X_n_new, H_1_new..H_n_new. Per element:
//
//	r = R / (1 + T*decay_factor)
//	g = norm_coefficient*x + G
//	h_new = H + g*g
//	x_new = X - r*g / (sqrt(h_new) + epsilon)
//
// decay_factor defaults to 0, epsilon to 1e-6, norm_coefficient to 0.
// Computed in float64, rounded once to float or double. The rules are
// runOptimizer's (adam.go).

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainTraining, "Adagrad", []int{1}, [2]int{5, -1}, [2]int{2, -1}, adagradNode)
	declareAttrsIn(domainTraining, "Adagrad", AttrSpec{Name: "decay_factor", Type: AttrFloat},
		AttrSpec{Name: "epsilon", Type: AttrFloat}, AttrSpec{Name: "norm_coefficient", Type: AttrFloat})
}

func adagradNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	decay, err := n.Float("decay_factor", 0)
	if err != nil {
		return nil, err
	}
	eps, err := n.Float("epsilon", 1e-6)
	if err != nil {
		return nil, err
	}
	norm, err := n.Float("norm_coefficient", 0)
	if err != nil {
		return nil, err
	}
	return runOptimizer(opt, n, in, []string{"X", "G", "H"}, func(r float64, t int64) optimizerStep {
		r = r / (1 + float64(t)*float64(decay))
		return func(x, g float64, s, out []float64) {
			g = float64(norm)*x + g
			h := s[0] + g*g
			out[0] = x - r*g/(math.Sqrt(h)+float64(eps))
			out[1] = h
		}
	})
}
