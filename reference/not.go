// Not, version 1. ONNX Operators.md:
//
// "Returns the negation of the input tensor element-wise."

package reference

func init() {
	register("Not", []int{1}, unaryKernel(func(_ call, x scalar) scalar {
		return boolOf(!x.b)
	}))
}
