// Sign, versions 9, 13. ONNX Operators.md:
//
// "Calculate the sign of the given input tensor element-wise. If input > 0,
// output 1. if input < 0, output -1. if input == 0, output 0."
//
// NaN stays NaN and a zero keeps its sign, as numpy's sign.

package reference

func init() {
	register("Sign", []int{9, 13}, unaryKernel(func(_ call, x scalar) scalar {
		switch v := realOf(x); {
		case v > 0:
			return signedOf(1)
		case v < 0:
			return signedOf(-1)
		}
		return x
	}))
}
