// Shrink, version 9. ONNX Operators.md:
//
// "Shrink takes one input data (Tensor<numeric>) and produces one Tensor
// output, having same datatype and shape with input. It has two attributes,
// lambd and bias. The formula of this operator is: If x < -lambd, y = x +
// bias; If x > lambd, y = x - bias; Otherwise, y = 0." bias defaults to 0,
// lambd to 0.5. An integer result is truncated toward zero when stored.

package reference

import "github.com/onnxshape/onnxshape/ops"

func init() {
	register("Shrink", []int{9}, unary(nil, func(n *ops.Node, x scalar) (scalar, error) {
		bias, lambd := attrFloat(n, "bias", 0), attrFloat(n, "lambd", 0.5)
		switch v := realOf(x); {
		case v < -lambd:
			return floatOf(v + bias), nil
		case v > lambd:
			return floatOf(v - bias), nil
		}
		return floatOf(0), nil
	}))
}
