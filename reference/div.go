// Div, versions 1, 6, 7, 13, 14. ONNX Operators.md:
//
// "Performs element-wise binary division (with Numpy-style broadcasting
// support)."
//
// Integer division truncates toward zero (the reference evaluator's
// "C++-style" division). A zero integer divisor is undefined: the result
// is 0 (numpy's), and SONNX refuses it.

package reference

import (
	"errors"

	"github.com/onnxshape/onnxshape/ops"
)

func init() {
	register("Div", []int{1, 6, 7, 13, 14}, binary(7, false, func(c call, a, b scalar) (scalar, error) {
		if a.kind != floatKind && realOf(b) == 0 {
			return signedOf(0), zeroDivisor(c.opt)
		}
		return arith(a, b,
			func(x, y float64) float64 { return x / y },
			func(x, y int64) int64 { return x / y },
			func(x, y uint64) uint64 { return x / y }), nil
	}))
}

// zeroDivisor is nil under ONNX (the result is 0) and an error under SONNX.
func zeroDivisor(opt *ops.Options) error {
	if opt != nil && opt.Profile == ops.ProfileSONNX {
		return errors.New("integer divisor is zero: undefined")
	}
	return nil
}
