// Momentum (ai.onnx.preview.training, version 1), after the ONNX
// specification: "Add gradient of 0.5 * norm_coefficient * ||X||^2:
// G_regularized = norm_coefficient * X + G; compute the current momentum
// based on the previous momentum: V_new = alpha * V + beta_adjusted *
// G_regularized" with beta_adjusted = beta, or 1 when T = 0 (the first
// update); "standard: X_new = X - R * V_new; nesterov: X_new = X - R *
// (G_regularized + alpha * V_new)". alpha, beta, mode and norm_coefficient
// are required.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.preview.training", "Momentum", []int{1}, momentum) }

func momentum(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	for _, name := range []string{"alpha", "beta", "mode", "norm_coefficient"} {
		if !n.Has(name) {
			return nil, op.errorf("attribute", "attribute %s is required", name)
		}
	}
	alpha, err := n.Float("alpha", 0)
	if err != nil {
		return nil, err
	}
	beta, err := n.Float("beta", 0)
	if err != nil {
		return nil, err
	}
	norm, err := n.Float("norm_coefficient", 0)
	if err != nil {
		return nil, err
	}
	mode, err := n.Str("mode", "")
	if err != nil {
		return nil, err
	}
	if mode != "standard" && mode != "nesterov" {
		return nil, op.errorf("mode", "mode %q", mode)
	}
	return optimizer(opt, n, in, []string{"X", "G", "V"}, func(R float64, T int64, X, G float64, s []float64) []float64 {
		b := float64(beta)
		if T <= 0 {
			b = 1
		}
		g := float64(norm)*X + G
		v := float64(alpha)*s[0] + b*g
		if mode == "nesterov" {
			return []float64{X - R*(g+float64(alpha)*v), v}
		}
		return []float64{X - R*v, v}
	})
}
