// QLinearMatMul is MatMul of quantized tensors: with the int32 product
// P = (a - a_zero_point) · (b - b_zero_point) (numpy matmul's shapes),
// y = saturate(round(P * a_scale * b_scale / y_scale) + y_zero_point),
// rounding half to even, saturating to y's type.
//
// Versions: 10 (scales float) and 21 (scales float, float16 or bfloat16).
// a, b and y are int8 or uint8 (T1, T2, T3); version 21 also lists the
// float8 types, which this implementation refuses as unsupported. The
// rules, in order:
//
//	[type]        a, b, y_zero_point 8-bit integers, each zero point of its
//	              tensor's type; the scales of one float type the version
//	              allows
//	[rank], [shape], [broadcast] as MatMul
//	[zero point]  a_zero_point as MatMulInteger's (per tensor or per row
//	              of a), b_zero_point (per tensor or per column of b)
//	[scale]       a_scale and b_scale laid out as their zero points
//	              ("Scale and zero point must have same shape"); y_scale
//	              and y_zero_point one element each (per tensor)
//
// The multiplier a_scale*b_scale/y_scale is computed in the scales' type,
// rounded after each operation, and P times it plus y_zero_point in
// float64, as the ONNX reference evaluator computes it (numpy: an int32
// array times a float scalar is float64).

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/quant"

	"github.com/onnxshape/onnxshape/tensor"
)

var qlinearScaleTypes = versionTypes{10: typesOf(tensor.Float), 21: typesOf(tensor.Float, tensor.Float16, tensor.BFloat16)}

func init() {
	register("QLinearMatMul", []int{10, 21}, [2]int{8, 8}, [2]int{1, 1}, qlinearMatMulNode)
	declareAttrs("QLinearMatMul")
}

var qlinearInputs = []string{"a", "a_scale", "a_zero_point", "b", "b_scale", "b_zero_point", "y_scale", "y_zero_point"}

func qlinearMatMulNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	var t [8]*tensor.Tensor
	var err error
	for i, name := range qlinearInputs {
		if t[i], err = n.requiredInput(in, i, name); err != nil {
			return nil, err
		}
	}
	y, err := qlinearMatMul(opt, n.op(), t, n.packedInput(3, t[3]))
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// qlinearMatMul is QLinearMatMul; pb, when not nil, is b packed at load.
func qlinearMatMul(opt *Options, op opRef, t [8]*tensor.Tensor, pb *weightPack) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	a, as, az, b, bs, bz, ys, yz := t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]
	for _, x := range []*tensor.Tensor{a, b, yz} {
		if float8Types.has(x.DataType()) && op.version >= 21 {
			return nil, op.wrap("type", ErrUnsupported, "%v quantized tensors", x.DataType())
		}
	}
	if !is8bit(a.DataType()) || !is8bit(b.DataType()) || !is8bit(yz.DataType()) {
		return nil, op.errorf("type", "a is %v, b %v, y_zero_point %v: each must be int8 or uint8", a.DataType(), b.DataType(), yz.DataType())
	}
	if az.DataType() != a.DataType() || bz.DataType() != b.DataType() {
		return nil, op.errorf("type", "a_zero_point is %v for a of %v, b_zero_point %v for b of %v", az.DataType(), a.DataType(), bz.DataType(), b.DataType())
	}
	st := as.DataType()
	if err := qlinearScaleTypes.check(op, "a_scale", st); err != nil {
		return nil, err
	}
	if bs.DataType() != st || ys.DataType() != st {
		return nil, op.errorf("type", "a_scale is %v, b_scale %v, y_scale %v: all are of one type", st, bs.DataType(), ys.DataType())
	}
	s, err := matmulShapes(op, a.Shape(), b.Shape())
	if err != nil {
		return nil, err
	}
	q, err := newIntegerProduct(opt, op, &s, a, b, az, bz)
	if err != nil {
		return nil, err
	}
	q.usePacked(pb)
	asPer, asBat, err := productQuantLayout(op, "scale", "a_scale", as.Shape(), a.Shape(), true)
	if err != nil {
		return nil, err
	}
	bsPer, bsBat, err := productQuantLayout(op, "scale", "b_scale", bs.Shape(), b.Shape(), false)
	if err != nil {
		return nil, err
	}
	if asPer != q.aPer || asBat != q.aBat || bsPer != q.bPer || bsBat != q.bBat {
		return nil, op.errorf("scale", "a_scale %v and a_zero_point %v, b_scale %v and b_zero_point %v: a scale and its zero point have one shape",
			as.Shape(), az.Shape(), bs.Shape(), bz.Shape())
	}
	if ys.Len() != 1 || yz.Len() != 1 || ys.Rank() > 1 || yz.Rank() > 1 {
		return nil, op.errorf("scale", "y_scale has shape %v and y_zero_point %v: both are per tensor (one element)", ys.Shape(), yz.Shape())
	}
	y, err := opt.newOverwritten(op, yz.DataType(), s.out)
	if err != nil {
		return nil, err
	}
	if y.Len() == 0 {
		return y, nil
	}
	if err := opt.scratch(op, "the int32 products", y.Len(), 4); err != nil {
		return nil, err
	}
	accBuf := getAcc(y.Len()) // QLinearConv's pool
	defer accPool.Put(accBuf)
	acc := *accBuf
	if err := q.run(opt, op, acc); err != nil {
		return nil, err
	}
	asv, err := scaleValues(as)
	if err != nil {
		return nil, op.wrap("scale", err, "a_scale")
	}
	bsv, err := scaleValues(bs)
	if err != nil {
		return nil, op.wrap("scale", err, "b_scale")
	}
	ysv, err := scaleValues(ys)
	if err != nil {
		return nil, op.wrap("scale", err, "y_scale")
	}
	zero := float64(q.yZero(yz))
	signed := yz.DataType() == tensor.Int8
	round := scaleRounding(st)
	out := y.Bytes()
	m, n := s.m, s.n
	// The multipliers of one row of a matrix, a per column (b_scale per
	// column) or one: computed once per row of A's scale, not per element.
	if err := opt.scratch(op, "the multipliers", mulCounts(n, opt.orDefault().threads()), 8); err != nil {
		return nil, err
	}
	err = parallelRange(opt, s.count, y.Len(), func(lo2, hi2 int) error {
		c := opt.canceller()
		mults := make([]float64, n)
		for i := lo2; i < hi2; i++ {
			if c.Stop(m * n) {
				return c.Err
			}
			ai, bi := s.matrices(i)
			ar := quantSlice(asv, asPer, asBat, ai)
			bc := quantSlice(bsv, bsPer, bsBat, bi)
			for r := range m {
				if r < len(ar) {
					sa := ar[r]
					for col := range n {
						mults[col] = float64(round(round(sa*bc[min(col, len(bc)-1)]) / ysv[0]))
					}
				}
				row := acc[(i*m+r)*n : (i*m+r+1)*n]
				dst := out[(i*m+r)*n : (i*m+r+1)*n]
				quant.RequantizeCols(dst, row, mults, zero, signed)
			}
		}
		return nil
	})
	if err != nil {
		return nil, op.stopped(err)
	}
	return y, nil
}

// yZero returns the one output zero point.
func (*integerProduct) yZero(yz *tensor.Tensor) int32 {
	if yz.DataType() == tensor.Int8 {
		return int32(int8(yz.Bytes()[0]))
	}
	return int32(yz.Bytes()[0])
}

// scaleValues returns a scale tensor's elements as float32 (exact for
// float16 and bfloat16). A scale holds one element per row or column of
// an input already held, so it is not charged.
func scaleValues(t *tensor.Tensor) ([]float32, error) { return convert.LoadFloats[float32](t) }

// scaleRounding returns the rounding of a float32 result to the scales'
// type st: none for float, to nearest even float16 or bfloat16 otherwise
// (float32 holds every product and quotient of two such values closely
// enough that rounding it once more gives the correctly rounded result).
func scaleRounding(st tensor.DataType) func(float32) float32 {
	switch st {
	case tensor.Float16:
		return func(x float32) float32 { return convert.F16ToF32(convert.F32ToF16(math.Float32bits(x))) }
	case tensor.BFloat16:
		return func(x float32) float32 { return tensor.BF16FromFloat32(x).Float32() }
	}
	return func(x float32) float32 { return x }
}
