// GRU, versions 1, 3, 7, 14, 22. ONNX Operators.md (gates z, r, h; f, g
// default to Sigmoid, Tanh):
//
//	zt = f(Xt*(Wz^T) + Ht-1*(Rz^T) + Wbz + Rbz)
//	rt = f(Xt*(Wr^T) + Ht-1*(Rr^T) + Wbr + Rbr)
//	ht = g(Xt*(Wh^T) + (rt (.) Ht-1)*(Rh^T) + Rbh + Wbh)  # linear_before_reset = 0
//	ht = g(Xt*(Wh^T) + (rt (.) (Ht-1*(Rh^T) + Rbh)) + Wbh) # linear_before_reset != 0
//	Ht = (1 - zt) (.) ht + zt (.) Ht-1
//
// The rules and the choices where ONNX is silent are those of ops/gru.go.
// Computed in float64, rounded once to T.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("GRU", []int{1, 3, 7, 14, 22}, gruKernel) }

func gruKernel(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	c, err := readRecurrent(opt, n, in, 3, 2, 6, []string{"Sigmoid", "Tanh"})
	if err != nil {
		return nil, err
	}
	const gz, gr, gh = 0, 1, 2
	H := c.hidden
	return c.run(opt, n, 2, func(d, t, b int, h, _ []float64) []float64 {
		z, r := make([]float64, H), make([]float64, H)
		for j := 0; j < H; j++ {
			z[j] = c.act(d, 0, c.xw(d, gz, j, t, b)+c.hr(d, gz, j, h)+c.wb(d, gz, j)+c.rb(d, gz, j))
			r[j] = c.act(d, 0, c.xw(d, gr, j, t, b)+c.hr(d, gr, j, h)+c.wb(d, gr, j)+c.rb(d, gr, j))
		}
		rh := make([]float64, H) // rt (.) Ht-1
		for j := range rh {
			rh[j] = r[j] * h[j]
		}
		next := make([]float64, H)
		for j := 0; j < H; j++ {
			var in float64
			if c.linearBeforeReset {
				in = c.xw(d, gh, j, t, b) + r[j]*(c.hr(d, gh, j, h)+c.rb(d, gh, j)) + c.wb(d, gh, j)
			} else {
				in = c.xw(d, gh, j, t, b) + c.hr(d, gh, j, rh) + c.rb(d, gh, j) + c.wb(d, gh, j)
			}
			next[j] = (1-z[j])*c.act(d, 1, in) + z[j]*h[j]
		}
		return next
	})
}
