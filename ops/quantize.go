package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

// The linear quantization family's shared engine (QuantizeLinear,
// DequantizeLinear): which element of scale and zero_point serves each
// element of x. A scale (and zero_point, of the same shape) is one of
//   - per tensor: a scalar or a one-element tensor;
//   - per axis: a 1-D tensor of x's dim on axis;
//   - blocked (block_size > 0, versions 21 on): x's shape but
//     ceil(dim/block_size) on axis, one value per block of block_size
//     positions along it.
// Arithmetic follows the reference evaluator: see each operator.

// quantLayout maps elements of x to elements of scale.
type quantLayout struct {
	dim, inner int // x's dim on axis, and the elements after axis
	block      int // block_size, 0 unless blocked
	perTensor  bool
}

// scaleIndex is the element of scale (and zero_point) that serves element
// i of x.
func (q quantLayout) scaleIndex(i int) int {
	switch {
	case q.perTensor:
		return 0
	case q.block == 0:
		return i / q.inner % q.dim
	}
	outer, a, in := i/(q.inner*q.dim), i/q.inner%q.dim, i%q.inner
	blocks := (q.dim + q.block - 1) / q.block
	return (outer*blocks+a/q.block)*q.inner + in
}

// quantLayoutOf checks scale (and zero_point when given) against x and
// returns the layout. Rules: [axis] in [-r, r-1] when scale is not per
// tensor; [block_size] not negative; [scale] one of the three shapes;
// [zero_point] the shape of scale.
func quantLayoutOf(op opRef, x, scale, zero *tensor.Tensor, axis, block int) (quantLayout, error) {
	if block < 0 {
		return quantLayout{}, op.errorf("block_size", "block_size must be >= 0, got %d", block)
	}
	single := func(t *tensor.Tensor) bool { return t.Len() == 1 && t.Rank() <= 1 }
	if zero != nil && !tensor.SameShape(zero.Shape(), scale.Shape()) && !(single(zero) && single(scale)) {
		return quantLayout{}, op.errorf("zero_point", "zero_point has shape %v, scale %v: they must agree", zero.Shape(), scale.Shape())
	}
	if single(scale) && block == 0 {
		return quantLayout{perTensor: true}, nil
	}
	a, ok := normalizeAxis(int64(axis), x.Rank())
	if !ok {
		return quantLayout{}, op.errorf("axis", "axis %d outside [%d, %d]", axis, -x.Rank(), x.Rank()-1)
	}
	q := quantLayout{dim: x.Shape()[a], inner: product(x.Shape()[a+1:]), block: block}
	if block == 0 {
		if scale.Rank() != 1 || scale.Len() != q.dim {
			return quantLayout{}, op.errorf("scale", "a per-axis scale must be 1-D of length %d (x's dim %d), got shape %v", q.dim, a, scale.Shape())
		}
		return q, nil
	}
	want := append([]int{}, x.Shape()...)
	want[a] = (q.dim + block - 1) / block
	if !tensor.SameShape(scale.Shape(), want) {
		return quantLayout{}, op.errorf("scale", "a blocked scale must have shape %v (x %v, blocks of %d on axis %d), got %v", want, x.Shape(), block, a, scale.Shape())
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

// roundToType rounds x to the nearest value of the float type dt (float,
// double, float16, bfloat16): the precision a computation in dt keeps.
func roundToType(dt tensor.DataType, x float64) float64 {
	switch dt {
	case tensor.Float:
		return float64(float32(x))
	case tensor.Float16:
		return float64(convert.F16ToF32(convert.F64ToF16(x)))
	case tensor.BFloat16:
		return float64(math.Float32frombits(uint32(convert.F32ToBF16(float32(x))) << 16))
	}
	return x
}
