// Adam (ai.onnx.preview.training, version 1) updates n tensors X_i with
// their gradients G_i, first moments V_i and second moments H_i; the
// outputs are the new X_i, then the new V_i, then the new H_i. Per element:
//
//	g = norm_coefficient*x + G
//	v_new = alpha*V + (1-alpha)*g
//	h_new = beta*H + (1-beta)*g*g
//	r = R*sqrt(1 - beta^T)/(1 - alpha^T) when T > 0, else R
//	x_new = (1 - norm_coefficient_post) * (X - r*v_new/(sqrt(h_new) + epsilon))
//
// alpha defaults to 0.9, beta to 0.999, epsilon to 1e-6 and both norm
// coefficients to 0. Computed in float64, rounded once to float or
// double. The rules are runOptimizer's (optimizer.go).

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainTraining, "Adam", []int{1}, [2]int{6, -1}, [2]int{3, -1}, adamNode)
	declareAttrsIn(domainTraining, "Adam", AttrSpec{Name: "alpha", Type: AttrFloat},
		AttrSpec{Name: "beta", Type: AttrFloat}, AttrSpec{Name: "epsilon", Type: AttrFloat},
		AttrSpec{Name: "norm_coefficient", Type: AttrFloat}, AttrSpec{Name: "norm_coefficient_post", Type: AttrFloat})
}

func adamNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	var attrs [5]float32
	for i, a := range []struct {
		name string
		def  float32
	}{{"alpha", 0.9}, {"beta", 0.999}, {"epsilon", 1e-6}, {"norm_coefficient", 0}, {"norm_coefficient_post", 0}} {
		v, err := n.Float(a.name, a.def)
		if err != nil {
			return nil, err
		}
		attrs[i] = v
	}
	alpha, beta, eps, norm, post := float64(attrs[0]), float64(attrs[1]), float64(attrs[2]), float64(attrs[3]), float64(attrs[4])
	return runOptimizer(opt, n, in, []string{"X", "G", "V", "H"}, func(r float64, t int64) optimizerStep {
		if t > 0 {
			r = r * math.Sqrt(1-math.Pow(beta, float64(t))) / (1 - math.Pow(alpha, float64(t)))
		}
		return func(x, g float64, s, out []float64) {
			g = norm*x + g
			v := alpha*s[0] + (1-alpha)*g
			h := beta*s[1] + (1-beta)*(g*g)
			out[0] = (1 - post) * (x - r*(v/(math.Sqrt(h)+eps)))
			out[1] = v
			out[2] = h
		}
	})
}
