// DequantizeLinear turns quantized values back into real ones: y = (x -
// x_zero_point) * x_scale, per tensor, per axis or per block (ops/internal/quant),
// of x_scale's type or output_dtype.
//
// Versions: 10; 13 (axis: per-axis scales); 19 (float 8 inputs, float16
// and bfloat16 scales); 21 (int16, uint16, int4, uint4; block_size); 23
// (float4e2m1, output_dtype); 24 (float8e8m0 scales); 25 (int2, uint2).
//
// Rules: [type] x's type is one the version dequantizes; [zero_point] of
// x's type and scale's shape, and zero for the float 8 types (float4e2m1's
// is not read, as the reference evaluator); [scale] a float type, in one of
// the three shapes; [axis], [block_size] as quantLayoutOf (quantizelinear.go); [output_dtype]
// scale's type when given; [size] the output fits the size limit.
//
// As the reference evaluator: x - zero_point and the product with scale
// are exact in float64 for every input type, then rounded once to the
// output type.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/quant"
	"github.com/onnxshape/onnxshape/tensor"
)

var quantizeVersions = []int{10, 13, 19, 21, 23, 24, 25}

func init() {
	register("DequantizeLinear", quantizeVersions, [2]int{2, 3}, [2]int{1, 1}, dequantizeLinearNode)
	declareAttrs("DequantizeLinear",
		AttrSpec{Name: "axis", Type: AttrInt, From: 13},
		AttrSpec{Name: "block_size", Type: AttrInt, From: 21},
		AttrSpec{Name: "output_dtype", Type: AttrInt, From: 23})
}

// quantizedTypeSince is the first version of QuantizeLinear and
// DequantizeLinear that has quantized type dt (0: none).
func quantizedTypeSince(dt tensor.DataType) int {
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
	return 0
}

// scaleTypeOK reports whether the version takes scales of type dt.
func scaleTypeOK(dt tensor.DataType, version int) bool {
	switch dt {
	case tensor.Float:
		return true
	case tensor.Float16, tensor.BFloat16:
		return version >= 19
	case tensor.Float8E8M0:
		return version >= 24
	}
	return false
}

func dequantizeLinearNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "x")
	if err != nil {
		return nil, err
	}
	scale, err := n.requiredInput(in, 1, "x_scale")
	if err != nil {
		return nil, err
	}
	zero, err := n.tensorInput(in, 2)
	if err != nil {
		return nil, err
	}
	axis, block, outType := 1, 0, int64(0)
	if n.Version >= 13 {
		if axis, err = n.intAttr("axis", 1, "axis"); err != nil {
			return nil, err
		}
	}
	if n.Version >= 21 {
		if block, err = n.intAttr("block_size", 0, "block_size"); err != nil {
			return nil, err
		}
	}
	if n.Version >= 23 {
		if outType, err = n.Int("output_dtype", 0); err != nil {
			return nil, err
		}
	}
	xt := x.DataType()
	if s := quantizedTypeSince(xt); (s == 0 && xt != tensor.Int32) || s > op.version {
		return nil, op.errorf("type", "%s-%d cannot dequantize %v", op.name, op.version, xt)
	}
	if !scaleTypeOK(scale.DataType(), op.version) {
		return nil, op.errorf("scale", "x_scale must be a float type of version %d, got %v", op.version, scale.DataType())
	}
	out := scale.DataType()
	if outType != 0 {
		if tensor.DataType(outType) != out {
			return nil, op.errorf("output_dtype", "output_dtype %v differs from x_scale's type %v", tensor.DataType(outType), out)
		}
	}
	if zero != nil && zero.DataType() != xt {
		return nil, op.errorf("zero_point", "x_zero_point is %v but x is %v", zero.DataType(), xt)
	}
	layout, err := quantLayoutOf(op, x, scale, zero, axis, block)
	if err != nil {
		return nil, err
	}
	if (xt == tensor.Uint8 || xt == tensor.Int8) && out == tensor.Float && layout.Fast() {
		return dequantizeFast(opt, op, layout, x, scale, zero)
	}
	isF8 := xt == tensor.Float8E4M3FN || xt == tensor.Float8E4M3FNUZ || xt == tensor.Float8E5M2 || xt == tensor.Float8E5M2FNUZ
	var zp []float64
	if zero != nil && xt != tensor.Float4E2M1 {
		if zp, err = decodeAll(opt, op, zero); err != nil {
			return nil, err
		}
		if isF8 {
			for _, z := range zp {
				if z != 0 {
					return nil, op.errorf("zero_point", "the zero point of a float 8 type must be 0, got %v", z)
				}
			}
			zp = nil
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
	for i := range v {
		k := layout.ScaleIndex(i)
		if zp != nil {
			v[i] -= zp[k]
		}
		v[i] *= sv[k]
	}
	convert.EncodeFloats(y, 0, v, convert.DefaultCast)
	return values(y), nil
}

// dequantizeFast is the uint8 or int8 to float32 path per tensor or per
// axis (ops/internal/quant.Dequantize), equal to the general path bit for
// bit.
func dequantizeFast(opt *Options, op opRef, layout quant.Layout, x, scale, zero *tensor.Tensor) ([]tensor.Value, error) {
	y, err := opt.newOverwritten(op, tensor.Float, x.Shape())
	if err != nil {
		return nil, err
	}
	cfg := opt.elementwise()
	ys, ss := elems[float32](y), elems[float32](scale)
	if x.DataType() == tensor.Uint8 {
		var zs []uint8
		if zero != nil {
			zs = elems[uint8](zero)
		}
		err = quant.Dequantize(cfg.Ctx, cfg.Threads, layout, ys, elems[uint8](x), ss, zs)
	} else {
		var zs []int8
		if zero != nil {
			zs = elems[int8](zero)
		}
		err = quant.Dequantize(cfg.Ctx, cfg.Threads, layout, ys, elems[int8](x), ss, zs)
	}
	if err != nil {
		return nil, op.wrap("cancelled", err, "run stopped")
	}
	return values(y), nil
}
