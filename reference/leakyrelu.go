// LeakyRelu, versions 1, 6, 16. ONNX Operators.md:
//
// "LeakyRelu takes input data (Tensor<T>) and an argument alpha, and
// produces one output data (Tensor<T>) where the function f(x) = alpha * x
// for x < 0, f(x) = x for x >= 0, is applied to the data tensor
// elementwise." alpha: "Coefficient of leakage." (default 0.01)

package reference

func init() {
	register("LeakyRelu", []int{1, 6, 16}, unaryKernel(func(c call, x scalar) scalar {
		if x.f < 0 {
			return floatOf(attrFloat(c.n, "alpha", 0.01) * x.f)
		}
		return x
	}))
}
