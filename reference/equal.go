// Equal, versions 1, 7, 11, 13, 19. ONNX Operators.md:
//
// "Returns the tensor resulted from performing the `equal` logical
// operation elementwise on the input tensors `A` and `B` (with Numpy-style
// broadcasting support)."

package reference

func init() {
	register("Equal", []int{1, 7, 11, 13, 19}, binaryKernel(7, true, func(_ call, a, b scalar) scalar {
		return boolOf(equal(a, b))
	}))
}
