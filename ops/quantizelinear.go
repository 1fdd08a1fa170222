// QuantizeLinear maps real values to a quantized type: y =
// saturate(round(x / y_scale) + y_zero_point) for the integer types
// (round half to even, then clamped to the type's range), x / y_scale
// converted (saturating unless saturate = 0) for the float 8 types, and
// x / y_scale + y_zero_point converted for float4e2m1; scales per tensor,
// per axis or per block (ops/internal/quant). The output type is y_zero_point's,
// else output_dtype, else uint8.
//
// Versions: 10; 13 (axis); 19 (float 8 outputs, float16 and bfloat16
// inputs, saturate); 21 (int16, uint16, int4, uint4 outputs; block_size,
// output_dtype); 23 (float4e2m1; precision, the float type x / y_scale is
// computed in); 24 (float8e8m0 scales); 25 (int2, uint2).
//
// Rules: [type] x is float, int32, float16 or bfloat16 (the last two from
// 19); [scale] a float type in one of the three shapes; [output_dtype] a
// quantized type of the version, agreeing with y_zero_point's; [axis],
// [block_size], [zero_point] as quantLayoutOf; [precision] a float type;
// [size] the output fits the size limit.
//
// As the reference evaluator: x / y_scale is rounded to x's type (or to
// precision; float64 for int32 inputs, as numpy promotes them), a value
// past int32 becomes math.MinInt32 before the zero point is added (x86's
// conversion in numpy's astype), and the zero point of a float 8 output is
// not added.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/quant"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("QuantizeLinear", quantizeVersions, [2]int{2, 3}, [2]int{1, 1}, quantizeLinearNode)
	declareAttrs("QuantizeLinear",
		AttrSpec{Name: "axis", Type: AttrInt, From: 13},
		AttrSpec{Name: "saturate", Type: AttrInt, From: 19},
		AttrSpec{Name: "block_size", Type: AttrInt, From: 21},
		AttrSpec{Name: "output_dtype", Type: AttrInt, From: 21},
		AttrSpec{Name: "precision", Type: AttrInt, From: 23})
}

// quantRange is the range of the integer quantized types.
func quantRange(dt tensor.DataType) (lo, hi int64, ok bool) {
	switch dt {
	case tensor.Uint8:
		return 0, 255, true
	case tensor.Int8:
		return -128, 127, true
	case tensor.Uint16:
		return 0, 65535, true
	case tensor.Int16:
		return -32768, 32767, true
	case tensor.Uint4:
		return 0, 15, true
	case tensor.Int4:
		return -8, 7, true
	case tensor.Uint2:
		return 0, 3, true
	case tensor.Int2:
		return -2, 1, true
	}
	return 0, 0, false
}

func quantizeLinearNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "x")
	if err != nil {
		return nil, err
	}
	scale, err := n.requiredInput(in, 1, "y_scale")
	if err != nil {
		return nil, err
	}
	zero, err := n.tensorInput(in, 2)
	if err != nil {
		return nil, err
	}
	axis, block, saturate, outType, precision := 1, 0, int64(1), int64(0), int64(0)
	if n.Version >= 13 {
		if axis, err = n.intAttr("axis", 1, "axis"); err != nil {
			return nil, err
		}
	}
	if n.Version >= 19 {
		if saturate, err = n.Int("saturate", 1); err != nil {
			return nil, err
		}
	}
	if n.Version >= 21 {
		if block, err = n.intAttr("block_size", 0, "block_size"); err != nil {
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
	if !(xt == tensor.Float || xt == tensor.Int32 || (xt == tensor.Float16 || xt == tensor.BFloat16) && op.version >= 19) {
		return nil, op.errorf("type", "%s-%d cannot quantize %v", op.name, op.version, xt)
	}
	if !scaleTypeOK(scale.DataType(), op.version) {
		return nil, op.errorf("scale", "y_scale must be a float type of version %d, got %v", op.version, scale.DataType())
	}
	out := tensor.DataType(outType)
	if zero != nil {
		if outType != 0 && zero.DataType() != out {
			return nil, op.errorf("output_dtype", "output_dtype %v differs from y_zero_point's type %v", out, zero.DataType())
		}
		out = zero.DataType()
	}
	if out == 0 {
		out = tensor.Uint8
	}
	if s := quantizedTypeSince(out); s == 0 || s > op.version {
		return nil, op.errorf("output_dtype", "%s-%d cannot quantize to %v", op.name, op.version, out)
	}
	compute := xt
	switch {
	case precision != 0:
		compute = tensor.DataType(precision)
		if compute != tensor.Float && compute != tensor.Double && compute != tensor.Float16 && compute != tensor.BFloat16 {
			return nil, op.errorf("precision", "precision must be a float type, got %v", compute)
		}
	case xt == tensor.Int32:
		compute = tensor.Double
	}
	layout, err := quantLayoutOf(op, x, scale, zero, axis, block)
	if err != nil {
		return nil, err
	}
	if xt == tensor.Float && compute == tensor.Float && scale.DataType() == tensor.Float && layout.Fast() && (out == tensor.Uint8 || out == tensor.Int8) {
		return quantizeFast(opt, op, layout, x, scale, zero, out)
	}
	var zp []float64
	if zero != nil {
		if zp, err = decodeAll(opt, op, zero); err != nil {
			return nil, err
		}
	}
	sv, err := decodeAll(opt, op, scale)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, out, x.Shape())
	if err != nil {
		return nil, err
	}
	v, err := decodeAll(opt, op, x)
	if err != nil {
		return nil, err
	}
	lo, hi, integer := quantRange(out)
	ints := []int64(nil)
	if integer {
		if err := opt.charge(op, "quantized integers", int64(len(v))*8); err != nil {
			return nil, err
		}
		ints = make([]int64, len(v))
	}
	for i, xv := range v {
		k := layout.ScaleIndex(i)
		q := convert.RoundToType(compute, convert.RoundToType(compute, xv)/convert.RoundToType(compute, sv[k]))
		switch {
		case integer:
			r := math.RoundToEven(q)
			if r != r || r >= 1<<31 || r < -(1<<31) {
				r = math.MinInt32
			}
			z := int64(0)
			if zp != nil {
				z = int64(zp[k])
			}
			ints[i] = min(max(int64(int32(int64(r)+z)), lo), hi)
		case out == tensor.Float4E2M1 && zp != nil:
			v[i] = convert.RoundToType(compute, q+zp[k])
		default:
			v[i] = q
		}
	}
	if integer {
		convert.StoreInts(y, 0, ints)
	} else {
		convert.EncodeFloats(y, 0, v, convert.Options{Saturate: saturate != 0, RoundMode: "up"})
	}
	return values(y), nil
}

// quantLayoutOf checks scale (and zero_point when given) against x and
// returns the layout. Rules: [axis] in [-r, r-1] when scale is not per
// tensor; [block_size] not negative; [scale] one of the three shapes;
// [zero_point] the shape of scale.
func quantLayoutOf(op opRef, x, scale, zero *tensor.Tensor, axis, block int) (quant.Layout, error) {
	if block < 0 {
		return quant.Layout{}, op.errorf("block_size", "block_size must be >= 0, got %d", block)
	}
	single := func(t *tensor.Tensor) bool { return t.Len() == 1 && t.Rank() <= 1 }
	if zero != nil && !tensor.SameShape(zero.Shape(), scale.Shape()) && !(single(zero) && single(scale)) {
		return quant.Layout{}, op.errorf("zero_point", "zero_point has shape %v, scale %v: they must agree", zero.Shape(), scale.Shape())
	}
	if single(scale) && block == 0 {
		return quant.Layout{PerTensor: true}, nil
	}
	a, ok := normalizeAxis(int64(axis), x.Rank())
	if !ok {
		return quant.Layout{}, op.errorf("axis", "axis %d outside [%d, %d]", axis, -x.Rank(), x.Rank()-1)
	}
	q := quant.Layout{Dim: x.Shape()[a], Inner: product(x.Shape()[a+1:]), Block: block}
	if block == 0 {
		if scale.Rank() != 1 || scale.Len() != q.Dim {
			return quant.Layout{}, op.errorf("scale", "a per-axis scale must be 1-D of length %d (x's dim %d), got shape %v", q.Dim, a, scale.Shape())
		}
		return q, nil
	}
	want := append([]int{}, x.Shape()...)
	want[a] = (q.Dim + block - 1) / block
	if !tensor.SameShape(scale.Shape(), want) {
		return quant.Layout{}, op.errorf("scale", "a blocked scale must have shape %v (x %v, blocks of %d on axis %d), got %v", want, x.Shape(), block, a, scale.Shape())
	}
	return q, nil
}

// decodeAll returns the values of every element of t as float64 (integers
// and floats exactly), after charging them as scratch.
func decodeAll(opt *Options, op opRef, t *tensor.Tensor) ([]float64, error) {
	if err := opt.checkSize(op, tensor.Double, t.Shape()); err != nil {
		return nil, err
	}
	if err := opt.charge(op, "values as float64", int64(t.Len())*8); err != nil {
		return nil, err
	}
	v := make([]float64, t.Len())
	if t.DataType().IsFloat() {
		convert.DecodeFloats(v, t, 0)
		return v, nil
	}
	n := make([]int64, len(v))
	convert.DecodeInts(n, t, 0)
	unsigned := t.DataType() == tensor.Uint64
	for i, x := range n {
		v[i] = float64(x)
		if unsigned {
			v[i] = float64(uint64(x))
		}
	}
	return v, nil
}

// quantizeFast is the float32 to uint8 or int8 path per tensor or per axis
// (ops/internal/quant.Quantize), equal to the general path bit for bit.
func quantizeFast(opt *Options, op opRef, layout quant.Layout, x, scale, zero *tensor.Tensor, out tensor.DataType) ([]tensor.Value, error) {
	y, err := opt.newOverwritten(op, out, x.Shape())
	if err != nil {
		return nil, err
	}
	lo, hi, _ := quantRange(out)
	cfg := opt.elementwise()
	xs, ss := elems[float32](x), elems[float32](scale)
	if out == tensor.Uint8 {
		var zs []uint8
		if zero != nil {
			zs = elems[uint8](zero)
		}
		err = quant.Quantize(cfg.Ctx, cfg.Threads, layout, elems[uint8](y), xs, ss, zs, lo, hi)
	} else {
		var zs []int8
		if zero != nil {
			zs = elems[int8](zero)
		}
		err = quant.Quantize(cfg.Ctx, cfg.Threads, layout, elems[int8](y), xs, ss, zs, lo, hi)
	}
	if err != nil {
		return nil, op.wrap("cancelled", err, "run stopped")
	}
	return values(y), nil
}
