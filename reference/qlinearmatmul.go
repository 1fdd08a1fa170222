// QLinearMatMul (10, 21). ONNX Operators.md: "Matrix product that behaves
// like numpy.matmul. It consumes two quantized input tensors, their scales
// and zero points, scale and zero point of output, and computes the
// quantized output. The quantization formula is y = saturate((x / y_scale)
// + y_zero_point). For (x / y_scale), it is rounding to nearest ties to
// even. ... Scale and zero point must have same shape. They must be either
// scalar (per tensor) or N-D tensor (per row for 'a' and per column for
// 'b'). ... Production must never overflow, and accumulation may overflow
// if and only if in 32 bits."
//
// x is the real product (a - a_zero_point)·(b - b_zero_point) * a_scale *
// b_scale. As the ONNX reference evaluator (op_qlinear_matmul.py) computes
// it: the int32 product P, then P * (a_scale * b_scale / y_scale) +
// y_zero_point in float64, the factor in the scales' own type (float; from
// 21 also float16 or bfloat16), then rounded half to even and saturated to
// y's type. a, b and y are int8 or uint8 (version 21's float8 types are
// refused as unsupported); y_scale and y_zero_point are per tensor.
//
// The rules, in order: [type], MatMul's [rank], [shape], [broadcast],
// [zero point] (as MatMulInteger's), [scale] (a_scale and b_scale laid out
// as their zero points; y_scale and y_zero_point one element each).

package reference

import (
	"math"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("QLinearMatMul", []int{10, 21}, qlinearMatMulKernel) }

func qlinearMatMulKernel(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	var t [8]*tensor.Tensor
	for i, name := range []string{"a", "a_scale", "a_zero_point", "b", "b_scale", "b_zero_point", "y_scale", "y_zero_point"} {
		var err error
		if t[i], err = requiredInput(op, in, i, name); err != nil {
			return nil, err
		}
	}
	a, as, az, b, bs, bz, ys, yz := t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]
	for _, x := range []*tensor.Tensor{a, b, yz} {
		switch x.DataType() {
		case tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ:
			if n.Version >= 21 {
				return nil, op.wrap("type", ops.ErrUnsupported, "%v quantized tensors", x.DataType())
			}
		}
	}
	if !is8bitType(a.DataType()) || !is8bitType(b.DataType()) || !is8bitType(yz.DataType()) {
		return nil, op.errorf("type", "a, b and y_zero_point must be int8 or uint8")
	}
	if az.DataType() != a.DataType() || bz.DataType() != b.DataType() {
		return nil, op.errorf("type", "a zero point is not of its input's type")
	}
	st := as.DataType()
	switch {
	case st == tensor.Float:
	case (st == tensor.Float16 || st == tensor.BFloat16) && n.Version >= 21:
	default:
		return nil, op.errorf("type", "a_scale is %v, which version %d does not accept", st, n.Version)
	}
	if bs.DataType() != st || ys.DataType() != st {
		return nil, op.errorf("type", "the scales are not all of one type")
	}
	s, err := matmulIndex(op, a.Shape(), b.Shape())
	if err != nil {
		return nil, err
	}
	azAt, err := quantIndex(op, "zero point", az, a.Shape(), s, true)
	if err != nil {
		return nil, err
	}
	bzAt, err := quantIndex(op, "zero point", bz, b.Shape(), s, false)
	if err != nil {
		return nil, err
	}
	asAt, err := quantIndex(op, "scale", as, a.Shape(), s, true)
	if err != nil {
		return nil, err
	}
	bsAt, err := quantIndex(op, "scale", bs, b.Shape(), s, false)
	if err != nil {
		return nil, err
	}
	if !sameLayout(as, az) || !sameLayout(bs, bz) {
		return nil, op.errorf("scale", "a scale and its zero point have different shapes")
	}
	if ys.Len() != 1 || yz.Len() != 1 || ys.Rank() > 1 || yz.Rank() > 1 {
		return nil, op.errorf("scale", "y_scale and y_zero_point must be one element each")
	}
	y, err := newTensor(opt, op, yz.DataType(), s.out)
	if err != nil {
		return nil, err
	}
	if err := cancelled(opt, op); err != nil {
		return nil, err
	}
	acc, err := integerProducts(opt, op, s, a, b, az, bz, azAt, bzAt)
	if err != nil {
		return nil, err
	}
	asv, bsv, ysv := computeElements[float32](as), computeElements[float32](bs), computeElements[float32](ys)
	zero := float64(computeElements[int32](yz)[0])
	lo, hi := 0.0, 255.0
	if yz.DataType() == tensor.Int8 {
		lo, hi = -128, 127
	}
	forEachIndex(s.full, func(flat int, idx []int) {
		factor := roundToScale(st, roundToScale(st, asv[asAt(idx)]*bsv[bsAt(idx)])/ysv[0])
		v := math.RoundToEven(float64(acc[flat])*float64(factor) + zero)
		if v != v {
			v = 0
		}
		setElementAs(y, flat, math.Max(lo, math.Min(hi, v)))
	})
	return []tensor.Value{y}, nil
}

// sameLayout reports whether a scale and its zero point have one shape,
// a scalar and a one-element vector counting as one.
func sameLayout(scale, zero *tensor.Tensor) bool {
	if scale.Len() == 1 && zero.Len() == 1 && scale.Rank() <= 1 && zero.Rank() <= 1 {
		return true
	}
	return tensor.SameShape(scale.Shape(), zero.Shape())
}

// roundToScale rounds a float32 result of an operation on scales of type
// st to st: float16 and bfloat16 to nearest even (float32 holds their
// products and quotients closely enough for one more rounding to be the
// correct one).
func roundToScale(st tensor.DataType, x float32) float32 {
	switch st {
	case tensor.Float16:
		return float16.Fromfloat32(x).Float32()
	case tensor.BFloat16:
		return tensor.BF16FromFloat32(x).Float32()
	}
	return x
}
