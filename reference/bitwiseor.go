// BitwiseOr, versions 18. ONNX Operators.md:
//
// "Returns the tensor resulting from performing the bitwise `or` operation
// elementwise on the input tensors `A` and `B` (with Numpy-style
// broadcasting support)."

package reference

func init() {
	register("BitwiseOr", []int{18}, binaryKernel(0, false, func(_ call, a, b scalar) scalar {
		return arith(a, b, nil,
			func(x, y int64) int64 { return x | y },
			func(x, y uint64) uint64 { return x | y })
	}))
}
