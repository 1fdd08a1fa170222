// Neg, versions 1, 6, 13. ONNX Operators.md:
//
// "Neg takes one input data (Tensor<T>) and produces one output data
// (Tensor<T>) where each element flipped sign, y = -x, is applied to the
// tensor elementwise."

package reference

func init() {
	register("Neg", []int{1, 6, 13}, unaryKernel(func(_ call, x scalar) scalar {
		if x.kind == signedKind {
			return signedOf(-x.i) // the least value wraps to itself when stored
		}
		return floatOf(-x.f)
	}))
}
