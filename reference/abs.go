// Abs, versions 1, 6, 13. ONNX Operators.md:
//
// "Absolute takes one input data (Tensor<T>) and produces one output data
// (Tensor<T>) where absolute value, y = abs(x), is applied to the tensor
// elementwise."

package reference

import "math"

func init() {
	register("Abs", []int{1, 6, 13}, unaryKernel(func(_ call, x scalar) scalar {
		switch x.kind {
		case signedKind:
			if x.i < 0 {
				return signedOf(-x.i) // the least value wraps to itself when stored
			}
			return x
		case unsignedKind:
			return x
		}
		return floatOf(math.Abs(x.f))
	}))
}
