// Mod, versions 10, 13. ONNX Operators.md:
//
// "If the fmod attribute is set to 0, T is constrained to integer data
// types and the semantics follow that of the Python %-operator. The sign of
// the result is that of the divisor. If fmod is set to 1, the behavior of
// this operator follows that of the fmod function in C and T is
// constrained to floating point data types. The result of this operator
// will have the same sign as the dividend."
//
// (fmod=1 also takes integers: C's %, the sign of the dividend.) A zero
// integer divisor gives 0, as Div.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Mod", []int{10, 13}, elementwiseOp{prepare: modRules}.binary(func(c call, a, b scalar) scalar {
		fmod, _ := c.n.Int("fmod", 0)
		if a.kind != floatKind && realOf(b) == 0 {
			return signedOf(0)
		}
		return arith(a, b, math.Mod,
			func(x, y int64) int64 {
				r := x % y
				if fmod == 0 && r != 0 && (r < 0) != (y < 0) {
					r += y // Python's %: the divisor's sign
				}
				return r
			},
			func(x, y uint64) uint64 { return x % y })
	}))
}

// modRules: [fmod] fmod is 0 or 1, and 1 for floats; [zero-divisor] under
// SONNX.
func modRules(c call, in []*tensor.Tensor) error {
	fmod, err := c.n.Int("fmod", 0)
	switch {
	case err != nil:
		return err
	case fmod != 0 && fmod != 1:
		return c.op.errorf("fmod", "fmod is %d; it is 0 or 1", fmod)
	case fmod == 0 && !in[0].DataType().IsInteger():
		return c.op.errorf("fmod", "fmod must be 1 for %v input", in[0].DataType())
	}
	return refuseZeroDivisor(c, in)
}
