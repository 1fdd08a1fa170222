// Greater, versions 1, 7, 9, 13. ONNX Operators.md:
//
// "Returns the tensor resulted from performing the `greater` logical
// operation elementwise on the input tensors `A` and `B` (with Numpy-style
// broadcasting support)."

package reference

func init() {
	register("Greater", []int{1, 7, 9, 13}, binaryKernel(7, true, func(_ call, a, b scalar) scalar {
		return boolOf(less(b, a))
	}))
}
