// Celu, versions 12, 28. ONNX Operators.md:
//
// "Continuously Differentiable Exponential Linear Units: Perform the linear
// unit element-wise on the input tensor X using formula:
// max(0,x) + min(0,alpha*(exp(x/alpha)-1))". alpha defaults to 1.0;
// exp(x/alpha)-1 is computed as expm1(x/alpha).

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Celu", []int{12, 28}, float32Unary(elementwiseOp{prepare: celuAlpha}, func(c call, x float32) float32 {
		return celu32(x, float32(attrFloat(c.n, "alpha", 1)))
	}, func(c call, x scalar) scalar {
		alpha := attrFloat(c.n, "alpha", 1)
		return floatOf(math.Max(0, x.f) + math.Min(0, alpha*math.Expm1(x.f/alpha)))
	}))
}

// celuAlpha is the [alpha] rule: the spec divides by alpha.
func celuAlpha(c call, _ []*tensor.Tensor) error {
	alpha, err := c.n.Float("alpha", 1)
	if err != nil {
		return err
	}
	if alpha == 0 {
		return c.op.errorf("alpha", "alpha is 0; Celu divides by it")
	}
	return nil
}
