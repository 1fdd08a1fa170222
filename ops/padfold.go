package ops

import (
	"math"
	"slices"

	"github.com/onnxshape/onnxshape/ops/internal/window"
	"github.com/onnxshape/onnxshape/tensor"
)

// FusePad folds pad, a Pad that only c, a Conv, reads, into c's pads, as
// onnxruntime does at load: tf2onnx and Keras write a strided
// convolution's "same" padding as such a Pad before a Conv with pads 0. It
// folds only when the pair is exactly the Conv alone with its pads
// widened: mode constant, the value 0 (absent, or a +0 of any float type:
// a -0 is not folded, since a window of padding only would sum -0
// products where the Conv's implicit padding adds none), every pad
// non-negative, none on the batch and channel axes, and c's auto_pad
// NOTSET. in holds the Pad's inputs after data (pads, constant_value,
// axes; from version 11), each a constant or nil when absent; w is c's
// weight when constant (nil otherwise), which with kernel_shape gives the
// rank the Pad's axes refer to. It reports whether they fused; a run that
// fuses then passes the Pad's input through and runs c with the sum of
// the pads (Conv's X is then the Pad's input, unpadded), one that does
// not runs both nodes as written.
func FusePad(pad, c *Node, in []*tensor.Tensor, w *tensor.Tensor) bool {
	if pad == nil || c == nil || pad.OpType != "Pad" || c.OpType != "Conv" || pad.Domain != "" || c.Domain != "" {
		return false
	}
	if c.fusion != nil && c.fusion.pads != nil {
		return false
	}
	if mode, err := pad.Str("mode", "constant"); err != nil || mode != "constant" {
		return false
	}
	if ap, err := c.Str("auto_pad", window.AutoPadNotSet); err != nil || (ap != window.AutoPadNotSet && ap != "") {
		return false
	}
	convPads, _, err := c.intsAttr("pads", "pads")
	if err != nil {
		return false
	}
	kernel, _, err := c.intsAttr("kernel_shape", "kernel_shape")
	if err != nil {
		return false
	}
	rank := -1
	if w != nil {
		rank = w.Rank()
	} else if kernel != nil {
		rank = len(kernel) + 2
	}
	at := func(k int) *tensor.Tensor {
		if k < len(in) {
			return in[k]
		}
		return nil
	}
	var pads []int
	var axes []int
	if pad.Version < 11 {
		name := "pads"
		if pad.Version == 1 {
			name = "paddings"
		}
		var ok bool
		if pads, ok, err = pad.intsAttr(name, "pads"); err != nil || !ok {
			return false
		}
		if v, err := pad.Float("value", 0); err != nil || math.Float32bits(v) != 0 {
			return false
		}
	} else {
		p := at(0)
		if p == nil || p.DataType() != tensor.Int64 || p.Rank() != 1 {
			return false
		}
		if pads, err = toInts(elems[int64](p)); err != nil {
			return false
		}
		if v := at(1); v != nil && !positiveZero(v) {
			return false
		}
		if pad.Version >= 18 {
			if a := at(2); a != nil {
				if a.Rank() != 1 || (a.DataType() != tensor.Int64 && a.DataType() != tensor.Int32) {
					return false
				}
				for i := range a.Len() {
					var v int
					if a.DataType() == tensor.Int64 {
						v = int(elems[int64](a)[i])
					} else {
						v = int(elems[int32](a)[i])
					}
					axes = append(axes, v)
				}
			}
		} else if at(2) != nil {
			return false
		}
	}
	if axes == nil {
		if rank >= 0 && len(pads) != 2*rank {
			return false
		}
		rank = len(pads) / 2
		if len(pads) != 2*rank {
			return false
		}
	}
	if rank < 3 {
		return false
	}
	// begin[k], end[k] of every axis.
	begin, end := make([]int, rank), make([]int, rank)
	if axes == nil {
		copy(begin, pads[:rank])
		copy(end, pads[rank:])
	} else {
		if len(pads) != 2*len(axes) {
			return false
		}
		seen := make([]bool, rank)
		for i, k := range axes {
			if k < 0 {
				k += rank
			}
			if k < 0 || k >= rank || seen[k] {
				return false
			}
			seen[k] = true
			begin[k], end[k] = pads[i], pads[len(axes)+i]
		}
	}
	if begin[0] != 0 || end[0] != 0 || begin[1] != 0 || end[1] != 0 {
		return false
	}
	spatial := rank - 2
	if depthwiseConv(c, w, spatial) && !finiteWeights(w) {
		return false
	}
	if convPads == nil {
		convPads = make([]int, 2*spatial)
	}
	if len(convPads) != 2*spatial || (kernel != nil && len(kernel) != spatial) {
		return false
	}
	sum := slices.Clone(convPads)
	for i := range spatial {
		b, e := begin[i+2], end[i+2]
		if b < 0 || e < 0 || sum[i] < 0 || sum[i+spatial] < 0 || b > window.MaxAttr || e > window.MaxAttr {
			return false
		}
		sum[i] += b
		sum[i+spatial] += e
		if sum[i] > window.MaxAttr || sum[i+spatial] > window.MaxAttr {
			return false
		}
	}
	if c.fusion == nil {
		c.fusion = &nodeFusion{}
	}
	c.fusion.pads = sum
	return true
}

// A depthwise Conv folds its Pad only when its weight is constant and
// finite. Its engine (ops/internal/conv/depthwise.go) skips the taps of
// its own padding, where the Pad's zeros are multiplied: with an infinite
// or NaN weight the pair gives NaN (0*Inf) where the folded Conv would
// not. With finite weights the two differ only in rounding: the engine
// sums the columns every tap reaches with fused multiply-adds and the
// edge columns with a multiply and an add, and the folded pads turn some
// interior columns into edges; both stay within the Conv's bound of the
// reference engine's pair (TestPadFoldDepthwiseWithinBound).

// finiteWeights reports whether w is a constant whose every element is
// finite.
func finiteWeights(w *tensor.Tensor) bool {
	if w == nil {
		return false
	}
	v, err := w.Float64s()
	if err != nil {
		return false
	}
	for _, x := range v {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return false
		}
	}
	return true
}

// depthwiseConv reports whether c, with weight w (nil: not constant), may
// run on the depthwise engine: group == C == M over one or two spatial
// axes. Without w it cannot tell, and says it may.
func depthwiseConv(c *Node, w *tensor.Tensor, spatial int) bool {
	if spatial > 2 {
		return false
	}
	if w == nil || w.Rank() < 2 {
		return true
	}
	group, err := c.intAttr("group", 1, "group")
	if err != nil {
		return true
	}
	return w.Shape()[1] == 1 && w.Shape()[0] == group
}

// positiveZero reports whether v is one value of a float type, +0.
func positiveZero(v *tensor.Tensor) bool {
	switch v.DataType() {
	case tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16:
	default:
		return false
	}
	if v.Len() != 1 {
		return false
	}
	for _, b := range v.Bytes() {
		if b != 0 {
			return false
		}
	}
	return true
}

// fusedPads returns the pads a run uses in place of the Conv's own: those
// of a fused Pad added (FusePad) when the run fuses, nil otherwise.
func (n *Node) fusedPads(opt *Options) []int {
	if n == nil || n.fusion == nil || n.fusion.pads == nil || !opt.fusing() {
		return nil
	}
	return n.fusion.pads
}
