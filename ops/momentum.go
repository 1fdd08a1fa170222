// Momentum (ai.onnx.preview.training, version 1) updates n tensors X_i with
// their gradients G_i and momenta V_i; the outputs are X_1_new..X_n_new,
// V_1_new..V_n_new. Per element, with b = beta when T > 0 and 1 at the
// first update (T = 0):
//
//	g = norm_coefficient*x + G
//	v_new = alpha*V + b*g
//	x_new = X - R*v_new                 (mode "standard")
//	x_new = X - R*(g + alpha*v_new)     (mode "nesterov")
//
// alpha, beta, mode and norm_coefficient are required. Computed in
// float64, rounded once to float or double. The rules are runOptimizer's
// (adam.go) and [attribute] the four attributes are given, [mode]
// standard or nesterov.

package ops

import "github.com/onnxshape/onnxshape/tensor"

func init() {
	registerIn(domainTraining, "Momentum", []int{1}, [2]int{5, -1}, [2]int{2, -1}, momentumNode)
	declareAttrsIn(domainTraining, "Momentum", AttrSpec{Name: "alpha", Type: AttrFloat},
		AttrSpec{Name: "beta", Type: AttrFloat}, AttrSpec{Name: "mode", Type: AttrString},
		AttrSpec{Name: "norm_coefficient", Type: AttrFloat})
}

func momentumNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
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
		return nil, op.errorf("mode", "mode must be standard or nesterov, got %q", mode)
	}
	a := float64(alpha)
	return runOptimizer(opt, n, in, []string{"X", "G", "V"}, func(r float64, t int64) optimizerStep {
		b := float64(beta)
		if t <= 0 {
			b = 1
		}
		return func(x, g float64, s, out []float64) {
			g = float64(norm)*x + g
			v := a*s[0] + b*g
			if mode == "nesterov" {
				out[0] = x - r*(g+a*v)
			} else {
				out[0] = x - r*v
			}
			out[1] = v
		}
	})
}
