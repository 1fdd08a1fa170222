// Adagrad (ai.onnx.preview.training, version 1), after the ONNX
// specification: "Compute a new learning-rate:
// r = R / (1 + T * decay_factor); Add gradient of 0.5 * norm_coefficient *
// ||X||_2^2: G_regularized = norm_coefficient * X + G; Compute new
// accumulated squared gradient: H_new = H + G_regularized * G_regularized;
// Compute the adaptive part of per-coordinate learning rate:
// H_adaptive = Sqrt(H_new) + epsilon; Compute the new value of X:
// X_new = X - r * G_regularized / H_adaptive." Defaults: decay_factor 0,
// epsilon 1e-6, norm_coefficient 0.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.preview.training", "Adagrad", []int{1}, adagrad) }

func adagrad(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	decay, err := n.Float("decay_factor", 0)
	if err != nil {
		return nil, err
	}
	epsilon, err := n.Float("epsilon", 1e-6)
	if err != nil {
		return nil, err
	}
	norm, err := n.Float("norm_coefficient", 0)
	if err != nil {
		return nil, err
	}
	return optimizer(opt, n, in, []string{"X", "G", "H"}, func(R float64, T int64, X, G float64, s []float64) []float64 {
		r := R / (1 + float64(T)*float64(decay))
		g := float64(norm)*X + G
		h := s[0] + g*g
		return []float64{X - r*g/(math.Sqrt(h)+float64(epsilon)), h}
	})
}
