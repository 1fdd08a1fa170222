// Pow raises X to the power Y elementwise, with broadcasting.
//
// Versions: 1 broadcasts Y to X by the legacy rule (attributes broadcast
// and axis); from 7 both broadcast to each other. Up to 7 X and Y have one
// float type; from 12 the exponent's type T1 is any number type, separate
// from the base's T (int32, int64 and the floats); 13 adds bfloat16 to T
// and 15 to T1. The output has X's type. The rules: [type] X's and Y's
// types are ones the version allows; [broadcast] the shapes broadcast.
// Under SONNX (based on Pow 15) also the specification's B [C2], B [C3]
// and A [C1] (powSONNX).
//
// A double base is raised by math.Pow; a float32 base (float16 and
// bfloat16 through float32) by mathf.Pow (ops/internal/mathf/pow.go), a
// float32 algorithm in float64 steps within 0.51 ulp of the correctly
// rounded power, C99's special values, the reference's pow32 bit for bit;
// a float32 base by float32 exponents runs its slice forms (mathf.Pows,
// PowsLeft, PowsRight: 8 elements at a time on amd64, the same bits). An
// integer base raised to an integral
// exponent is exact and wraps on overflow, as numpy's integer power; a
// negative exponent gives 1/x^n truncated (1 for x = 1, ±1 for x = -1,
// else 0, and 0 for x = 0, where numpy refuses). A fractional exponent of
// an integer base goes through float64, converted as C converts
// (docs/divergences.md). A float32, float16 or bfloat16 base by a single
// exponent that is an integer of magnitude at most 16 or ±0.5 (the tanh
// GELU's x^3, a decomposed LayerNormalization's x^2) runs the loops of
// elementwise.PowConst32 (ops/internal/elementwise/powconst.go), which
// give the general loop's (mathf.Pow's) bits without a call per element.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"github.com/onnxshape/onnxshape/tensor"
)

var (
	powBaseTypes     = versionTypes{1: floatTypes, 7: floatTypes, 12: floatTypes | typesOf(tensor.Int32, tensor.Int64), 13: floatBFTypes | typesOf(tensor.Int32, tensor.Int64), 15: floatBFTypes | typesOf(tensor.Int32, tensor.Int64)}
	powExponentTypes = versionTypes{1: floatTypes, 7: floatTypes, 12: numberTypes, 13: numberTypes, 15: numberBFTypes}
)

func init() {
	register("Pow", []int{1, 7, 12, 13, 15}, [2]int{2, 2}, [2]int{1, 1}, powNode)
	declareAttrs("Pow", legacyBroadcastAttrs(7)...)
}

// Pow returns x to the power y, broadcast (ONNX Pow, version 15).
func Pow(x, y *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Pow", 15}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return pow(opt, &Node{OpType: "Pow", Version: 15}, x, y)
}

func powNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	y, err := n.requiredInput(in, 1, "Y")
	if err != nil {
		return nil, err
	}
	z, err := pow(opt, n, x, y)
	if err != nil {
		return nil, err
	}
	return opt.result(z), nil
}

func pow(opt *Options, n *Node, x, y *tensor.Tensor) (*tensor.Tensor, error) {
	op := n.op()
	opt = opt.orDefault()
	if err := checkInput(op, "X", x); err != nil {
		return nil, err
	}
	if err := checkInput(op, "Y", y); err != nil {
		return nil, err
	}
	if err := powBaseTypes.check(op, "X", x.DataType()); err != nil {
		return nil, err
	}
	if err := powExponentTypes.check(op, "Y", y.DataType()); err != nil {
		return nil, err
	}
	if op.version < 12 && y.DataType() != x.DataType() {
		return nil, op.errorf("type", "Y of type %v must have X's type %v", y.DataType(), x.DataType())
	}
	if err := powSONNX(opt, op, x, y); err != nil {
		return nil, err
	}
	out, yAt, err := broadcastOutput(op, n, op.version < 7, x.Shape(), y.Shape())
	if err != nil {
		return nil, err
	}
	z, err := opt.newOverwritten(op, x.DataType(), out)
	if err != nil {
		return nil, err
	}
	if k := powConstKernel(x, y); k != nil {
		if err := k.Run(opt.elementwise(), z, x); err != nil {
			return nil, op.wrap("cancelled", err, "run stopped")
		}
		return z, nil
	}
	w := newBroadcastWalk(out, x.Shape(), yAt)
	if x.DataType() == tensor.Float && y.DataType() == tensor.Float {
		// float32 by float32: no float64 copy of the exponents.
		k := binarySpans[float32, float32, float32]{Both: mathf.Pows, Left: mathf.PowsLeft, Right: mathf.PowsRight}
		if err := k.Run(opt.elementwise(), w, z, x, y); err != nil {
			return nil, op.wrap("cancelled", err, "run stopped")
		}
		return z, nil
	}
	// The exponents as float64 (exact for every integer up to 2^53).
	if err := opt.scratch(op, "exponents as float64", y.Len(), 8); err != nil {
		return nil, err
	}
	e, err := y.Float64s()
	if err != nil {
		return nil, op.wrap("type", err, "Y")
	}
	exps, _ := tensor.FromSlice(e, y.Shape()...)
	var k binaryKernel
	switch x.DataType() {
	case tensor.Float:
		k = binaryFunc(mathf.Pow)
	case tensor.Double:
		k = binaryFunc(math.Pow)
	case tensor.Int32:
		k = binaryFunc(powInteger[int32])
	case tensor.Int64:
		k = binaryFunc(powInteger[int64])
	case tensor.Float16, tensor.BFloat16:
		bf16 := x.DataType() == tensor.BFloat16
		k = binaryFunc(func(a uint16, b float64) uint16 {
			return halfFromFloat32(bf16, mathf.Pow(halfToFloat32(bf16, a), b))
		})
	default:
		return nil, op.errorf("type", "no kernel for type %v", x.DataType())
	}
	if err := k.Run(opt.elementwise(), w, z, x, exps); err != nil {
		return nil, op.wrap("cancelled", err, "run stopped")
	}
	return z, nil
}

// powInteger raises an integer to an exponent: exactly, wrapping, when the
// exponent is integral, through float64 when it is not.
func powInteger[T signedInteger](a T, e float64) T {
	switch {
	case e != math.Trunc(e) || math.IsInf(e, 0):
		return convertFloat[T](math.Pow(float64(a), e))
	case e < 0:
		switch {
		case a == 1:
			return 1
		case a == -1 && math.Mod(e, 2) == 0:
			return 1
		case a == -1:
			return -1
		}
		return 0
	}
	r, base := T(1), a
	for k := uint64(min(e, 0x1p63)); k > 0; k >>= 1 {
		if k&1 == 1 {
			r *= base
		}
		base *= base
	}
	return r
}

// powSONNX is what the SONNX specification of Pow (based on Pow 15, whose
// inputs it names A and B) adds: B has A's type (B [C2], sonnxrule.PowType),
// an integer B holds no negative exponent (B [C3], sonnxrule.PowNegative),
// and A and B have one shape (A [C1], sonnxrule.SameShape).
func powSONNX(opt *Options, op opRef, x, y *tensor.Tensor) error {
	if opt.Profile != ProfileSONNX {
		return nil
	}
	if y.DataType() != x.DataType() {
		return op.errorf(sonnxrule.PowType, "B (Y) of type %v must have A's (X's) type %v", y.DataType(), x.DataType())
	}
	if hasNegative(y) {
		return op.errorf(sonnxrule.PowNegative, "the integer exponent B (Y) holds a negative value")
	}
	return opt.sameShapes(op, x.DataType(), []string{"A (X)", "B (Y)"}, x.Shape(), y.Shape())
}

// powConstKernel is the loop of a float32, float16 or bfloat16 base by a
// single exponent that elementwise.PowConst32 has one for (an integer of
// magnitude at most 16, or ±0.5: the same bits as the general loop below,
// without math.Pow per element), nil otherwise.
func powConstKernel(x, y *tensor.Tensor) unaryKernel {
	if y.Len() != 1 || !(x.DataType() == tensor.Float || x.DataType() == tensor.Float16 || x.DataType() == tensor.BFloat16) {
		return nil
	}
	e, err := y.Float64s()
	if err != nil {
		return nil
	}
	f := elementwise.PowConst32(e[0])
	switch {
	case f == nil:
		return nil
	case x.DataType() == tensor.Float:
		return f
	}
	return elementwise.HalfUnary[float32]{BF16: x.DataType() == tensor.BFloat16, F32: f}
}
