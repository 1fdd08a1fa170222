// A MaxPool between a DequantizeLinear and a QuantizeLinear of the same
// scale and zero point (a static int8 network's pooling) runs on the 8-bit
// values as they are (FuseQDQPool, LoadOptions.ExactQDQ turns it off):
// DequantizeLinear is monotone (a float32 product by a positive scale), so
// the maximum of the dequantized window is the dequantized maximum, and
// QuantizeLinear of the same scale and zero point gives back that 8-bit
// value exactly ((q-z)*s/s is within 2^-22 of q-z, |q-z| < 256). Unlike
// the fused convolution and addition this changes no bit; it requires a
// window never wholly in the padding (the float chain's -inf there would
// saturate to the type's lowest value): no ceil_mode, no auto_pad SAME_*,
// each pad at most (kernel-1)*dilation.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/quant"
	"github.com/onnxshape/onnxshape/tensor"
)

// FuseQDQPool reports whether p, a MaxPool (version 12 on: 8-bit inputs)
// of one output between q.DX and q.Q, may run on DequantizeLinear's 8-bit
// input in runs that fuse: the scales float32 scalars, equal, finite and
// positive; the zero points scalars of one 8-bit type and value; Q's output
// type the zero point's; the windows as the header says. A run that fuses
// then passes the MaxPool the 8-bit x (the DequantizeLinear passes its
// input through) and the QuantizeLinear passes its output on.
func FuseQDQPool(p *Node, q QDQ) bool {
	if p == nil || p.Domain != "" || p.OpType != "MaxPool" || p.Version < 12 || p.NumOutputs > 1 || p.fusion != nil || q.DX == nil || q.Q == nil {
		return false
	}
	for _, d := range []*Node{q.DX, q.Q} {
		if bs, err := d.Int("block_size", 0); err != nil || bs != 0 {
			return false
		}
		if od, err := d.Int("output_dtype", 0); err != nil || (od != 0 && (d != q.Q || q.YZero == nil || int64(q.YZero.DataType()) != od)) {
			return false
		}
	}
	scalar := func(t *tensor.Tensor) bool { return t != nil && t.Len() == 1 && t.Rank() <= 1 }
	if !scalar(q.XScale) || !scalar(q.YScale) || q.XScale.DataType() != tensor.Float || q.YScale.DataType() != tensor.Float ||
		!scalar(q.XZero) || !scalar(q.YZero) || !int8Type(q.XZero.DataType()) || q.YZero.DataType() != q.XZero.DataType() {
		return false
	}
	s := elems[float32](q.XScale)[0]
	if !(s > 0) || math.IsInf(float64(s), 0) || math.Float32bits(s) != math.Float32bits(elems[float32](q.YScale)[0]) ||
		zeroByte(q.XZero) != zeroByte(q.YZero) {
		return false
	}
	a, err := readPoolAttrs(p, true, true)
	if err != nil || a.CeilMode || (a.AutoPad != "" && a.AutoPad != "NOTSET" && a.AutoPad != "VALID") {
		return false
	}
	for i, k := range a.Kernel {
		d := 1
		if i < len(a.Dilations) {
			d = a.Dilations[i]
		}
		if len(a.Pads) == 2*len(a.Kernel) && (a.Pads[i] > (k-1)*d || a.Pads[i+len(a.Kernel)] > (k-1)*d) {
			return false
		}
	}
	if p.fusion == nil {
		p.fusion = &nodeFusion{}
	}
	p.fusion.qdqPool = true
	return true
}

// qdqPoolRow is the longest padded row runQDQPool keeps on its stack.
const qdqPoolRow = 4096

// runQDQPool is the MaxPool of n (FuseQDQPool) on its 8-bit x for images
// of two spatial axes: per output row, the maximum of the window's input
// rows into a row padded with the type's lowest value, then each window's
// maximum along it (quant.MaxInto, quant.MaxWindows), the planes split
// across the cores. done is false, nothing done, for other inputs (and
// rows too long for the stack): MaxPool's own kernel runs them.
func (n *Node) runQDQPool(opt *Options, x *tensor.Tensor) (y *tensor.Tensor, done bool, err error) {
	if x == nil || x.Rank() != 4 || !int8Type(x.DataType()) {
		return nil, false, nil
	}
	op := n.op()
	opt = opt.orDefault()
	if err := checkInput(op, "X", x); err != nil {
		return nil, true, err
	}
	a, err := readPoolAttrs(n, true, true)
	if err != nil {
		return nil, true, err
	}
	axes, _, err := maxPoolShape(opt, op, x.DataType(), x.Shape(), MaxPoolOptions{AutoPad: a.AutoPad, CeilMode: a.CeilMode,
		Dilations: a.Dilations, KernelShape: a.Kernel, Pads: a.Pads, Strides: a.Strides})
	if err != nil {
		return nil, true, err
	}
	ah, aw := axes[0], axes[1]
	wp := (aw.Out-1)*aw.Stride + (aw.Kernel-1)*aw.Dilation + 2 // one byte past: MaxWindows' stride-2 loads
	if aw.Out > 0 && (wp > qdqPoolRow || aw.PadBegin >= wp) {
		return nil, false, nil
	}
	y, err = opt.newOverwritten(op, x.DataType(), maxPoolOutShape(x.Shape(), axes))
	if err != nil || y.Len() == 0 {
		return y, true, err
	}
	signed := x.DataType() == tensor.Int8
	low := byte(lowest(x.DataType()))
	ih, iw := ah.In, aw.In
	cols := min(iw, wp-aw.PadBegin) // the input columns any window reads fit in the row
	xb, yb := x.Bytes(), y.Bytes()
	planes := x.Shape()[0] * x.Shape()[1]
	err = parallelRange(opt, planes, len(xb), func(lo, hi int) error {
		var buf [qdqPoolRow]byte
		row := buf[:wp]
		fillByte(row, low)
		mid := row[aw.PadBegin : aw.PadBegin+cols]
		for p := lo; p < hi; p++ {
			xp, yp := xb[p*ih*iw:(p+1)*ih*iw], yb[p*ah.Out*aw.Out:(p+1)*ah.Out*aw.Out]
			for oy := range ah.Out {
				first := true
				for r := range ah.Kernel {
					iy := oy*ah.Stride - ah.PadBegin + r*ah.Dilation
					if iy < 0 || iy >= ih {
						continue
					}
					if first {
						copy(mid, xp[iy*iw:])
						first = false
					} else {
						quant.MaxInto(mid, xp[iy*iw:iy*iw+cols], signed)
					}
				}
				if first {
					fillByte(mid, low) // a window wholly in the padding: the float chain's -inf saturates to low
				}
				quant.MaxWindows(yp[oy*aw.Out:(oy+1)*aw.Out], row, aw.Kernel, aw.Dilation, aw.Stride, signed)
			}
		}
		return nil
	})
	if err != nil {
		return nil, true, op.stopped(err)
	}
	return y, true, nil
}

func fillByte(b []byte, v byte) {
	for i := range b {
		b[i] = v
	}
}
