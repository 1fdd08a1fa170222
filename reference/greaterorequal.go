// GreaterOrEqual, versions 12, 16. ONNX Operators.md:
//
// "Returns the tensor resulted from performing the `greater_equal` logical
// operation elementwise on the input tensors `A` and `B` (with Numpy-style
// broadcasting support)."

package reference

func init() {
	register("GreaterOrEqual", []int{12, 16}, binaryKernel(0, true, func(_ call, a, b scalar) scalar {
		return boolOf(less(b, a) || equal(a, b))
	}))
}
