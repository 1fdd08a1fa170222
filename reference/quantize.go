package reference

// QuantizeLinear and DequantizeLinear (versions 10, 13, 19, 21, 23, 24,
// 25), after the ONNX specification and its reference evaluator
// (op_quantize_linear.py, op_dequantize_linear.py, _quant_utils.py):
//
//	QuantizeLinear: "y = saturate ((x / y_scale) + y_zero_point)" ...
//	"For saturation, it saturates according to: uint8: [0, 255], int8:
//	[-128, 127], uint16: [0, 65535], int16: [-32768, 32767], uint4: [0, 15],
//	int4: [-8, 7]" (uint2 [0, 3], int2 [-2, 1]); "For (x / y_scale), it
//	rounds to the nearest even." Float 8 outputs: x / y_scale cast as Cast
//	does, with saturate; float4e2m1: x / y_scale + y_zero_point cast.
//	DequantizeLinear: "y = (x - x_zero_point) * x_scale".
//	"The quantization formula is y = ... For per-tensor quantization, scale
//	is a scalar; for per-axis, a 1-D tensor; for blocked, the same rank as
//	the input, with ceil(D_axis / block_size) on the axis."
//
// The reference evaluator's arithmetic: x / y_scale in x's type (or
// precision; float64 for int32 x), rint, then astype(int32) (x86: values
// past int32 become its minimum), + zero point, clip; dequantization exact
// in float64 and rounded once to the output type.

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	versions := []int{10, 13, 19, 21, 23, 24, 25}
	register("QuantizeLinear", versions, quantizeLinear)
	register("DequantizeLinear", versions, dequantizeLinear)
}

// quantizedFirstVersion is the first version with quantized type dt.
func quantizedFirstVersion(dt tensor.DataType) int {
	switch dt {
	case tensor.Int8, tensor.Uint8:
		return 10
	case tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ:
		return 19
	case tensor.Int16, tensor.Uint16, tensor.Int4, tensor.Uint4:
		return 21
	case tensor.Float4E2M1:
		return 23
	case tensor.Int2, tensor.Uint2:
		return 25
	}
	return math.MaxInt32
}

func scaleAllowed(dt tensor.DataType, version int) bool {
	return dt == tensor.Float || (dt == tensor.Float16 || dt == tensor.BFloat16) && version >= 19 || dt == tensor.Float8E8M0 && version >= 24
}

// scaleAt returns, for element i of x, the multi-index of its scale
// element: none (per tensor), its coordinate on axis (per axis), or its
// own with the axis coordinate divided by block (blocked).
func scaleAt(op opRef, x, scale, zero *tensor.Tensor, axis, block int) (func(i int) int, error) {
	if block < 0 {
		return nil, op.errorf("block_size", "block_size %d", block)
	}
	single := func(t *tensor.Tensor) bool { return t.Len() == 1 && t.Rank() <= 1 }
	if zero != nil && !tensor.SameShape(zero.Shape(), scale.Shape()) && !(single(zero) && single(scale)) {
		return nil, op.errorf("zero_point", "zero point and scale differ in shape")
	}
	if single(scale) && block == 0 {
		return func(int) int { return 0 }, nil
	}
	r := x.Rank()
	if axis < -r || axis >= r {
		return nil, op.errorf("axis", "axis %d", axis)
	}
	if axis < 0 {
		axis += r
	}
	if block == 0 {
		if scale.Rank() != 1 || scale.Len() != x.Shape()[axis] {
			return nil, op.errorf("scale", "per-axis scale of shape %v", scale.Shape())
		}
		return func(i int) int { return unravel(i, x.Shape())[axis] }, nil
	}
	want := append([]int{}, x.Shape()...)
	want[axis] = (want[axis] + block - 1) / block
	if !tensor.SameShape(scale.Shape(), want) {
		return nil, op.errorf("scale", "blocked scale of shape %v", scale.Shape())
	}
	strides := stridesOf(want)
	return func(i int) int {
		pos := unravel(i, x.Shape())
		pos[axis] /= block
		return ravel(pos, strides)
	}, nil
}

// valueOf is element i of t as a float64.
func valueOf(t *tensor.Tensor, i int) float64 {
	v := exactValue(t, i)
	switch v.kind {
	case 'i':
		return float64(v.i)
	case 'u':
		return float64(v.u)
	}
	return v.f
}

// inPrecision rounds x to the float type dt.
func inPrecision(dt tensor.DataType, x float64) float64 {
	switch dt {
	case tensor.Float:
		return float64(float32(x))
	case tensor.Float16, tensor.BFloat16:
		return roundThrough(dt, x)
	}
	return x
}

func dequantizeLinear(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "x")
	if err != nil {
		return nil, err
	}
	scale, err := requiredInput(op, in, 1, "x_scale")
	if err != nil {
		return nil, err
	}
	zero, err := optionalInput(op, in, 2)
	if err != nil {
		return nil, err
	}
	axis, block, outType := 1, 0, int64(0)
	if n.Version >= 13 {
		if axis, err = intAttr(n, "axis", 1, "axis"); err != nil {
			return nil, err
		}
	}
	if n.Version >= 21 {
		if block, err = intAttr(n, "block_size", 0, "block_size"); err != nil {
			return nil, err
		}
	}
	if n.Version >= 23 {
		if outType, err = n.Int("output_dtype", 0); err != nil {
			return nil, err
		}
	}
	xt := x.DataType()
	if !(quantizedFirstVersion(xt) <= n.Version || xt == tensor.Int32) {
		return nil, op.errorf("type", "cannot dequantize %v", xt)
	}
	if !scaleAllowed(scale.DataType(), n.Version) {
		return nil, op.errorf("scale", "x_scale of type %v", scale.DataType())
	}
	if outType != 0 && tensor.DataType(outType) != scale.DataType() {
		return nil, op.errorf("output_dtype", "output_dtype %d", outType)
	}
	if zero != nil && zero.DataType() != xt {
		return nil, op.errorf("zero_point", "zero point of type %v", zero.DataType())
	}
	at, err := scaleAt(op, x, scale, zero, axis, block)
	if err != nil {
		return nil, err
	}
	isF8 := xt == tensor.Float8E4M3FN || xt == tensor.Float8E4M3FNUZ || xt == tensor.Float8E5M2 || xt == tensor.Float8E5M2FNUZ
	useZero := zero != nil && xt != tensor.Float4E2M1 && !isF8
	if zero != nil && isF8 {
		for i := range zero.Len() {
			if valueOf(zero, i) != 0 {
				return nil, op.errorf("zero_point", "a float 8 zero point must be 0")
			}
		}
	}
	y, err := newTensor(opt, op, scale.DataType(), x.Shape())
	if err != nil {
		return nil, err
	}
	for i := range x.Len() {
		d := valueOf(x, i)
		if useZero {
			d -= valueOf(zero, at(i))
		}
		storeValue(y, y, i, number{kind: 'f', f: d * valueOf(scale, at(i))}, castAttrs{saturate: true, roundMode: "up"})
	}
	return values(y), nil
}

func quantizeLinear(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "x")
	if err != nil {
		return nil, err
	}
	scale, err := requiredInput(op, in, 1, "y_scale")
	if err != nil {
		return nil, err
	}
	zero, err := optionalInput(op, in, 2)
	if err != nil {
		return nil, err
	}
	axis, block, saturate, outType, precision := 1, 0, int64(1), int64(0), int64(0)
	if n.Version >= 13 {
		if axis, err = intAttr(n, "axis", 1, "axis"); err != nil {
			return nil, err
		}
	}
	if n.Version >= 19 {
		if saturate, err = n.Int("saturate", 1); err != nil {
			return nil, err
		}
	}
	if n.Version >= 21 {
		if block, err = intAttr(n, "block_size", 0, "block_size"); err != nil {
			return nil, err
		}
		if outType, err = n.Int("output_dtype", 0); err != nil {
			return nil, err
		}
	}
	if n.Version >= 23 {
		if precision, err = n.Int("precision", 0); err != nil {
			return nil, err
		}
	}
	xt := x.DataType()
	if !(xt == tensor.Float || xt == tensor.Int32 || (xt == tensor.Float16 || xt == tensor.BFloat16) && n.Version >= 19) {
		return nil, op.errorf("type", "cannot quantize %v", xt)
	}
	if !scaleAllowed(scale.DataType(), n.Version) {
		return nil, op.errorf("scale", "y_scale of type %v", scale.DataType())
	}
	out := tensor.DataType(outType)
	if zero != nil {
		if outType != 0 && zero.DataType() != out {
			return nil, op.errorf("output_dtype", "output_dtype and zero point differ")
		}
		out = zero.DataType()
	}
	if out == 0 {
		out = tensor.Uint8
	}
	if quantizedFirstVersion(out) > n.Version {
		return nil, op.errorf("output_dtype", "cannot quantize to %v", out)
	}
	compute := xt
	if precision != 0 {
		compute = tensor.DataType(precision)
		if compute != tensor.Float && compute != tensor.Double && compute != tensor.Float16 && compute != tensor.BFloat16 {
			return nil, op.errorf("precision", "precision %d", precision)
		}
	} else if xt == tensor.Int32 {
		compute = tensor.Double
	}
	at, err := scaleAt(op, x, scale, zero, axis, block)
	if err != nil {
		return nil, err
	}
	y, err := newTensor(opt, op, out, x.Shape())
	if err != nil {
		return nil, err
	}
	ranges := map[tensor.DataType][2]int64{tensor.Uint8: {0, 255}, tensor.Int8: {-128, 127}, tensor.Uint16: {0, 65535},
		tensor.Int16: {-32768, 32767}, tensor.Uint4: {0, 15}, tensor.Int4: {-8, 7}, tensor.Uint2: {0, 3}, tensor.Int2: {-2, 1}}
	for i := range x.Len() {
		q := inPrecision(compute, inPrecision(compute, valueOf(x, i))/inPrecision(compute, valueOf(scale, at(i))))
		if rg, integer := ranges[out]; integer {
			r := math.RoundToEven(q)
			if r != r || r >= 1<<31 || r < -(1<<31) {
				r = math.MinInt32
			}
			z := int64(0)
			if zero != nil {
				z = int64(valueOf(zero, at(i)))
			}
			v := int64(int32(int64(r) + z)) // numpy adds in int32
			putInt(y, i, uint64(min(max(v, rg[0]), rg[1])))
			continue
		}
		if out == tensor.Float4E2M1 && zero != nil {
			q = inPrecision(compute, q+valueOf(zero, at(i)))
		}
		storeValue(y, y, i, number{kind: 'f', f: q}, castAttrs{saturate: saturate != 0, roundMode: "up"})
	}
	return values(y), nil
}
