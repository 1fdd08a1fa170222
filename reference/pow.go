// Pow, versions 1, 7, 12, 13, 15. ONNX Operators.md:
//
// "Pow takes input data (Tensor<T>) and exponent Tensor, and produces one
// output data (Tensor<T>) where the function f(x) = x^exponent, is applied
// to the data tensor elementwise."
//
// An integer base to an integral exponent is the exact power, wrapping
// (numpy's integer power); to a negative one, 1/x^n truncated; to a
// fractional one, the real power truncated and saturated.

package reference

import (
	"math"
)

func init() {
	register("Pow", []int{1, 7, 12, 13, 15}, binary(7, false, func(_ call, a, b scalar) (scalar, error) {
		e := realOf(b)
		if a.kind == floatKind {
			return floatOf(math.Pow(a.f, e)), nil
		}
		x := a.i
		switch {
		case e != math.Trunc(e) || math.IsInf(e, 0):
			return floatOf(math.Pow(float64(x), e)), nil // stored truncated
		case e < 0 && x == 1:
			return signedOf(1), nil
		case e < 0 && x == -1:
			return signedOf(1 - 2*int64(math.Abs(math.Mod(e, 2)))), nil
		case e < 0:
			return signedOf(0), nil
		}
		// x^k by the binary digits of k.
		power := int64(1)
		for k := uint64(min(e, 0x1p63)); k > 0; k >>= 1 {
			if k&1 == 1 {
				power *= x
			}
			x *= x
		}
		return signedOf(power), nil
	}))
}
