// Relu, versions 1, 6, 13, 14. ONNX Operators.md:
//
// "Relu takes one input data (Tensor<T>) and produces one output data
// (Tensor<T>) where the rectified linear function, y = max(0, x), is
// applied to the tensor elementwise."
//
// NaN stays NaN (numpy's maximum) and -0 stays -0.

package reference

func init() {
	register("Relu", []int{1, 6, 13, 14}, unaryKernel(func(_ call, x scalar) scalar {
		if realOf(x) < 0 {
			return signedOf(0)
		}
		return x
	}))
}
