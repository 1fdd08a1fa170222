// Pow, versions 1, 7, 12, 13, 15. ONNX Operators.md:
//
// "Pow takes input data (Tensor<T>) and exponent Tensor, and produces one
// output data (Tensor<T>) where the function f(x) = x^exponent, is applied
// to the data tensor elementwise."
//
// A double base is raised by math.Pow; a float, float16 or bfloat16 base
// by pow32 (pow32.go), a float32 algorithm within 0.51 ulp of the
// correctly rounded power, with C99's special values.
//
// An integer base to an integral exponent is the exact power, wrapping
// (numpy's integer power); to a negative one, 1/x^n truncated; to a
// fractional one, the real power truncated and saturated.
//
// SONNX's Pow (based on Pow 15; its informal specification names the
// inputs A and B): "Tensors A, B, and C must have the same type" (B [C2]),
// "for all index i, B[i] >= 0" for integers (B [C3]), and one shape for A,
// B and C (A [C1]).

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Pow", []int{1, 7, 12, 13, 15}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "X")
		if err != nil {
			return nil, err
		}
		y, err := requiredInput(op, in, 1, "Y")
		if err != nil {
			return nil, err
		}
		if err := checkType(op, "X", x.DataType(), elementwiseTypes["Pow"]); err != nil {
			return nil, err
		}
		if err := checkType(op, "Y", y.DataType(), powExponentTypes); err != nil {
			return nil, err
		}
		if n.Version < 12 && y.DataType() != x.DataType() {
			return nil, op.errorf("type", "Y of type %v must have X's type %v", y.DataType(), x.DataType())
		}
		if err := powSONNX(opt, op, x, y); err != nil {
			return nil, err
		}
		if n.Version < 7 {
			if y, err = legacyBroadcast(op, n, x, y); err != nil {
				return nil, err
			}
		}
		out, err := elementwiseN(opt, op, x.DataType(), func(v []scalar) scalar { return power(x.DataType(), v[0], realOf(v[1])) }, x, y)
		if err != nil {
			return nil, err
		}
		return values(out), nil
	})
}

// power is base^e: a double base by math.Pow, a float, float16 or
// bfloat16 one by pow32 (pow32.go) on its float32 value.
func power(dt tensor.DataType, base scalar, e float64) scalar {
	if base.kind == floatKind && dt != tensor.Double {
		return floatOf(float64(pow32(float32(base.f), e)))
	}
	if base.kind == floatKind {
		return floatOf(math.Pow(base.f, e))
	}
	x := base.i
	switch {
	case e != math.Trunc(e) || math.IsInf(e, 0):
		return floatOf(math.Pow(float64(x), e)) // stored truncated
	case e < 0 && x == 1:
		return signedOf(1)
	case e < 0 && x == -1:
		return signedOf(1 - 2*int64(math.Abs(math.Mod(e, 2))))
	case e < 0:
		return signedOf(0)
	}
	// x^k by the binary digits of k.
	p := int64(1)
	for k := uint64(min(e, 0x1p63)); k > 0; k >>= 1 {
		if k&1 == 1 {
			p *= x
		}
		x *= x
	}
	return signedOf(p)
}

// powSONNX checks, under the SONNX profile, B [C2], B [C3] and A [C1].
func powSONNX(opt *ops.Options, op opRef, x, y *tensor.Tensor) error {
	if !sonnx(opt) {
		return nil
	}
	if y.DataType() != x.DataType() {
		return op.errorf(sonnxrule.PowType, "B (Y) of type %v must have A's (X's) type %v", y.DataType(), x.DataType())
	}
	if y.DataType().IsInteger() {
		for k := range y.Len() {
			if v := elementAt(y, k); v.kind == signedKind && v.i < 0 {
				return op.errorf(sonnxrule.PowNegative, "the integer exponent B (Y) holds %d at %d", v.i, k)
			}
		}
	}
	return sameShapesSONNX(opt, op, x.DataType(), []string{"A (X)", "B (Y)"}, x, y)
}
