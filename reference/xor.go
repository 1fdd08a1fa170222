// Xor, versions 1, 7. ONNX Operators.md:
//
// "Returns the tensor resulted from performing the `xor` logical operation
// elementwise on the input tensors `A` and `B` (with Numpy-style
// broadcasting support)."

package reference

func init() {
	register("Xor", []int{1, 7}, binaryKernel(7, true, func(_ call, a, b scalar) scalar {
		return boolOf(a.b != b.b)
	}))
}
