// BitwiseNot, version 18. ONNX Operators.md:
//
// "Returns the bitwise not of the input tensor element-wise."

package reference

func init() {
	register("BitwiseNot", []int{18}, unaryKernel(func(_ call, x scalar) scalar {
		if x.kind == signedKind {
			return signedOf(^x.i)
		}
		return unsignedOf(^x.u)
	}))
}
