// Shrink, version 9. ONNX Operators.md:
//
// "Shrink takes one input data (Tensor<numeric>) and produces one Tensor
// output, having same datatype and shape with input. It has two attributes,
// lambd and bias. The formula of this operator is: If x < -lambd, y = x +
// bias; If x > lambd, y = x - bias; Otherwise, y = 0." bias defaults to 0,
// lambd to 0.5. An integer result is truncated toward zero when stored.

package reference

func init() {
	register("Shrink", []int{9}, unaryKernel(func(c call, x scalar) scalar {
		bias, lambd := attrFloat(c.n, "bias", 0), attrFloat(c.n, "lambd", 0.5)
		switch v := realOf(x); {
		case v < -lambd:
			return floatOf(v + bias)
		case v > lambd:
			return floatOf(v - bias)
		}
		return floatOf(0)
	}))
}
