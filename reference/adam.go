// Adam (ai.onnx.preview.training, version 1), after the ONNX
// specification: "G_regularized = norm_coefficient * X + G;
// V_new = alpha * V + (1 - alpha) * G_regularized;
// H_new = beta * H + (1 - beta) * G_regularized * G_regularized;
// H_sqrt = Sqrt(H_new) + epsilon; R_adjusted = T > 0 ?
// R * Sqrt(1 - beta^T) / (1 - alpha^T) : R;
// X_new = X - R_adjusted * V_new / H_sqrt;
// X_final = (1 - norm_coefficient_post) * X_new". Defaults: alpha 0.9,
// beta 0.999, epsilon 1e-6, norm_coefficient and norm_coefficient_post 0.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.preview.training", "Adam", []int{1}, adam) }

func adam(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	alpha, err := n.Float("alpha", 0.9)
	if err != nil {
		return nil, err
	}
	beta, err := n.Float("beta", 0.999)
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
	post, err := n.Float("norm_coefficient_post", 0)
	if err != nil {
		return nil, err
	}
	a, b := float64(alpha), float64(beta)
	return optimizer(opt, n, in, []string{"X", "G", "V", "H"}, func(R float64, T int64, X, G float64, s []float64) []float64 {
		r := R
		if T > 0 {
			r = R * math.Sqrt(1-math.Pow(b, float64(T))) / (1 - math.Pow(a, float64(T)))
		}
		g := float64(norm)*X + G
		v := a*s[0] + (1-a)*g
		h := b*s[1] + (1-b)*(g*g)
		return []float64{(1 - float64(post)) * (X - r*(v/(math.Sqrt(h)+float64(epsilon)))), v, h}
	})
}
