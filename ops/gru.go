// GRU computes one layer of a gated recurrent unit over a batch of
// sequences (ONNX Operators.md, "GRU"), gates in the order z, r, h:
//
//	zt = f(Xt*Wz^T + Ht-1*Rz^T + Wbz + Rbz)
//	rt = f(Xt*Wr^T + Ht-1*Rr^T + Wbr + Rbr)
//	ht = g(Xt*Wh^T + (rt⊙Ht-1)*Rh^T + Rbh + Wbh)    linear_before_reset 0
//	ht = g(Xt*Wh^T + rt⊙(Ht-1*Rh^T + Rbh) + Wbh)    linear_before_reset 1
//	Ht = (1 - zt)⊙ht + zt⊙Ht-1
//
// f and g default to Sigmoid and Tanh. Inputs X, W, R, B, sequence_lens,
// initial_h; outputs Y (every step's H) and Y_h (the last valid step's),
// each optional.
//
// Versions: 1 (output_sequence, which changes nothing), 3
// (linear_before_reset), 7, 14 (layout: 1 puts the batch axis first in X,
// Y, initial_h, Y_h), 22 (bfloat16). Types: float16, float, double
// (bfloat16 from 22); float16 and bfloat16 are computed in float32. The
// rules are LSTM's (lstm.go), with 3 gates, 2 activations per direction,
// no initial_c or P, and [linear_before_reset] 0 or 1 in place of
// [input_forget]; so are the choices where ONNX is silent.

package ops

import "github.com/onnxshape/onnxshape/ops/internal/rnn"

var gruOp = recurrentOp{name: "GRU", cell: rnn.GRU}

func init() {
	register("GRU", []int{1, 3, 7, 14, 22}, [2]int{3, 6}, [2]int{0, 2}, gruOp.node)
	declareAttrs("GRU", append(recurrentAttrs, AttrSpec{Name: "linear_before_reset", Type: AttrInt, From: 3})...)
}
