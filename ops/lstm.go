// LSTM computes one layer of a long short-term memory network over a batch
// of sequences (ONNX Operators.md, "LSTM"), gates in the order i, o, f, c:
//
//	it = f(Xt*Wi^T + Ht-1*Ri^T + Pi⊙Ct-1 + Wbi + Rbi)
//	ft = f(Xt*Wf^T + Ht-1*Rf^T + Pf⊙Ct-1 + Wbf + Rbf)
//	ct = g(Xt*Wc^T + Ht-1*Rc^T + Wbc + Rbc)
//	Ct = ft⊙Ct-1 + it⊙ct
//	ot = f(Xt*Wo^T + Ht-1*Ro^T + Po⊙Ct + Wbo + Rbo)
//	Ht = ot⊙h(Ct)
//
// f, g, h default to Sigmoid, Tanh, Tanh. Inputs X, W, R, B, sequence_lens,
// initial_h, initial_c, P; outputs Y (every step's H), Y_h and Y_c (the
// last valid step's H and C), each optional.
//
// Versions: 1 (output_sequence, which changes nothing: Y is produced when
// the node asks for it), 7, 14 (layout: 1 puts the batch axis first in X,
// Y, initial_h, initial_c, Y_h, Y_c), 22 (bfloat16). Types: float16,
// float, double (bfloat16 from 22); float16 and bfloat16 are computed in
// float32. The rules, in the order they are checked (recurrent.go):
//
//	[input]     X, W and R are given; inputs are tensors
//	[type]      X's type is allowed; W, R, B, initial_h, initial_c, P have
//	            it; sequence_lens is int32
//	[direction] forward, reverse or bidirectional
//	[layout]    0 or 1
//	[clip]      a positive threshold when given
//	[input_forget] 0 or 1: with 1, ft = 1 - it
//	[activations] 3 per direction (or 3 for both), each one of Relu,
//	            Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu,
//	            ScaledTanh, HardSigmoid, Elu, Softsign, Softplus (without
//	            regard to case, as onnxruntime reads them)
//	[shape]     X is 3-D; R is [dirs, 4*hidden, hidden]; W [dirs,
//	            4*hidden, input]; B [dirs, 8*hidden]; sequence_lens [batch];
//	            initial_h, initial_c [dirs, batch, hidden] (layout 1:
//	            [batch, dirs, hidden]); P [dirs, 3*hidden]
//	[hidden_size] equal to R's last axis when given
//	[sequence_lens] every length in [0, seq]
//
// What this implementation decides where ONNX is silent, as onnxruntime
// does: the reverse direction runs each sequence from its own last valid
// step back to step 0; Y is 0 past a sequence's length; clip applies to
// the gates' inputs, not to Ct; activation_alpha and activation_beta are
// consumed in the order of the activations, each function taking as many
// as it has parameters, its ONNX defaults when the lists run out. A length
// of 0 leaves Y_h and Y_c at initial_h and initial_c (onnxruntime refuses
// it).
//
// The engine is ops/internal/rnn: float32 gates differ from the reference
// engine's float64 arithmetic by at most the bound reference.Agree states.

package ops

import "github.com/onnxshape/onnxshape/ops/internal/rnn"

var lstmOp = recurrentOp{name: "LSTM", cell: rnn.LSTM}

func init() {
	register("LSTM", []int{1, 7, 14, 22}, [2]int{3, 8}, [2]int{0, 3}, lstmOp.node)
	declareAttrs("LSTM", append(recurrentAttrs, AttrSpec{Name: "input_forget", Type: AttrInt})...)
}
