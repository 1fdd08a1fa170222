// RNN, versions 1, 7, 14, 22. ONNX Operators.md (f defaults to Tanh):
//
//	Ht = f(Xt*(Wi^T) + Ht-1*(Ri^T) + Wbi + Rbi)
//
// The rules and the choices where ONNX is silent are those of ops/rnn.go.
// Computed in float64, rounded once to T.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("RNN", []int{1, 7, 14, 22}, rnnKernel) }

func rnnKernel(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	c, err := readRecurrent(opt, n, in, 1, 1, 6, []string{"Tanh"})
	if err != nil {
		return nil, err
	}
	return c.run(opt, n, 2, func(d, t, b int, h, _ []float64) []float64 {
		next := make([]float64, c.hidden)
		for j := range next {
			next[j] = c.act(d, 0, c.xw(d, 0, j, t, b)+c.hr(d, 0, j, h)+c.wb(d, 0, j)+c.rb(d, 0, j))
		}
		return next
	})
}
