// RNN computes one layer of a simple recurrent network over a batch of
// sequences (ONNX Operators.md, "RNN"):
//
//	Ht = f(Xt*Wi^T + Ht-1*Ri^T + Wbi + Rbi)
//
// f defaults to Tanh. Inputs X, W, R, B, sequence_lens, initial_h;
// outputs Y (every step's H) and Y_h (the last valid step's), each
// optional.
//
// Versions: 1 (output_sequence, which changes nothing), 7, 14 (layout: 1
// puts the batch axis first in X, Y, initial_h, Y_h), 22 (bfloat16).
// Types: float16, float, double (bfloat16 from 22); float16 and bfloat16
// are computed in float32. The rules are LSTM's (lstm.go), with 1 gate,
// 1 activation per direction, and no initial_c, P or input_forget; so are
// the choices where ONNX is silent.

package ops

import "github.com/onnxshape/onnxshape/ops/internal/rnn"

var rnnOp = recurrentOp{name: "RNN", cell: rnn.RNN}

func init() {
	register("RNN", []int{1, 7, 14, 22}, [2]int{3, 6}, [2]int{0, 2}, rnnOp.node)
	declareAttrs("RNN", recurrentAttrs...)
}
