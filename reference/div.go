// Div, versions 1, 6, 7, 13, 14. ONNX Operators.md:
//
// "Performs element-wise binary division (with Numpy-style broadcasting
// support)."
//
// Integer division truncates toward zero (the reference evaluator's
// "C++-style" division). A zero integer divisor is undefined: the result
// is 0 (numpy's), and SONNX refuses it: div.md's "B[i] != 0"
// (E_DIV_INT_CONSTR_B_0030, refuseZeroDivisor). Under SONNX A and B have
// one shape (E_DIV_FLOAT_CONSTR_A_0010, E_DIV_INT_CONSTR_A_0010:
// elementwiseOp.binary, sameShapesSONNX).

package reference

import (
	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Div", []int{1, 6, 7, 13, 14}, elementwiseOp{legacyBefore: 7, prepare: refuseZeroDivisor}.binary(
		func(_ call, a, b scalar) scalar {
			if a.kind != floatKind && realOf(b) == 0 {
				return signedOf(0)
			}
			return arith(a, b,
				func(x, y float64) float64 { return x / y },
				func(x, y int64) int64 { return x / y },
				func(x, y uint64) uint64 { return x / y })
		}))
}

// refuseZeroDivisor is E_DIV_INT_CONSTR_B_0030 of SONNX's Div (int)
// (sonnxrule.DivZero): an integer divisor holding a zero leaves the result
// undefined.
func refuseZeroDivisor(c call, in []*tensor.Tensor) error {
	b := in[1]
	if !sonnx(c.opt) || !b.DataType().IsInteger() {
		return nil
	}
	for k := range b.Len() {
		if realOf(elementAt(b, k)) == 0 {
			if c.op.name != "Div" { // Mod, which SONNX does not specify
				return c.op.errorf("zero-divisor", "integer divisor B holds a zero; the result is undefined")
			}
			return c.op.errorf(sonnxrule.DivZero, "integer divisor B holds a zero; the result is undefined")
		}
	}
	return nil
}
