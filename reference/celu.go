// Celu, versions 12, 28. ONNX Operators.md:
//
// "Continuously Differentiable Exponential Linear Units: Perform the linear
// unit element-wise on the input tensor X using formula:
// max(0,x) + min(0,alpha*(exp(x/alpha)-1))". alpha defaults to 1.0;
// exp(x/alpha)-1 is computed as expm1(x/alpha).

package reference

import (
	"errors"
	"math"

	"github.com/onnxshape/onnxshape/ops"
)

func init() {
	register("Celu", []int{12, 28}, unary(nil, func(n *ops.Node, x scalar) (scalar, error) {
		alpha := attrFloat(n, "alpha", 1)
		if alpha == 0 {
			return x, errors.New("alpha is 0")
		}
		return floatOf(math.Max(0, x.f) + math.Min(0, alpha*math.Expm1(x.f/alpha))), nil
	}))
}
