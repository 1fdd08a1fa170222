// LSTM, versions 1, 7, 14, 22. ONNX Operators.md (gates i, o, f, c; f, g,
// h default to Sigmoid, Tanh, Tanh):
//
//	it = f(Xt*(Wi^T) + Ht-1*(Ri^T) + Pi (.) Ct-1 + Wbi + Rbi)
//	ft = f(Xt*(Wf^T) + Ht-1*(Rf^T) + Pf (.) Ct-1 + Wbf + Rbf)
//	ct = g(Xt*(Wc^T) + Ht-1*(Rc^T) + Wbc + Rbc)
//	Ct = ft (.) Ct-1 + it (.) ct
//	ot = f(Xt*(Wo^T) + Ht-1*(Ro^T) + Po (.) Ct + Wbo + Rbo)
//	Ht = ot (.) h(Ct)
//
// "input_forget: Couple the input and forget gates if 1": ft = 1 - it.
// "clip ... is applied to the input of activations" (of the gates). The
// rules and the choices where ONNX is silent are those of ops/lstm.go.
// Computed in float64, rounded once to T.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("LSTM", []int{1, 7, 14, 22}, lstmKernel) }

func lstmKernel(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	c, err := readRecurrent(opt, n, in, 4, 3, 8, []string{"Sigmoid", "Tanh", "Tanh"})
	if err != nil {
		return nil, err
	}
	const gi, gO, gf, gc = 0, 1, 2, 3
	H := c.hidden
	peep := func(d, g, j int) float64 { // P is [dirs, 3*hidden] in the order i, o, f
		if c.p == nil {
			return 0
		}
		return c.p[(d*3+g)*H+j]
	}
	gate := func(d, g, j, t, b int, h []float64) float64 {
		return c.xw(d, g, j, t, b) + c.hr(d, g, j, h) + c.wb(d, g, j) + c.rb(d, g, j)
	}
	return c.run(opt, n, 3, func(d, t, b int, h, cs []float64) []float64 {
		next := make([]float64, H)
		for j := 0; j < H; j++ {
			i := c.act(d, 0, gate(d, gi, j, t, b, h)+peep(d, 0, j)*cs[j])
			f := 1 - i
			if !c.inputForget {
				f = c.act(d, 0, gate(d, gf, j, t, b, h)+peep(d, 2, j)*cs[j])
			}
			cell := c.act(d, 1, gate(d, gc, j, t, b, h))
			C := f*cs[j] + i*cell
			o := c.act(d, 0, gate(d, gO, j, t, b, h)+peep(d, 1, j)*C)
			next[j] = o * c.acts[d*3+2].apply(C)
			cs[j] = C // Ct-1 of element j is read above only
		}
		return next
	})
}
