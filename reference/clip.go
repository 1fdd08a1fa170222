// Clip, versions 1, 6, 11, 12, 13. ONNX Operators.md:
//
// "Clip operator limits the given input within an interval. The interval
// is specified by the inputs 'min' and 'max'. They default to
// numeric_limits::lowest() and numeric_limits::max(), respectively. When
// 'min' is greater than 'max', the clip operator sets all the 'input'
// values to the value of 'max'. Thus, this is equivalent to 'Min(max,
// Max(input, min))'."
//
// Versions 1 and 6 take min and max as float attributes, absent meaning
// the float type's lowest and greatest values; their value is first
// rounded to the input's type.
//
// Under the SONNX profile (clip.md, "Clip version 13"): "The shape of
// tensor L must be empty" (L [C1], sonnxrule.ClipMinScalar) and so of M
// (M [C1], sonnxrule.ClipMaxScalar); and for floats, with L' = -inf when L
// is NaN and M' = +inf when M is NaN, "If L' > M': Y[i] = M'", NaN
// elements of X included.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Clip", []int{1, 6, 11, 12, 13}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "input")
		if err != nil {
			return nil, err
		}
		var bounds [2]*tensor.Tensor
		if n.Version >= 11 {
			for i := range bounds {
				if bounds[i], err = optionalInput(op, in, i+1); err != nil {
					return nil, err
				}
			}
		}
		if err := checkType(op, "input", x.DataType(), elementwiseTypes["Clip"]); err != nil {
			return nil, err
		}
		for _, b := range bounds {
			if b != nil && (b.DataType() != x.DataType() || b.Len() != 1) {
				return nil, op.errorf("bounds", "min and max are scalars of the input's type %v, got %v of shape %v", x.DataType(), b.DataType(), b.Shape())
			}
		}
		if err := clipBoundsSONNX(opt, n, bounds); err != nil {
			return nil, err
		}
		var lo, hi *scalar
		if n.Version < 11 {
			a, err := n.Float("min", -math.MaxFloat32)
			if err != nil {
				return nil, err
			}
			b, err := n.Float("max", math.MaxFloat32)
			if err != nil {
				return nil, err
			}
			l, h := roundTo(x.DataType(), floatOf(float64(a))), roundTo(x.DataType(), floatOf(float64(b)))
			lo, hi = &l, &h
		}
		for i, bound := range []**scalar{&lo, &hi} {
			if bounds[i] != nil {
				v := elementAt(bounds[i], 0)
				*bound = &v
			}
		}
		out, err := elementwiseN(opt, op, x.DataType(), func(v []scalar) scalar {
			y := v[0]
			if sonnx(opt) && n.Version >= 11 && y.kind == floatKind && lo != nil && hi != nil && less(*hi, *lo) {
				return *hi // L' > M' (a NaN bound compares false)
			}
			if lo != nil && less(y, *lo) {
				y = *lo
			}
			if hi != nil && less(*hi, y) {
				y = *hi
			}
			return y
		}, x)
		if err != nil {
			return nil, err
		}
		return values(out), nil
	})
}

// clipBoundsSONNX is, under the SONNX profile, L [C1] and M [C1]: a bound
// given has the empty shape of a scalar.
func clipBoundsSONNX(opt *ops.Options, n *ops.Node, bounds [2]*tensor.Tensor) error {
	if !sonnx(opt) || n.Version < 11 {
		return nil
	}
	for i, id := range []string{sonnxrule.ClipMinScalar, sonnxrule.ClipMaxScalar} {
		if bounds[i] != nil && bounds[i].Rank() != 0 {
			return opOf(n).errorf(id, "bound %d has shape %v, not the empty shape of a scalar", i+1, bounds[i].Shape())
		}
	}
	return nil
}
