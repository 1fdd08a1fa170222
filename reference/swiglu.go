// SwiGLU, version 28. ONNX Operators.md:
//
// "SwiGLU is a gated activation that takes two inputs, a gate A and a
// linear (value) input B, and produces one output Y. It applies the Swish
// activation to the gate and multiplies the result elementwise by the
// linear input: Y = Swish_alpha(A) * B". "Inputs A and B must have
// identical shapes; broadcasting is not applied and the output Y has the
// same shape as the inputs." alpha defaults to 1.0. Types: bfloat16,
// float16, float, double; B has A's type.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("SwiGLU", []int{28}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		a, err := requiredInput(op, in, 0, "A")
		if err != nil {
			return nil, err
		}
		b, err := requiredInput(op, in, 1, "B")
		if err != nil {
			return nil, err
		}
		if err := checkType(op, "A", a.DataType(), elementwiseTypes["SwiGLU"]); err != nil {
			return nil, err
		}
		if !tensor.SameShape(a.Shape(), b.Shape()) {
			return nil, op.errorf("shape", "B of shape %v must have A's shape %v (no broadcasting)", b.Shape(), a.Shape())
		}
		if b.DataType() != a.DataType() {
			return nil, op.errorf("type", "B of type %v must have A's type %v", b.DataType(), a.DataType())
		}
		alpha := attrFloat(n, "alpha", 1)
		out, err := elementwiseN(opt, op, a.DataType(), func(v []scalar) scalar {
			return floatOf(swish(alpha, v[0].f) * v[1].f)
		}, a, b)
		if err != nil {
			return nil, err
		}
		return values(out), nil
	})
}
