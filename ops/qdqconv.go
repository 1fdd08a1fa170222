// A quantized convolution written in QDQ form, run as one int8 product
// (FuseQDQ, LoadOptions.ExactQDQ turns it off): exporters (torch.onnx,
// onnxruntime's quantizer) write a static int8 network as
//
//	DequantizeLinear(x) -> Conv(DequantizeLinear(w), DequantizeLinear(b)) [-> Relu] -> QuantizeLinear
//
// which, run as written, is a float convolution between two passes over
// memory. Fused, the Conv runs ConvInteger's engine on the 8-bit x and w
// (int32 sums, exact: the load bounds them below 2^31 from the constant
// weights), adds the int32 bias and writes y as QuantizeLinear would:
//
//	y = saturate(round_half_even((sum + b) * (x_scale*w_scale/y_scale)) + y_zero_point)
//
// the multiplier computed once in float64 from the float32 scales, the
// product in float64 (quant.Requantize), a Relu a clip at y_zero_point
// (QuantizeLinear is monotone and maps 0 to its zero point). The result
// is the real-number result correctly rounded except within about 2^-50
// of a tie; the float chain rounds every addition of the Conv in float32,
// so the two can differ by one quantum where the float result falls next
// to a rounding boundary. That is the one load-time fusion that changes
// bits (onnxruntime's QDQ fusion does the same); the reference engine, the
// SONNX profile, NoFuse and ExactQDQ run the nodes as written.

package ops

import (
	"math"
	"slices"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/ops/internal/quant"
	"github.com/onnxshape/onnxshape/tensor"
)

// QDQ is what FuseQDQ reads of a chain: the constant inputs of its
// DequantizeLinear and QuantizeLinear nodes (nil where absent) and the
// nodes themselves, for their attributes.
type QDQ struct {
	// DX dequantizes the Conv's X: XScale and XZero its scale and zero point.
	DX            *Node
	XScale, XZero *tensor.Tensor
	// DW dequantizes the constant weights W.
	DW               *Node
	W, WScale, WZero *tensor.Tensor
	// DB dequantizes the constant int32 bias B (nil: the Conv has none).
	DB               *Node
	B, BScale, BZero *tensor.Tensor
	// Relu, when not nil, is between the Conv and Q (or fused into the
	// Conv as its activation).
	Relu *Node
	// Q quantizes the output to YScale and YZero.
	Q             *Node
	YScale, YZero *tensor.Tensor
}

// qdqConv is a fused chain's integer form, fixed at load.
type qdqConv struct {
	xz, w, wz *tensor.Tensor
	bias      []int32   // M values, nil for none
	mult      []float64 // x_scale*w_scale/y_scale, one or M
	yz        *tensor.Tensor
	relu      bool
	pack      *weightPack
}

// FuseQDQ makes p, a Conv, run the chain q as one int8 convolution in
// runs that fuse, when that is well defined: every scale float and per
// tensor (w's also per output channel), every zero point, W and B
// constant, x, w and y 8-bit, B's scale x_scale*w_scale rounded to float32
// and its zero point 0, and no int32 sum able to overflow. The packed
// weights are told to charge first; FuseQDQ returns their bytes and
// whether it fused. A run that fuses then passes the Conv the 8-bit x, w
// and B (the DequantizeLinear nodes pass their inputs through) and the
// Relu and QuantizeLinear pass the Conv's 8-bit output on.
func FuseQDQ(p *Node, q QDQ, charge func(int64) error) (int64, bool) {
	if p == nil || p.Domain != "" || p.OpType != "Conv" || q.DX == nil || q.DW == nil || q.Q == nil {
		return 0, false
	}
	if f := p.fusion; f != nil && (f.w != nil || f.b != nil || f.c != nil || f.bias != nil || f.residual != nil ||
		f.gate != nil || f.pads != nil || f.qdq != nil || (f.act != nil && (f.act.OpType != "Relu" || f.act != q.Relu))) {
		return 0, false
	}
	// The attributes: per-tensor or (w) per-axis 0, no blocks, outputs float.
	for _, d := range []*Node{q.DX, q.DW, q.DB, q.Q} {
		if d == nil {
			continue
		}
		if bs, err := d.Int("block_size", 0); err != nil || bs != 0 {
			return 0, false
		}
		if od, err := d.Int("output_dtype", 0); err != nil || (od != 0 && d != q.Q) {
			return 0, false
		}
	}
	if od, _ := q.Q.Int("output_dtype", 0); od != 0 && (q.YZero == nil || int64(q.YZero.DataType()) != od) {
		return 0, false
	}
	scalar := func(t *tensor.Tensor) bool { return t != nil && t.Len() == 1 && t.Rank() <= 1 }
	float := func(t *tensor.Tensor) bool { return t != nil && t.DataType() == tensor.Float }
	zeroOf := func(z, s *tensor.Tensor, dt tensor.DataType) bool {
		return z == nil || (z.DataType() == dt && slices.Equal(z.Shape(), s.Shape()))
	}
	if !float(q.XScale) || !scalar(q.XScale) || q.XZero == nil || !int8Type(q.XZero.DataType()) || !scalar(q.XZero) {
		return 0, false
	}
	if !float(q.YScale) || !scalar(q.YScale) || q.YZero == nil || !int8Type(q.YZero.DataType()) || !scalar(q.YZero) {
		return 0, false
	}
	w := q.W
	if w == nil || !int8Type(w.DataType()) || w.Rank() < 3 || w.Len() == 0 || !float(q.WScale) || !zeroOf(q.WZero, q.WScale, w.DataType()) {
		return 0, false
	}
	m := w.Shape()[0]
	k := w.Len() / m
	perChannel := !scalar(q.WScale)
	if perChannel {
		axis, err := q.DW.Int("axis", 1)
		if err != nil || (axis != 0 && axis != -int64(w.Rank())) || q.WScale.Rank() != 1 || q.WScale.Len() != m {
			return 0, false
		}
	}
	xs := elems[float32](q.XScale)[0]
	ys := elems[float32](q.YScale)[0]
	ws := elems[float32](q.WScale)
	for _, s := range []float32{xs, ys} {
		if !(s > 0) || math.IsInf(float64(s), 0) {
			return 0, false
		}
	}
	c := &qdqConv{xz: q.XZero, w: w, wz: q.WZero, yz: q.YZero, relu: q.Relu != nil}
	for _, s := range ws {
		if !(s > 0) || math.IsInf(float64(s), 0) {
			return 0, false
		}
		c.mult = append(c.mult, float64(xs)*float64(s)/float64(ys))
	}
	if q.DB != nil {
		b := q.B
		if b == nil || b.DataType() != tensor.Int32 || b.Rank() != 1 || b.Len() != m || !float(q.BScale) ||
			(q.BZero != nil && (q.BZero.DataType() != tensor.Int32 || q.BZero.Len() != q.BScale.Len())) {
			return 0, false
		}
		if q.BZero != nil && slices.ContainsFunc(elems[int32](q.BZero), func(z int32) bool { return z != 0 }) {
			return 0, false
		}
		bs := elems[float32](q.BScale)
		if len(bs) != 1 {
			if axis, err := q.DB.Int("axis", 1); err != nil || (axis != 0 && axis != -1) || len(bs) != m {
				return 0, false
			}
		}
		// The bias is on the sums' scale: x_scale*w_scale in float32.
		for ch := range m {
			if bs[min(ch, len(bs)-1)] != xs*ws[min(ch, len(ws)-1)] {
				return 0, false
			}
		}
		c.bias = elems[int32](b)
	}
	// No int32 overflow: |x - x_zero| at most xmax, each output's sum at
	// most xmax * sum |w - w_zero| + |b|.
	xz := int64(zeroByte(q.XZero))
	xmax := max(xz-int64(lowest(q.XZero.DataType())), int64(highest(q.XZero.DataType()))-xz)
	wv := w.Bytes()
	for ch := range m {
		wz := int64(0)
		if q.WZero != nil {
			wz = int64(at8(q.WZero, min(ch, q.WZero.Len()-1)))
		}
		var sum int64
		for i := ch * k; i < (ch+1)*k; i++ {
			d := int64(wv[i])
			if w.DataType() == tensor.Int8 {
				d = int64(int8(wv[i]))
			}
			sum += abs64(d - wz)
		}
		sum *= xmax
		if c.bias != nil {
			sum += abs64(int64(c.bias[ch]))
		}
		if sum > math.MaxInt32 {
			return 0, false
		}
	}
	var bytes int64
	if pw, err := packConvIntegerW(p, w, gemm.Config{Charge: charge}); err == nil && pw != nil {
		pw.src = w
		c.pack, bytes = pw, pw.bytes()
	}
	if p.fusion == nil {
		p.fusion = &nodeFusion{}
	}
	p.fusion.qdq = c
	return bytes, true
}

// runQDQConv is the fused chain of n (FuseQDQ) on x, its 8-bit input.
func (n *Node) runQDQConv(opt *Options, c *qdqConv, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	a, err := readConvAttrs(n, true)
	if err != nil {
		return nil, err
	}
	opt = opt.orDefault()
	var y *tensor.Tensor
	var acc []int32
	var accBuf *[]int32
	defer func() {
		if accBuf != nil {
			accPool.Put(accBuf)
		}
	}()
	err = integerConv(opt, op, n, x, c.w, c.xz, c.wz, a, c.pack, func(shape []int) ([]int32, error) {
		var err error
		y, accBuf, err = quantizedOutput(opt, op, c.yz.DataType(), shape)
		if err != nil {
			return nil, err
		}
		acc = *accBuf
		return acc, nil
	})
	if err != nil {
		return nil, err
	}
	if err := c.requantize(opt, y, acc); err != nil {
		return nil, op.stopped(err)
	}
	return opt.result(y), nil
}

// requantize writes the sums acc, plus the bias, to y as QuantizeLinear
// would write the real convolution, channel by channel, the planes split
// across the cores; a fused Relu clips at y's zero point (in the
// saturation: the same bits).
func (c *qdqConv) requantize(opt *Options, y *tensor.Tensor, acc []int32) error {
	shape := y.Shape()
	m := shape[1]
	plane := 1
	for _, d := range shape[2:] {
		plane *= d
	}
	if plane == 0 {
		return nil
	}
	signed := c.yz.DataType() == tensor.Int8
	zero := float64(zeroByte(c.yz))
	ylo, yhi := quant.Range(signed)
	if c.relu {
		ylo = max(ylo, zero) // Relu then QuantizeLinear: clipped at the zero point
	}
	out := y.Bytes()
	return parallelRange(opt, len(acc)/plane, len(acc), func(lo, hi int) error {
		for p := lo; p < hi; p++ {
			ch := p % m
			var bias int32
			if c.bias != nil {
				bias = c.bias[ch]
			}
			o := out[p*plane : (p+1)*plane]
			quant.RequantizeClip(o, acc[p*plane:(p+1)*plane], bias, c.mult[min(ch, len(c.mult)-1)], zero, ylo, yhi)
		}
		return nil
	})
}

// zeroByte is the one 8-bit value of z as an integer.
func zeroByte(z *tensor.Tensor) int { return at8(z, 0) }

// at8 is value i of the 8-bit tensor t.
func at8(t *tensor.Tensor, i int) int {
	if t.DataType() == tensor.Int8 {
		return int(int8(t.Bytes()[i]))
	}
	return int(t.Bytes()[i])
}

func lowest(dt tensor.DataType) int {
	if dt == tensor.Int8 {
		return -128
	}
	return 0
}

func highest(dt tensor.DataType) int {
	if dt == tensor.Int8 {
		return 127
	}
	return 255
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
