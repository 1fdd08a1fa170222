// A quantized residual addition written in QDQ form, run as one int8
// addition (FuseQDQAdd, LoadOptions.ExactQDQ turns it off): a static int8
// network adds two quantized values as
//
//	DequantizeLinear(a) + DequantizeLinear(b) [-> Relu] -> QuantizeLinear
//
// which, run as written, is three passes over float32 memory. Fused, the
// Add reads the two 8-bit tensors (broadcast as Add broadcasts) and writes
// y as QuantizeLinear would write the real sum (quant.Add):
//
//	y = saturate(round_half_even((a_scale*(a-a_zero) + b_scale*(b-b_zero)) / y_scale) + y_zero_point)
//
// in float64, correctly rounded except within about 2^-45 of a tie that is
// not one; a Relu a clip at y_zero_point. The float chain rounds the two
// dequantized values, their sum and the quotient in float32, so the two
// can differ by one quantum where the real result falls next to a
// rounding boundary: bits change, as with the fused convolution
// (qdqconv.go); the reference engine, the SONNX profile, NoFuse and
// ExactQDQ run the nodes as written.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/quant"
	"github.com/onnxshape/onnxshape/tensor"
)

// QDQAdd is what FuseQDQAdd reads of a chain: the DequantizeLinear nodes
// of the Add's A and B, the QuantizeLinear after it, their constant
// scales and zero points, and the Relu in between (nil: none).
type QDQAdd struct {
	DA, DB                       *Node
	AScale, AZero, BScale, BZero *tensor.Tensor
	Relu, Q                      *Node
	YScale, YZero                *tensor.Tensor
}

// qdqAdd is a fused addition's integer form, fixed at load.
type qdqAdd struct {
	dt tensor.DataType // A's, B's and Y's 8-bit type
	k  binaryKernel
}

// FuseQDQAdd makes p, an Add (version 7 on: numpy broadcasting), run the
// chain q as one int8 addition in runs that fuse, when that is well
// defined: every scale a float32 scalar, finite and positive, every zero
// point a scalar of one 8-bit type, the same for A, B and Y, per-tensor
// (no blocks), Q's output type its zero point's. It reports whether it
// fused. A run that fuses then passes the Add the 8-bit A and B (the
// DequantizeLinear nodes pass their inputs through) and the Relu and
// QuantizeLinear pass the Add's 8-bit output on.
func FuseQDQAdd(p *Node, q QDQAdd) bool {
	if p == nil || p.Domain != "" || p.OpType != "Add" || p.Version < 7 || p.fusion != nil || q.DA == nil || q.DB == nil || q.Q == nil {
		return false
	}
	for _, d := range []*Node{q.DA, q.DB, q.Q} {
		if bs, err := d.Int("block_size", 0); err != nil || bs != 0 {
			return false
		}
		if od, err := d.Int("output_dtype", 0); err != nil || (od != 0 && (d != q.Q || q.YZero == nil || int64(q.YZero.DataType()) != od)) {
			return false
		}
	}
	scalar := func(t *tensor.Tensor) bool { return t != nil && t.Len() == 1 && t.Rank() <= 1 }
	var s [3]float32
	var z [3]int32
	zeros := [3]*tensor.Tensor{q.AZero, q.BZero, q.YZero}
	for i, sc := range []*tensor.Tensor{q.AScale, q.BScale, q.YScale} {
		zt := zeros[i]
		if !scalar(sc) || sc.DataType() != tensor.Float || !scalar(zt) || zt.DataType() != zeros[0].DataType() || !int8Type(zt.DataType()) {
			return false
		}
		s[i] = elems[float32](sc)[0]
		if !(s[i] > 0) || math.IsInf(float64(s[i]), 0) {
			return false
		}
		z[i] = int32(zeroByte(zt))
	}
	dt := zeros[0].DataType()
	signed := dt == tensor.Int8
	prm := quant.NewAddParams(s[0], s[1], s[2], z[0], z[1], z[2], signed, q.Relu != nil)
	c := &qdqAdd{dt: dt}
	if signed {
		c.k = qdqAddSpans[int8](prm)
	} else {
		c.k = qdqAddSpans[uint8](prm)
	}
	p.fusion = &nodeFusion{qdqAdd: c}
	return true
}

func qdqAddSpans[T int8 | uint8](p *quant.AddParams) binarySpans[T, T, T] {
	return binarySpans[T, T, T]{
		Both:  func(o, a, b []T) { quant.Add(p, o, a, b) },
		Left:  func(o []T, a T, b []T) { quant.AddLeft(p, o, a, b) },
		Right: func(o, a []T, b T) { quant.AddRight(p, o, a, b) },
	}
}

// runQDQAdd is the fused chain of n (FuseQDQAdd) on its 8-bit A and B.
func (n *Node) runQDQAdd(opt *Options, c *qdqAdd, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	opt = opt.orDefault()
	x, err := n.requiredInput(in, 0, "A")
	if err != nil {
		return nil, err
	}
	y, err := n.requiredInput(in, 1, "B")
	if err != nil {
		return nil, err
	}
	for _, t := range []*tensor.Tensor{x, y} {
		if err := checkInput(op, "A", t); err != nil {
			return nil, err
		}
		if t.DataType() != c.dt {
			return nil, op.errorf("type", "fused QDQ addition of %v given %v", c.dt, t.DataType())
		}
	}
	out, bAt, err := broadcastOutput(op, n, false, x.Shape(), y.Shape())
	if err != nil {
		return nil, err
	}
	z, err := opt.newOverwritten(op, c.dt, out)
	if err != nil {
		return nil, err
	}
	if err := c.k.Run(opt.elementwise(), n.keptWalk(out, x.Shape(), bAt), z, x, y); err != nil {
		return nil, op.wrap("cancelled", err, "run stopped")
	}
	return opt.result(z), nil
}
