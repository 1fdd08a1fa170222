// Clip limits X elementwise to [min, max]: an element below min becomes
// min, then one above max becomes max, so min > max makes every element
// max (as the spec states from version 13).
//
// Versions: 1 and 6 take min and max as float attributes (1 also
// consumed_inputs, which changes nothing), absent meaning the float type's
// lowest and greatest values; from 11 they are optional inputs, scalars of
// X's type, absent meaning no bound; 12 widens the types to every number
// and 13 adds bfloat16. The rules: [type] X's type is one the version
// allows; [bounds] min and max hold one element of X's type. NaN stays NaN
// (onnxruntime's std::min/std::max order).

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/clamp"
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

var clipTypes = versionTypes{1: floatTypes, 6: floatTypes, 11: floatTypes, 12: numberTypes, 13: numberBFTypes}

func init() {
	register("Clip", []int{1, 6, 11, 12, 13}, [2]int{1, 3}, [2]int{1, 1}, clipNode)
	declareAttrs("Clip",
		AttrSpec{Name: "min", Type: AttrFloat, Before: 11},
		AttrSpec{Name: "max", Type: AttrFloat, Before: 11},
		consumedInputs)
}

// Clip returns x limited to [lo, hi] (ONNX Clip, version 13); lo and hi
// are scalars of x's type, nil for no bound.
func Clip(x, lo, hi *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Clip", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return clip(opt, &Node{OpType: "Clip", Version: 13}, x, lo, hi)
}

func clipNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	var lo, hi *tensor.Tensor
	if n.Version >= 11 {
		if lo, err = n.tensorInput(in, 1); err != nil {
			return nil, err
		}
		if hi, err = n.tensorInput(in, 2); err != nil {
			return nil, err
		}
	}
	y, err := clip(opt, n, x, lo, hi)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func clip(opt *Options, n *Node, x, lo, hi *tensor.Tensor) (*tensor.Tensor, error) {
	op := n.op()
	if err := checkInput(op, "input", x); err != nil {
		return nil, err
	}
	if err := clipTypes.check(op, "input", x.DataType()); err != nil {
		return nil, err
	}
	for _, b := range []*tensor.Tensor{lo, hi} {
		if b != nil && !b.DataType().Valid() {
			return nil, op.errorf("input", "a bound has no element type (a zero tensor.Tensor?)")
		}
		if b != nil && (b.DataType() != x.DataType() || b.Len() != 1) {
			return nil, op.errorf("bounds", "min and max are scalars of the input's type %v, got %v of shape %v", x.DataType(), b.DataType(), b.Shape())
		}
	}
	if err := clipSONNX(opt, op, lo, hi); err != nil {
		return nil, err
	}
	k, err := clipKernel(n, x.DataType(), lo, hi)
	if err != nil {
		return nil, err
	}
	u := &unaryOp{name: "Clip", types: clipTypes, kernel: func(*Node, tensor.DataType) (unaryKernel, error) { return k, nil }, fresh: true}
	y, err := u.apply(opt, n, x)
	if m, empty := clipSONNXEmpty(opt, x.DataType(), lo, hi); empty && err == nil {
		fillWith(opt, y, m) // SONNX: min > max gives max everywhere, NaN included
	}
	return y, err
}

// clipBounds returns Clip's bounds as scalars of X's type dt (nil where
// absent): from 11 its inputs lo and hi, before its attributes.
func clipBounds(n *Node, dt tensor.DataType, lo, hi *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor, error) {
	if n.Version >= 11 {
		return lo, hi, nil
	}
	a, err := n.Float("min", -math.MaxFloat32)
	if err != nil {
		return nil, nil, err
	}
	b, err := n.Float("max", math.MaxFloat32)
	if err != nil {
		return nil, nil, err
	}
	return clipBound(dt, float64(a)), clipBound(dt, float64(b)), nil
}

// clipKernel returns the kernel for X's type with its bounds.
func clipKernel(n *Node, dt tensor.DataType, lo, hi *tensor.Tensor) (unaryKernel, error) {
	lo, hi, err := clipBounds(n, dt, lo, hi)
	if err != nil {
		return nil, err
	}
	switch dt {
	case tensor.Float:
		l, h := clipBounds32(lo, hi)
		return unarySpan[float32, float32](func(o, a []float32) { clamp.Float32(o, a[:len(o)], l, h) }), nil
	case tensor.Double:
		l, h := boundOf(lo, math.Inf(-1)), boundOf(hi, math.Inf(1))
		return unarySpan[float64, float64](func(o, a []float64) { clamp.Float64(o, a[:len(o)], l, h) }), nil
	case tensor.Float16, tensor.BFloat16:
		bf16 := dt == tensor.BFloat16
		l, h := float32(math.Inf(-1)), float32(math.Inf(1))
		if lo != nil {
			l = halfToFloat32(bf16, elems[uint16](lo)[0])
		}
		if hi != nil {
			h = halfToFloat32(bf16, elems[uint16](hi)[0])
		}
		return halfUnary[float32]{bf16, clipSpan(l, h)}, nil
	case tensor.Uint8:
		return clipSpan(boundOf(lo, uint8(0)), boundOf(hi, maxOf[uint8]())), nil
	case tensor.Uint16:
		return clipSpan(boundOf(lo, uint16(0)), boundOf(hi, maxOf[uint16]())), nil
	case tensor.Uint32:
		return clipSpan(boundOf(lo, uint32(0)), boundOf(hi, maxOf[uint32]())), nil
	case tensor.Uint64:
		return clipSpan(boundOf(lo, uint64(0)), boundOf(hi, maxOf[uint64]())), nil
	case tensor.Int8:
		return clipSpan(boundOf(lo, int8(math.MinInt8)), boundOf(hi, maxOf[int8]())), nil
	case tensor.Int16:
		return clipSpan(boundOf(lo, int16(math.MinInt16)), boundOf(hi, maxOf[int16]())), nil
	case tensor.Int32:
		return clipSpan(boundOf(lo, int32(math.MinInt32)), boundOf(hi, maxOf[int32]())), nil
	case tensor.Int64:
		return clipSpan(boundOf(lo, int64(math.MinInt64)), boundOf(hi, maxOf[int64]())), nil
	}
	return nil, n.op().errorf("type", "no kernel for type %v", dt)
}

// clipBound makes a scalar of a float type from an attribute's value.
func clipBound(dt tensor.DataType, v float64) *tensor.Tensor {
	t, _ := convert.ScalarOf(dt, v) // dt is a float type: always representable
	return t
}

// clipBounds32 returns a float Clip's bounds (from 11, its inputs; before,
// clipKernel makes them from its attributes), absent ones infinite.
func clipBounds32(lo, hi *tensor.Tensor) (float32, float32) {
	return boundOf(lo, float32(math.Inf(-1))), boundOf(hi, float32(math.Inf(1)))
}

// boundOf returns the bound b holds, or def when it is absent.
func boundOf[T any](b *tensor.Tensor, def T) T {
	if b == nil {
		return def
	}
	return elems[T](b)[0]
}

func clipSpan[T number](lo, hi T) unarySpan[T, T] {
	return func(o, a []T) {
		for i, x := range a[:len(o)] {
			if x < lo {
				x = lo
			}
			if x > hi {
				x = hi
			}
			o[i] = x
		}
	}
}
