// Abs, versions 1, 6, 13. ONNX Operators.md:
//
// "Absolute takes one input data (Tensor<T>) and produces one output data
// (Tensor<T>) where absolute value, y = abs(x), is applied to the tensor
// elementwise."
//
// SONNX's Abs (int) (based on Abs 13): "X != minint"
// (E_ABS_INT_CONSTR_X_020): refuseAbsLeast.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Abs", []int{1, 6, 13}, elementwiseOp{prepare: refuseAbsLeast}.unary(func(_ call, x scalar) scalar {
		switch x.kind {
		case signedKind:
			if x.i < 0 {
				return signedOf(-x.i) // the least value wraps to itself when stored
			}
			return x
		case unsignedKind:
			return x
		}
		return floatOf(math.Abs(x.f))
	}))
}

// refuseAbsLeast refuses, under the SONNX profile, a signed X holding its
// type's least value, whose absolute value the type cannot hold.
func refuseAbsLeast(c call, in []*tensor.Tensor) error {
	x := in[0]
	if !sonnx(c.opt) || !x.DataType().IsSigned() || !x.DataType().IsInteger() {
		return nil
	}
	least := int64(-1) << (8*x.DataType().Size() - 1)
	for k := range x.Len() {
		if v := elementAt(x, k); v.kind == signedKind && v.i == least {
			return c.op.errorf(sonnxrule.AbsLeast, "X holds %d, the least value of %v, whose absolute value %v cannot hold", v.i, x.DataType(), x.DataType())
		}
	}
	return nil
}
